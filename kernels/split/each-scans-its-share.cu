// Each scans its share: each GPU scans its own share (beyond the seed).
// Scatter-gather and OpenMP-per-GPU move every byte twice and scan on one GPU. Here each GPU
// copies in its share and the one byte after it, scans it with the vector-loads step's kernel
// (offsets counted from the share's start), and only the offsets come back: no peer traffic, every
// GPU's link and SMs busy at once. A pair that straddles a boundary starts in exactly one share,
// whose extra byte lets it see the '\n'; the next share never looks back.
#include "split_multi.cuh"

namespace lessons::split {

cudaError_t SplitEachScansItsShare(SplitMulti& m, uint64_t* found) {
    for (SplitGpu& g : m.gpus) {
        LESSONS_CUDA_TRY(cudaSetDevice(g.device));
        LESSONS_CUDA_TRY(cudaEventRecord(g.start, g.stream));
        const uint64_t size = g.end - g.begin;
        const uint64_t bytes = size ? size + (g.end < m.n ? 1 : 0) : 0;  // and the byte after
        if (bytes)
            LESSONS_CUDA_TRY(
                cudaMemcpyAsync(g.buf, m.host + g.begin, bytes, cudaMemcpyHostToDevice, g.stream));
        LESSONS_CUDA_TRY(cudaEventRecord(g.copied, g.stream));
        LESSONS_CUDA_TRY(cudaMemsetAsync(g.count, 0, sizeof(unsigned long long), g.stream));
        LESSONS_CUDA_TRY(m.scan(g.buf, size, g.out, g.count, m.block, g.stream, g.begin));
        LESSONS_CUDA_TRY(cudaEventRecord(g.scanned, g.stream));
        LESSONS_CUDA_TRY(cudaMemcpyAsync(g.host_count, g.count, sizeof(unsigned long long),
                                         cudaMemcpyDeviceToHost, g.stream));
    }
    // Only results travel: each GPU's offsets, placed one after another on the host.
    uint64_t total = 0;
    const uint64_t capacity = SplitCapacity(m.n);
    for (SplitGpu& g : m.gpus) {
        LESSONS_CUDA_TRY(cudaSetDevice(g.device));
        LESSONS_CUDA_TRY(cudaStreamSynchronize(g.stream));
        const uint64_t mine = *g.host_count;
        if (mine > capacity - total) {
            total = capacity + 1;  // a broken count: the check reports it
            break;
        }
        if (mine)
            LESSONS_CUDA_TRY(cudaMemcpyAsync(m.result + total, g.out,
                                             mine * sizeof(unsigned long long),
                                             cudaMemcpyDeviceToHost, g.stream));
        total += mine;
    }
    for (SplitGpu& g : m.gpus) {
        LESSONS_CUDA_TRY(cudaSetDevice(g.device));
        LESSONS_CUDA_TRY(cudaEventRecord(g.done, g.stream));
        LESSONS_CUDA_TRY(cudaStreamSynchronize(g.stream));
    }
    *found = total;
    return cudaSuccess;
}

}  // namespace lessons::split
