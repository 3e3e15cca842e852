// All-reduce through the host.
// The plainest plan: every GPU copies its vector down to page-locked host memory (each over
// its own PCIe link, at once), the CPU adds them with OpenMP threads, and the sum goes back up
// to every GPU. The PCIe links and the host's memory bound the whole; the GPUs' fast links to
// each other are not used at all.
#include <omp.h>

#include <chrono>

#include "allreduce_gpu.cuh"

namespace lessons::allreduce {
namespace {

cudaError_t ThroughHost(std::vector<AllreduceGpu>& gpus, uint64_t n,
                        const std::vector<float*>& host, int threads, double* host_add_ms) {
    const size_t count = gpus.size();
    const uint64_t bytes = n * sizeof(float);
    for (size_t g = 0; g < count; ++g) {  // down, all at once
        LESSONS_CUDA_TRY(cudaSetDevice(gpus[g].device));
        LESSONS_CUDA_TRY(cudaEventRecord(gpus[g].start, gpus[g].stream));
        if (n)
            LESSONS_CUDA_TRY(cudaMemcpyAsync(host[g], gpus[g].in, bytes, cudaMemcpyDeviceToHost,
                                             gpus[g].stream));
        LESSONS_CUDA_TRY(cudaEventRecord(gpus[g].first, gpus[g].stream));
    }
    for (size_t g = 0; g < count; ++g) {
        LESSONS_CUDA_TRY(cudaSetDevice(gpus[g].device));
        LESSONS_CUDA_TRY(cudaStreamSynchronize(gpus[g].stream));
    }
    const auto t0 = std::chrono::steady_clock::now();
    float* sum = host[count];
    const int64_t length = static_cast<int64_t>(n);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < length; ++i) {
        float s = host[0][i];
        for (size_t g = 1; g < count; ++g) s += host[g][i];
        sum[i] = s;
    }
    *host_add_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (size_t g = 0; g < count; ++g) {  // and up again, all at once
        LESSONS_CUDA_TRY(cudaSetDevice(gpus[g].device));
        LESSONS_CUDA_TRY(cudaEventRecord(gpus[g].second, gpus[g].stream));
        if (n)
            LESSONS_CUDA_TRY(
                cudaMemcpyAsync(gpus[g].out, sum, bytes, cudaMemcpyHostToDevice, gpus[g].stream));
        LESSONS_CUDA_TRY(cudaEventRecord(gpus[g].stop, gpus[g].stream));
    }
    for (size_t g = 0; g < count; ++g) {
        LESSONS_CUDA_TRY(cudaSetDevice(gpus[g].device));
        LESSONS_CUDA_TRY(cudaStreamSynchronize(gpus[g].stream));
    }
    return cudaSuccess;
}

const ThroughHostCall kAllreduceThroughHost{&ThroughHost};

}  // namespace

LESSONS_KERNELS(kAllreduceThroughHost);

}  // namespace lessons::allreduce
