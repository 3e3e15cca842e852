// Chapter 7, all-reduce across GPUs: the chapter and its lessons, one row each. Each GPU step's
// kind is implemented in allreduce_harness.cu, where the GPU library is linked.
#include <algorithm>
#include <cstdio>
#include "allreduce_chapter.h"
#include "allreduce_steps.h"

#include "catalog.h"
#include "declare.h"
#include "rank_group.h"
#include "units.h"

namespace lessons {

void RegisterAllreduceChapter(Registry& registry) {
    using namespace allreduce;
    Chapter chapter = NewChapter("allreduce");
    chapter.part_names = {
        {"host add", "add on the host", "主机上相加"},
        {"broadcast", "sum out to the GPUs", "把和发给各 GPU"},
        {"reduce-scatter", "reduce-scatter", "reduce-scatter（分散归约）"},
        {"all-gather", "all-gather", "all-gather（全收集）"},
        {"nccl", "NCCL", "NCCL"},
    };
    ParamSpec size = SizeParam(uint64_t(64) << 20, sizeof(float));
    size.label_en = "Data size per GPU";
    size.label_zh = "每个 GPU 的数据规模";
    chapter.params = {
        size,
        DataParam({
            {"random", "floats uniform in [-1, 1), each GPU its own",
             "[-1, 1) 上均匀分布的浮点数，每个 GPU 各不相同"},
            {"ones", "all 1.0: the sum is G", "全为 1.0：和恰好是 G"},
        }),
        GpusParam(),
    };
    chapter.make_workload = MakeWorkload<AllreduceWorkload>;
    chapter.workload_host_bytes = [](const ParamValues& p) {
        return AllreduceWorkloadHostBytes(p.Number("size"), p.Number("gpus"));
    };
    chapter.describe = [](const ParamValues& p) {
        return FloatsOfSize(p, ", " + p.Choice("data")) + " on each of " +
               std::to_string(p.Number("gpus")) + " GPU" + (p.Number("gpus") == 1 ? "" : "s");
    };
    chapter.size_fit = [](const std::vector<std::pair<uint64_t, double>>& points,
                          const ParamValues& p) {
        // One process per GPU across hosts: every host's `gpus` ranks take part.
        const std::vector<std::string> hosts = RankHosts();
        const int per_host = p.Has("gpus") ? int(p.Number("gpus")) : 1;
        const int g = per_host * int(std::max<size_t>(hosts.size(), 1));
        const AlphaBetaFit fit = FitAlphaBeta(points, g);
        Chapter::Fit out;
        if (!fit.ok) {
            out.en = "alpha-beta model: not fitted: " + fit.why;
            out.zh = "alpha-beta 模型：未拟合：" + fit.why;
            return out;
        }
        char en[256], zh[256];
        std::snprintf(en, sizeof en,
                      "alpha-beta model T = 2(G-1) alpha + 2(G-1)/G S/beta, G = %d: alpha = %.2f "
                      "us per step, beta = %.1f GB/s per link (worst point %.0f%% off the line)",
                      g, fit.alpha_us, fit.beta_gbps, 100 * fit.worst_error);
        std::snprintf(zh, sizeof zh,
                      "alpha-beta 模型 T = 2(G-1) alpha + 2(G-1)/G S/beta，G = %d：alpha = 每步 "
                      "%.2f us，beta = 每条链路 %.1f GB/s（离拟合线最远的点差 %.0f%%）",
                      g, fit.alpha_us, fit.beta_gbps, 100 * fit.worst_error);
        out.en = en;
        out.zh = zh;
        return out;
    };
    const ParamSpec block = BlockParam(32, 1024, 256);  // the add kernel's
    AddChapter(registry, chapter, "lessons/07_allreduce",
               {.kernels = "kernels/allreduce", .needs = &AllreduceRanksNeeds},
               {
                   {.slug = "through-host",
                    .title = "Through the host",
                    .step = ThroughHost{},
                    .params = {ThreadsParam()},
                    .needs = &AllreduceThroughHostNeeds},
                   {.slug = "peer-copies-add-kernel",
                    .title = "Peer copies and an add kernel",
                    .step = PeerCopies{},
                    .params = {block},
                    .needs = &AllreduceGatherNeeds,
                    .focus = {"LDG", "STG"}},
                   {.slug = "ring",
                    .title = "A ring: reduce-scatter, then all-gather",
                    .step = Ring{},
                    .params = {block},
                    .needs = &AllreduceNeeds,
                    .focus = {"LDG", "STG"}},
                   {.slug = "nccl",
                    .title = "NCCL ncclAllReduce",
                    .step = Nccl{},
                    .needs = &AllreduceNeeds},
                   {.slug = "one-process-per-gpu",
                    .title = "One process per GPU",
                    .step = ProcessPerGpu{}},
                   {.slug = "leaving-nvlink",
                    .title = "Leaving NVLink: the network path",
                    .step = ProcessPerGpuWith{},
                    .previous = "one-process-per-gpu"},
                   {.slug = "ring-or-tree",
                    .title = "Ring or tree",
                    .step = ProcessPerGpuWith{},
                    .params = {ChoiceParam(
                        "algo", "NCCL algorithm", "NCCL 算法", {"nccl", "ring", "tree"},
                        {"NCCL's own choice for each call", "NCCL_ALGO=Ring", "NCCL_ALGO=Tree"},
                        {"由 NCCL 按每次调用自行选择", "NCCL_ALGO=Ring", "NCCL_ALGO=Tree"},
                        {"NCCL", "环", "树"})},
                    .previous = "one-process-per-gpu"},
               });
}

}  // namespace lessons
