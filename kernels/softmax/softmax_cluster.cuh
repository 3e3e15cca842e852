// Chapter 9's thread block clusters (sm_90), shared by lessons 9.7 (softmax, cluster.cu) and 9.8
// (RMSNorm, rmsnorm.cu), host side: the permissions and the shared memory a part may have, the
// automatic number of blocks, how many clusters fit, the launch. The device side (a block's part
// loaded, a block's value exchanged with the cluster) is softmax_cluster_device.cuh.
#pragma once

#include <algorithm>
#include <initializer_list>

#include "softmax_cluster_device.cuh"
#include "softmax_gpu.cuh"

namespace lessons::softmax {

// ---- host side ----

// The automatic choice's aim: at most 32 KiB of the row a block (the fewest blocks, a power of
// two, that leave each that much). The most blocks a cluster: 8 is the portable size; sm_90
// allows 16 where the kernel says it accepts more.
constexpr long long kClusterAimPartBytes = 32 * 1024;
constexpr int kClusterMaxBlocks = 16;
// What a cluster kernel's own shared arrays (scratch, slots, barriers) are counted as, at least:
// the CPU mirror's figure (softmax_chapter.h), so that both find the same limit.
constexpr long long kClusterOwnBytes = 512;

// The shared memory a block of `kernels` may have for its part (the most a block may opt in to,
// less the kernel's own arrays), after giving each kernel the permissions it needs (clusters of
// 16 blocks, dynamic shared memory above 48 KiB); 0 before sm_90 or when the GPU refuses. Call it
// once per process (a function-local static).
inline long long AllowClusterParts(std::initializer_list<const void*> kernels) {
    int device = 0, major = 0, optin = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) !=
            cudaSuccess ||
        major < 9) {
        cudaGetLastError();
        return 0;
    }
    long long most = optin;
    for (const void* f : kernels) {
        cudaFuncAttributes a{};
        if (cudaFuncGetAttributes(&a, f) != cudaSuccess) {
            cudaGetLastError();
            return 0;
        }
        most = std::min(most,
                        static_cast<long long>(optin) -
                            std::max(static_cast<long long>(a.sharedSizeBytes), kClusterOwnBytes));
    }
    for (const void* f : kernels)
        if (cudaFuncSetAttribute(f, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) !=
                cudaSuccess ||
            cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(most)) != cudaSuccess) {
            cudaGetLastError();
            return 0;
        }
    return most;
}

// The launch attributes of clusters of `c` blocks in x.
struct ClusterLaunch {
    cudaLaunchConfig_t config = {};
    cudaLaunchAttribute attribute[1];  // config points at it: never copied
    ClusterLaunch(const ClusterLaunch&) = delete;
    ClusterLaunch(unsigned grid, int block, int c, size_t smem, cudaStream_t s) {
        config.gridDim = dim3(grid);
        config.blockDim = dim3(static_cast<unsigned>(block));
        config.dynamicSmemBytes = smem;
        config.stream = s;
        attribute[0].id = cudaLaunchAttributeClusterDimension;
        attribute[0].val.clusterDim.x = static_cast<unsigned>(c);
        attribute[0].val.clusterDim.y = 1;
        attribute[0].val.clusterDim.z = 1;
        config.attrs = attribute;
        config.numAttrs = 1;
    }
};

// How many clusters of `c` blocks of `block` threads with `smem` bytes each the GPU holds at once
// (0: none fits), asked once per kernel and launch shape.
inline int ResidentClusters(const void* kernel, int block, int c, size_t smem) {
    static std::mutex mutex;
    static std::map<std::tuple<const void*, int, int, size_t>, int> known;
    const std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_tuple(kernel, block, c, smem);
    if (auto it = known.find(key); it != known.end()) return it->second;
    ClusterLaunch launch(static_cast<unsigned>(c), block, c, smem, nullptr);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &launch.config) != cudaSuccess) {
        cudaGetLastError();
        clusters = 0;
    }
    known[key] = clusters;
    return clusters;
}

// A row of `chunks` chunks on clusters of `kernel`: C blocks as asked (`asked`), or, for 0, the
// fewest (a power of two, up to 16) that leave each block at most 32 KiB of the row, else 16.
// A block keeps its part (ceil(chunks / C) chunks of 16 bytes) in shared memory: the part must
// fit the shared memory a block may have (`limit`, AllowClusterParts; 0 before sm_90), with room
// for `block` threads and one cluster at least. blocks 0: no cluster fits.
struct ClusterShape {
    int blocks = 0;
    int part = 0;  // chunks a block
};
inline ClusterShape ClusterShapeFor(const void* kernel, long long limit, long long chunks,
                                    int block, int asked) {
    const auto part_of = [&](long long c) { return (chunks + c - 1) / c; };
    long long c = asked;
    if (c <= 0) {
        c = 1;
        while (c < kClusterMaxBlocks && part_of(c) * 16 > kClusterAimPartBytes) c *= 2;
    }
    const long long smem = part_of(c) * 16;
    if (c > kClusterMaxBlocks || smem > limit || FactsOf(kernel, block).max_threads < block ||
        ResidentClusters(kernel, block, static_cast<int>(c), static_cast<size_t>(smem)) == 0)
        return {};
    return {static_cast<int>(c), static_cast<int>(part_of(c))};
}

// Launches `kernel` on m rows of clusters as `shape` says, `args` its arguments.
inline cudaError_t LaunchClusters(const void* kernel, long long m, ClusterShape shape, int block,
                                  cudaStream_t s, void** args) {
    ClusterLaunch launch(static_cast<unsigned>(m * shape.blocks), block, shape.blocks,
                         static_cast<size_t>(shape.part) * 16, s);
    return cudaLaunchKernelExC(&launch.config, kernel, args);
}

}  // namespace lessons::softmax
