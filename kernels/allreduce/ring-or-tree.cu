// Ring or tree: the process-per-GPU step with NCCL's algorithm chosen by hand. NCCL_ALGO=Ring
// sends every byte round the ring twice (reduce-scatter, then all-gather): the most bandwidth,
// and 2 (G - 1) steps of latency. NCCL_ALGO=Tree reduces up a tree and broadcasts down it
// (a double binary tree between machines, a chain inside one): about 2 log2(G) steps of latency,
// so it wins on small messages across many GPUs. Left unset, NCCL picks per call from its own
// model of both for the message size, the GPUs and the links it found.
#include "ranks_gpu.cuh"

namespace lessons::allreduce {
namespace {

void Algorithm(const std::string& algo, bool /*remote*/, std::vector<std::string>& env) {
    if (algo == "ring") env.push_back("NCCL_ALGO=Ring");
    if (algo == "tree") env.push_back("NCCL_ALGO=Tree");
    // "nccl": NCCL's own choice, nothing set
}

const RankSettings kAllreduceRingOrTree{&Algorithm};

}  // namespace

LESSONS_KERNELS(kAllreduceRingOrTree);

}  // namespace lessons::allreduce
