// The GPU steps of every chapter (a build with CUDA).
#include "catalog.h"
#include "reduce_chapter.h"
#include "roofline_chapter.h"
#include "split_chapter.h"

namespace lessons {

std::vector<std::pair<std::string, StepRunner>> GpuRunners() {
    std::vector<std::pair<std::string, StepRunner>> all;
    for (auto* chapter :
         {&split::SplitGpuRunners, &reduce::ReduceGpuRunners, &roofline::RooflineGpuRunners})
        for (auto& runner : chapter()) all.push_back(std::move(runner));
    return all;
}

}  // namespace lessons
