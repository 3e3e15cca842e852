// Peer copies and an add kernel.
// The GPUs talk directly now: every other GPU's vector is copied to GPU 0 over NVLink (peer
// copies, several times PCIe's speed), one kernel on GPU 0 adds them all in a single pass
// over HBM, and GPU 0 copies the sum back out to each GPU. Every byte still funnels through
// GPU 0's links, twice, one way and then the other, and the other GPUs' links sit idle.
#include "allreduce_gpu.cuh"

namespace lessons::allreduce {

namespace {

struct Inputs {
    const float* p[kMaxInputs];
};

// out[i] = sum of the inputs at i: float4 loads where all are 16-byte aligned (cudaMalloc'd).
__global__ void allreduce_add_vectors_kernel(float* __restrict__ out, Inputs ins, int count,
                                             uint64_t n) {
    const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
    const uint64_t n4 = n / 4;
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n4; i += stride) {
        float4 s = reinterpret_cast<const float4*>(ins.p[0])[i];
        for (int k = 1; k < count; ++k) {
            const float4 v = reinterpret_cast<const float4*>(ins.p[k])[i];
            s.x += v.x;
            s.y += v.y;
            s.z += v.z;
            s.w += v.w;
        }
        reinterpret_cast<float4*>(out)[i] = s;
    }
    const uint64_t tail = n4 * 4 + blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    if (tail < n) {
        float s = ins.p[0][tail];
        for (int k = 1; k < count; ++k) s += ins.p[k][tail];
        out[tail] = s;
    }
}

cudaError_t AddVectors(float* out, const float* const* ins, int count, uint64_t n, int block,
                       cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    if (count < 1 || count > kMaxInputs) return cudaErrorInvalidValue;
    Inputs in{};
    for (int k = 0; k < count; ++k) in.p[k] = ins[k];
    int device = 0, sms = 0;
    LESSONS_CUDA_TRY(cudaGetDevice(&device));
    LESSONS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    // Enough blocks to fill the GPU a few times over; each thread loops over its float4s.
    const uint64_t want = (n / 4 + uint64_t(block) - 1) / uint64_t(block);
    const uint64_t most = uint64_t(sms) * (2048 / uint64_t(block));
    const unsigned blocks = static_cast<unsigned>(want < most ? (want ? want : 1) : most);
    allreduce_add_vectors_kernel<<<blocks, block, 0, stream>>>(out, in, count, n);
    return cudaGetLastError();
}

cudaError_t PeerCopies(std::vector<AllreduceGpu>& gpus, uint64_t n, int block) {
    AllreduceGpu& first = gpus[0];
    const uint64_t bytes = n * sizeof(float);
    const int count = static_cast<int>(gpus.size());
    LESSONS_CUDA_TRY(cudaSetDevice(first.device));
    LESSONS_CUDA_TRY(cudaEventRecord(first.start, first.stream));
    // Gather: every other vector into GPU 0's scratch.
    const float* ins[kMaxInputs] = {first.in};
    for (int g = 1; g < count; ++g) {
        float* to = first.scratch + uint64_t(g - 1) * n;
        if (n)
            LESSONS_CUDA_TRY(cudaMemcpyPeerAsync(to, first.device, gpus[size_t(g)].in,
                                                 gpus[size_t(g)].device, bytes, first.stream));
        ins[g] = to;
    }
    LESSONS_CUDA_TRY(cudaEventRecord(first.first, first.stream));
    LESSONS_CUDA_TRY(
        AddVectors(first.out, ins, count, n, block, first.stream));  // one pass over all
    LESSONS_CUDA_TRY(cudaEventRecord(first.second, first.stream));
    // Broadcast: the sum out to every other GPU.
    for (int g = 1; g < count; ++g)
        if (n)
            LESSONS_CUDA_TRY(cudaMemcpyPeerAsync(gpus[size_t(g)].out, gpus[size_t(g)].device,
                                                 first.out, first.device, bytes, first.stream));
    LESSONS_CUDA_TRY(cudaEventRecord(first.stop, first.stream));
    return cudaStreamSynchronize(first.stream);
}

const AddKernel kAddVectors{"allreduce_add_vectors_kernel",
                            reinterpret_cast<const void*>(&allreduce_add_vectors_kernel),
                            &AddVectors};
const PeerCopiesCall kAllreducePeerCopiesAddKernel{&PeerCopies};

}  // namespace

LESSONS_KERNELS(kAddVectors);
LESSONS_KERNELS(kAllreducePeerCopiesAddKernel);

}  // namespace lessons::allreduce
