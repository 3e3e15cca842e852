// One process per GPU: the program that real multi-GPU jobs run (torchrun, mpirun, nccl-tests).
// Each GPU is driven by a process of its own, a rank; no process can reach another's GPU memory
// or call NCCL for it, so the ranks first agree on one communicator. Rank 0 asks NCCL for an id
// (ncclGetUniqueId: the address where its bootstrap listens, plus a random magic); the id
// reaches every other rank by any channel at all (here the launcher passes it along the sockets
// it talks to its ranks over; mpirun programs use MPI_Bcast); each rank then calls
// ncclCommInitRank with the id, the number of ranks and its own rank, and NCCL's bootstrap
// connects them and finds the fastest path between every pair (NVLink here, a network between
// machines). After that the all-reduce is the same call as in the one-process step, one rank
// per process: no group, no loop over GPUs.
#include "ranks_gpu.cuh"

namespace lessons::allreduce {
namespace {

nccl::Result MakeId(const nccl::RankApi& api, nccl::UniqueId* id) {
    return api.GetUniqueId(id);
}

nccl::Result Join(const nccl::RankApi& api, const nccl::UniqueId& id, int ranks, int rank,
                  nccl::Comm* comm) {
    return api.CommInitRank(comm, ranks, id, rank);  // blocks until every rank has joined
}

// Timed as nccl-tests times: several all-reduces back to back between two events, so the time
// the ranks take to start together is spread over them.
nccl::Result AllReduce(const nccl::Api& api, nccl::Comm comm, const float* in, float* out,
                       uint64_t n, cudaStream_t stream, cudaEvent_t start, cudaEvent_t stop,
                       int times, cudaError_t* cuda) {
    if ((*cuda = cudaEventRecord(start, stream)) != cudaSuccess) return nccl::Result(1);
    for (int i = 0; i < times; ++i) {
        const nccl::Result r = api.AllReduce(in, out, n, nccl::kFloat32, nccl::kSum, comm, stream);
        if (r != nccl::kSuccess) return r;
    }
    if ((*cuda = cudaEventRecord(stop, stream)) != cudaSuccess) return nccl::Result(1);
    return nccl::kSuccess;
}

const NcclRankCall kAllreduceOneProcessPerGpu{&MakeId, &Join, &AllReduce};

}  // namespace

LESSONS_KERNELS(kAllreduceOneProcessPerGpu);

}  // namespace lessons::allreduce
