// NCCL's all-reduce, the library.
// One call per GPU inside a group; NCCL picks the algorithm (a ring or a tree) and the
// channels, and moves the data with its own kernels over NVLink, cut into many pieces in
// flight on several SMs at once. The reference our ring is measured against.
#include "allreduce_gpu.cuh"

namespace lessons::allreduce {
namespace {

nccl::Result Nccl(std::vector<AllreduceGpu>& gpus, uint64_t n, const nccl::Api& api,
                  const nccl::Comms& comms) {
    for (AllreduceGpu& g : gpus) {
        if (cudaSetDevice(g.device) != cudaSuccess) return nccl::Result(1);
        cudaEventRecord(g.start, g.stream);
    }
    nccl::Result r = api.GroupStart();
    for (size_t i = 0; i < gpus.size() && r == nccl::kSuccess; ++i)
        r = api.AllReduce(gpus[i].in, gpus[i].out, n, nccl::kFloat32, nccl::kSum, comms[i],
                          gpus[i].stream);
    const nccl::Result end = api.GroupEnd();
    if (r != nccl::kSuccess) return r;
    if (end != nccl::kSuccess) return end;
    for (AllreduceGpu& g : gpus) {
        cudaSetDevice(g.device);
        cudaEventRecord(g.stop, g.stream);
    }
    return nccl::kSuccess;
}

const NcclCall kAllreduceNccl{&Nccl};

}  // namespace

LESSONS_KERNELS(kAllreduceNccl);

}  // namespace lessons::allreduce
