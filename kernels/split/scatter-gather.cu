// Scatter, gather: several GPUs, scatter then gather (the seed's idea 6).
// One PCIe link limits how fast the text arrives, but every GPU has its own: each copies its
// share from page-locked host memory at the same time, then sends it to GPU 0 over NVLink
// (peer copies, several times faster than PCIe), and GPU 0 scans the whole text with the
// vector-loads step's kernel. Still: every byte crosses twice, and one GPU does all the scanning.
#include "split_multi.cuh"

namespace lessons::split {

cudaError_t SplitScatterGather(SplitMulti& m, uint64_t* found) {
    SplitGpu& first = m.gpus[0];
    // Scatter: every GPU copies its share in over its own link, all at once.
    for (size_t i = 0; i < m.gpus.size(); ++i) {
        SplitGpu& g = m.gpus[i];
        LESSONS_CUDA_TRY(cudaSetDevice(g.device));
        LESSONS_CUDA_TRY(cudaEventRecord(g.start, g.stream));
        char* to = i == 0 ? first.buf + g.begin : g.buf;
        if (g.end > g.begin)
            LESSONS_CUDA_TRY(cudaMemcpyAsync(to, m.host + g.begin, g.end - g.begin,
                                             cudaMemcpyHostToDevice, g.stream));
        LESSONS_CUDA_TRY(cudaEventRecord(g.copied, g.stream));
    }
    // Gather: the others send their shares to GPU 0 (directly where peer access is on,
    // else the runtime stages them through the host).
    for (size_t i = 1; i < m.gpus.size(); ++i) {
        SplitGpu& g = m.gpus[i];
        LESSONS_CUDA_TRY(cudaSetDevice(g.device));
        if (g.end > g.begin)
            LESSONS_CUDA_TRY(cudaMemcpyPeerAsync(first.buf + g.begin, first.device, g.buf, g.device,
                                                 g.end - g.begin, g.stream));
        LESSONS_CUDA_TRY(cudaEventRecord(g.moved, g.stream));
    }
    LESSONS_CUDA_TRY(cudaSetDevice(first.device));
    for (size_t i = 1; i < m.gpus.size(); ++i)
        LESSONS_CUDA_TRY(cudaStreamWaitEvent(first.stream, m.gpus[i].moved, 0));
    return SplitScanGathered(m, found);
}

cudaError_t SplitScanGathered(SplitMulti& m, uint64_t* found) {
    SplitGpu& first = m.gpus[0];
    LESSONS_CUDA_TRY(cudaEventRecord(first.moved, first.stream));
    LESSONS_CUDA_TRY(cudaMemsetAsync(first.count, 0, sizeof(unsigned long long), first.stream));
    LESSONS_CUDA_TRY(m.scan(first.buf, m.n, first.out, first.count, m.block, first.stream, 0));
    LESSONS_CUDA_TRY(cudaEventRecord(first.scanned, first.stream));
    LESSONS_CUDA_TRY(cudaMemcpyAsync(first.host_count, first.count, sizeof(unsigned long long),
                                     cudaMemcpyDeviceToHost, first.stream));
    LESSONS_CUDA_TRY(cudaStreamSynchronize(first.stream));
    *found = *first.host_count;
    if (*found > SplitCapacity(m.n)) {
        *found = SplitCapacity(m.n) + 1;
    } else if (*found) {
        LESSONS_CUDA_TRY(cudaMemcpyAsync(m.result, first.out, *found * sizeof(unsigned long long),
                                         cudaMemcpyDeviceToHost, first.stream));
    }
    LESSONS_CUDA_TRY(cudaEventRecord(first.done, first.stream));
    return cudaStreamSynchronize(first.stream);
}

}  // namespace lessons::split
