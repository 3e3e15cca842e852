// A ring, reduce-scatter then all-gather, in pipelined pieces.
// Each GPU's vector is cut into G chunks. In G - 1 reduce-scatter steps every GPU adds its
// left neighbour's running sum of one chunk into its own (reading it over NVLink, inside the
// peer-copies step's add kernel); then each GPU owns one finished chunk, and G - 1 all-gather
// steps pass the finished chunks round the ring. Every link carries 2 (G - 1) / G of the
// vector, all links at once, whatever G is. Chunks are cut into pieces so that a GPU starts its
// next step on piece 0 while its neighbour is still on the last piece; events order neighbours.
#include "allreduce_gpu.cuh"

namespace lessons::allreduce {
namespace {

cudaError_t Ring(std::vector<AllreduceGpu>& gpus, uint64_t n, const RingPlan& plan) {
    const int count = static_cast<int>(gpus.size());
    for (AllreduceGpu& g : gpus) {
        LESSONS_CUDA_TRY(cudaSetDevice(g.device));
        LESSONS_CUDA_TRY(cudaEventRecord(g.start, g.stream));
    }
    if (count == 1) {  // nothing to add: the sum is the vector itself
        AllreduceGpu& g = gpus[0];
        if (n)
            LESSONS_CUDA_TRY(cudaMemcpyAsync(g.out, g.in, n * sizeof(float),
                                             cudaMemcpyDeviceToDevice, g.stream));
        LESSONS_CUDA_TRY(cudaEventRecord(g.first, g.stream));
        LESSONS_CUDA_TRY(cudaEventRecord(g.second, g.stream));
        LESSONS_CUDA_TRY(cudaEventRecord(g.stop, g.stream));
        return cudaStreamSynchronize(g.stream);
    }
    // Chunk c and piece p of it: whole float4s, so that every piece starts 16-byte aligned.
    const uint64_t quads = (n + 3) / 4;
    const auto bound = [&](uint64_t c, uint64_t p) {  // element index where a piece starts
        const uint64_t k = c * plan.pieces + p, parts = uint64_t(count) * plan.pieces;
        const uint64_t q = quads / parts * k + (k < quads % parts ? k : quads % parts);
        return q * 4 < n ? q * 4 : n;
    };
    const int steps = 2 * (count - 1);
    const auto event = [&](int gpu, int step, uint64_t piece) {
        return plan.events[(size_t(gpu) * size_t(steps) + size_t(step)) * plan.pieces + piece];
    };
    for (int step = 0; step < steps; ++step) {
        const bool reduce = step < count - 1;  // else all-gather
        for (int r = 0; r < count; ++r) {
            AllreduceGpu& me = gpus[size_t(r)];
            const int left = (r + count - 1) % count;
            const AllreduceGpu& from = gpus[size_t(left)];
            // Reduce-scatter step s works on chunk r - s - 1; all-gather step t on chunk r - t.
            const int s = reduce ? step : step - (count - 1);
            const uint64_t chunk = uint64_t(((r - s - (reduce ? 1 : 0)) % count + count) % count);
            LESSONS_CUDA_TRY(cudaSetDevice(me.device));
            if (step == count - 1) LESSONS_CUDA_TRY(cudaEventRecord(me.first, me.stream));
            for (uint64_t p = 0; p < plan.pieces; ++p) {
                const uint64_t lo = bound(chunk, p), hi = bound(chunk, p + 1);
                if (step > 0)
                    LESSONS_CUDA_TRY(cudaStreamWaitEvent(me.stream, event(left, step - 1, p), 0));
                if (hi > lo) {
                    const uint64_t len = hi - lo;
                    // Step 0 reads the neighbour's input; later steps its running sum.
                    const float* theirs = (step == 0 ? from.in : from.out) + lo;
                    if (reduce) {
                        if (!plan.direct) {  // no peer access: stage the piece through scratch
                            LESSONS_CUDA_TRY(cudaMemcpyPeerAsync(me.scratch, me.device, theirs,
                                                                 from.device, len * sizeof(float),
                                                                 me.stream));
                            theirs = me.scratch;
                        }
                        const float* ins[2] = {me.in + lo, theirs};  // mine, and theirs
                        LESSONS_CUDA_TRY(
                            plan.add->launch(me.out + lo, ins, 2, len, plan.block, me.stream));
                    } else {
                        LESSONS_CUDA_TRY(cudaMemcpyPeerAsync(me.out + lo, me.device, from.out + lo,
                                                             from.device, len * sizeof(float),
                                                             me.stream));
                    }
                }
                LESSONS_CUDA_TRY(cudaEventRecord(event(r, step, p), me.stream));
            }
        }
    }
    for (AllreduceGpu& g : gpus) {
        LESSONS_CUDA_TRY(cudaSetDevice(g.device));
        LESSONS_CUDA_TRY(cudaEventRecord(g.second, g.stream));
        LESSONS_CUDA_TRY(cudaEventRecord(g.stop, g.stream));
    }
    for (AllreduceGpu& g : gpus) {
        LESSONS_CUDA_TRY(cudaSetDevice(g.device));
        LESSONS_CUDA_TRY(cudaStreamSynchronize(g.stream));
    }
    return cudaSuccess;
}

const RingCall kAllreduceRing{&Ring};

}  // namespace

LESSONS_KERNELS(kAllreduceRing);

}  // namespace lessons::allreduce
