// Leaving NVLink: the previous step's ranks, with NCCL told not to use the paths that exist only
// inside one machine. NCCL_P2P_DISABLE=1 takes away direct GPU-to-GPU copies over NVLink (and
// PCIe), NCCL_SHM_DISABLE=1 the staging through shared host memory, so the only transport left
// is NCCL's network one; with no InfiniBand card it is plain TCP sockets (NCCL_NET=Socket), here
// over the loopback interface (NCCL_SOCKET_IFNAME=lo), so every byte goes GPU -> host -> kernel
// socket -> host -> GPU as it would between two machines, minus the wire. On a real cluster the
// network is InfiniBand or RoCE with GPUDirect RDMA, NCCL_IB_HCA picks the cards and
// NCCL_SOCKET_IFNAME the interface the bootstrap uses.
#include "ranks_gpu.cuh"

namespace lessons::allreduce {
namespace {

void NetworkOnly(const std::string& /*algo*/, bool remote, std::vector<std::string>& env) {
    env.push_back("NCCL_P2P_DISABLE=1");
    env.push_back("NCCL_SHM_DISABLE=1");
    env.push_back("NCCL_NET=Socket");
    if (!remote) env.push_back("NCCL_SOCKET_IFNAME=lo");  // between hosts: NCCL's own choice
}

const RankSettings kAllreduceLeavingNvlink{&NetworkOnly};

}  // namespace

LESSONS_KERNELS(kAllreduceLeavingNvlink);

}  // namespace lessons::allreduce
