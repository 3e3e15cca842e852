// A reduction across GPUs.
// Each GPU holds a share of the floats and sums it with the one-pass kernel (v5), all GPUs at
// once: with G GPUs, G times the memory bandwidth. That leaves one float per GPU, and NCCL's
// all-reduce of one float adds them (and gives every GPU the total). The library does the
// cross-GPU part; a few microseconds of latency, against a kernel that got G times shorter.
#include "reduce_gpu.cuh"
#include "reduce_multi.cuh"

namespace lessons::reduce {
namespace {

cudaError_t SumShares(std::vector<ReduceGpu>& gpus, const OnePassKernel& kernel, int block) {
    for (ReduceGpu& g : gpus) {  // every GPU sums its share, all at once
        if (const cudaError_t e = cudaSetDevice(g.device); e != cudaSuccess) return e;
        cudaEventRecord(g.start, g.stream);
        const cudaError_t e =
            kernel.launch(g.in, g.count, g.sum, g.partials, g.counter, block, g.grid, g.stream);
        if (e != cudaSuccess) return e;
        cudaEventRecord(g.summed, g.stream);
    }
    return cudaSuccess;
}

nccl::Result Combine(std::vector<ReduceGpu>& gpus, const nccl::Api& api, const nccl::Comms& comms) {
    nccl::Result r = api.GroupStart();  // one float per GPU, added, on every GPU
    for (size_t i = 0; i < gpus.size() && r == nccl::kSuccess; ++i)
        r = api.AllReduce(gpus[i].sum, gpus[i].sum, 1, nccl::kFloat32, nccl::kSum, comms[i],
                          gpus[i].stream);
    const nccl::Result end = api.GroupEnd();
    if (r != nccl::kSuccess) return r;
    for (ReduceGpu& g : gpus) {
        cudaSetDevice(g.device);
        cudaEventRecord(g.stop, g.stream);
    }
    return end;
}

const MultiGpuSum kReduceMultiGpuNccl{&SumShares, &Combine};

}  // namespace

LESSONS_KERNELS(kReduceMultiGpuNccl);

}  // namespace lessons::reduce
