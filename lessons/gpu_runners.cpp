// The GPU steps of every chapter (a build with CUDA).
#include "allreduce_chapter.h"
#include "basics_chapter.h"
#include "catalog.h"
#include "gemm_chapter.h"
#include "gemv_chapter.h"
#include "reduce_chapter.h"
#include "roofline_chapter.h"
#include "split_chapter.h"

namespace lessons {

std::vector<std::pair<std::string, StepRunner>> GpuRunners() {
    std::vector<std::pair<std::string, StepRunner>> all;
    for (auto* chapter :
         {&split::SplitGpuRunners, &split::SplitMultiGpuRunners, &basics::BasicsGpuRunners,
          &reduce::ReduceGpuRunners, &reduce::ReduceMultiGpuRunners, &gemv::GemvGpuRunners,
          &gemm::GemmGpuRunners, &roofline::RooflineGpuRunners, &allreduce::AllreduceGpuRunners})
        for (auto& runner : chapter()) all.push_back(std::move(runner));
    return all;
}

}  // namespace lessons
