// cub::DeviceReduce::Sum, the library.
// CUB picks the tile size, vector width and grid for this GPU, and is what the hand-written
// steps are measured against. It needs a temporary buffer, asked for with a first call.
#include <cub/device/device_reduce.cuh>

#include "reduce_gpu.cuh"

namespace lessons::reduce {
namespace {

cudaError_t Sum(void* temp, size_t& temp_bytes, const float* in, float* result, uint64_t n,
                cudaStream_t stream) {
    return cub::DeviceReduce::Sum(temp, temp_bytes, in, result, static_cast<int64_t>(n), stream);
}

const CubSum kReduceCub{&Sum};

}  // namespace

LESSONS_KERNELS(kReduceCub);

}  // namespace lessons::reduce
