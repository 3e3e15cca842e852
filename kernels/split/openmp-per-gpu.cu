// OpenMP per GPU: one OpenMP host thread per GPU (the seed's idea 7).
// Scatter-gather's work, written the other way: each host thread makes one GPU current once and
// drives it with plain blocking calls (copy in, send to GPU 0, wait), and a barrier separates
// the scatter-gather from GPU 0's scan. No switching devices in a loop, simpler code; the
// copies are the same, so the time should be too.
#include <omp.h>

#include "split_multi.cuh"

namespace lessons::split {

cudaError_t SplitOpenMPPerGpu(SplitMulti& m, uint64_t* found) {
    const int count = static_cast<int>(m.gpus.size());
    cudaError_t first_error = cudaSuccess;
    bool all_threads = true;
#pragma omp parallel num_threads(count)
    {
        const int id = omp_get_thread_num();
        if (omp_get_num_threads() != count) {
#pragma omp atomic write
            all_threads = false;
        } else {
            SplitGpu& g = m.gpus[size_t(id)];
            SplitGpu& first = m.gpus[0];
            const uint64_t bytes = g.end - g.begin;
            cudaError_t e = cudaSetDevice(g.device);
            if (e == cudaSuccess) e = cudaEventRecord(g.start, g.stream);
            if (e == cudaSuccess && bytes)
                e = cudaMemcpyAsync(id == 0 ? first.buf + g.begin : g.buf, m.host + g.begin, bytes,
                                    cudaMemcpyHostToDevice, g.stream);
            if (e == cudaSuccess) e = cudaEventRecord(g.copied, g.stream);
            if (e == cudaSuccess && id != 0 && bytes)
                e = cudaMemcpyPeerAsync(first.buf + g.begin, first.device, g.buf, g.device, bytes,
                                        g.stream);
            if (e == cudaSuccess && id != 0) e = cudaEventRecord(g.moved, g.stream);
            if (e == cudaSuccess) e = cudaStreamSynchronize(g.stream);
            if (e != cudaSuccess) {
#pragma omp critical
                if (first_error == cudaSuccess) first_error = e;
            }
        }
#pragma omp barrier
        // Every share is on GPU 0: its thread scans.
        if (id == 0 && all_threads && first_error == cudaSuccess)
            first_error = SplitScanGathered(m, found);
    }
    if (!all_threads) return cudaErrorLaunchOutOfResources;  // OpenMP gave fewer threads
    return first_error;
}

}  // namespace lessons::split
