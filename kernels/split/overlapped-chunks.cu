// Overlapped chunks: hide the copy behind the scan.
// The buffer travels in chunks, each on one of several streams, and each chunk is scanned (by
// the vector-loads step's kernel) as soon as it has arrived, while the next chunks are still
// crossing PCIe: the copy engine and the SMs work at the same time, and the end-to-end time
// approaches that of the copy alone. Each chunk's copy brings one byte more, so a pair that
// straddles two chunks is seen, once, by the chunk where it starts.
#include "split_gpu.cuh"

namespace lessons::split {

cudaError_t SplitOverlappedChunks(const char* host, char* dev, uint64_t n, unsigned long long* out,
                                  unsigned long long* count, SplitRangeLaunch scan, int block,
                                  uint64_t chunk, cudaStream_t main, const cudaStream_t* streams,
                                  cudaEvent_t* events, int num_streams) {
    // Fork: every stream starts after the work already queued on `main` (the counter reset).
    cudaEventRecord(events[0], main);
    for (int s = 0; s < num_streams; ++s) cudaStreamWaitEvent(streams[s], events[0], 0);
    for (uint64_t start = 0, c = 0; start < n; start += chunk, ++c) {
        const cudaStream_t stream = streams[c % num_streams];
        const uint64_t end = start + chunk < n ? start + chunk : n;
        const uint64_t bytes = (end < n ? end + 1 : n) - start;  // one byte of the next chunk
        cudaMemcpyAsync(dev + start, host + start, bytes, cudaMemcpyHostToDevice, stream);
        const cudaError_t err = scan(dev + start, end - start, out, count, block, stream, start);
        if (err != cudaSuccess) return err;
    }
    // Join: `main` waits for every stream.
    for (int s = 0; s < num_streams; ++s) {
        cudaEventRecord(events[s], streams[s]);
        cudaStreamWaitEvent(main, events[s], 0);
    }
    return cudaGetLastError();
}

uint64_t SplitOverlappedChunk(uint64_t n, uint64_t unit) {
    const uint64_t target = n / 16 > (uint64_t(4) << 20) ? n / 16 : (uint64_t(4) << 20);
    return PaddedTo(target, unit);
}

}  // namespace lessons::split
