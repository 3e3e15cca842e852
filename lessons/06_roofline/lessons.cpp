// Chapter 6, the roofline: one lesson. Its step is a kernel whose arithmetic intensity is a
// parameter (FMAs per element), so a sweep over it traces this GPU's roof; the GUI draws its
// page as the roofline of every result measured or recorded (the chapter's whole_roofline). The
// step's kind is implemented in roofline_harness.cu, where the GPU library is linked.
#include "catalog.h"
#include "declare.h"
#include "number_param.h"
#include "roofline_chapter.h"
#include "roofline_steps.h"
#include "units.h"

namespace lessons {
namespace {

Chapter RooflineChapter() {
    using namespace roofline;
    Chapter chapter = NewChapter("roofline");
    chapter.params = {
        SizeParam(uint64_t(64) << 20, sizeof(float)),
        DataParam({kUniformFloats}),
    };
    chapter.make_workload = MakeWorkload<RooflineWorkload>;
    chapter.workload_host_bytes = [](const ParamValues& p) { return p.Number("size"); };
    chapter.describe = [](const ParamValues& p) { return FloatsOfSize(p, ""); };
    chapter.whole_roofline = true;
    return chapter;
}

// The step's arithmetic intensity: FMAs per element, in two chains.
ParamSpec FmasParam() {
    ParamSpec fmas = NumberParam(
        ParamType::kInt, "fmas", "FMAs per element", "每个元素的 FMA 次数", 2, 4096, 64, "FMAs",
        true, "two chains of fmas / 2 each, and powers of two so a sweep doubles the intensity");
    fmas.step = 2;
    fmas.log_scale = true;
    return fmas;
}

}  // namespace

void RegisterRooflineChapter(Registry& registry) {
    AddChapter(registry, RooflineChapter(), "lessons/06_roofline",
               {.kernels = "kernels/roofline", .needs = &roofline::RooflineGpuNeeds},
               {
                   {.slug = "roofline",
                    .title = "The roofline: one kernel at any arithmetic intensity",
                    .step = roofline::Intensity{},
                    .params = {BlockParam(32, 1024, 256), FmasParam()},
                    .focus = {"FP32", "LDG", "STG"},
                    .was = 43},
               });
}

}  // namespace lessons
