#include "module.h"

#include <cuda.h>

#include <mutex>
#include <stdexcept>
#include <string>

#include "../device.h"
#include "../errors.h"
#include "cuda_util.h"

namespace lessons::cuda {
namespace {

struct Driver {
    CUresult (*ModuleLoadData)(CUmodule*, const void*) = nullptr;
    CUresult (*ModuleUnload)(CUmodule) = nullptr;
    CUresult (*ModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void**, void**) = nullptr;
    CUresult (*FuncGetAttribute)(int*, CUfunction_attribute, CUfunction) = nullptr;
    CUresult (*FuncSetAttribute)(CUfunction, CUfunction_attribute, int) = nullptr;
    CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int*, CUfunction, int, size_t) = nullptr;
    // Clusters (CUDA 12.0 and later drivers); null where the driver lacks them.
    CUresult (*LaunchKernelEx)(const CUlaunchConfig*, CUfunction, void**, void**) = nullptr;
    CUresult (*OccupancyMaxActiveClusters)(int*, CUfunction, const CUlaunchConfig*) = nullptr;
    CUresult (*GetErrorString)(CUresult, const char**) = nullptr;
    std::string why;  // empty when every call was found
};

template <typename F>
void Get(const char* symbol, F& out, std::string& why) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t e =
        cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &status);
    if (e != cudaSuccess || status != cudaDriverEntryPointSuccess || !p) {
        if (e != cudaSuccess) cudaGetLastError();
        if (why.empty())
            why = std::string("the CUDA driver does not provide ") + symbol + " (" +
                  (e != cudaSuccess ? cudaGetErrorString(e) : "symbol not found") + ")";
        return;
    }
    out = reinterpret_cast<F>(p);
}

const Driver& GetDriver() {
    static const Driver driver = [] {
        Driver d;
        Get("cuModuleLoadData", d.ModuleLoadData, d.why);
        Get("cuModuleUnload", d.ModuleUnload, d.why);
        Get("cuModuleGetFunction", d.ModuleGetFunction, d.why);
        Get("cuLaunchKernel", d.LaunchKernel, d.why);
        Get("cuFuncGetAttribute", d.FuncGetAttribute, d.why);
        Get("cuFuncSetAttribute", d.FuncSetAttribute, d.why);
        Get("cuOccupancyMaxActiveBlocksPerMultiprocessor",
            d.OccupancyMaxActiveBlocksPerMultiprocessor, d.why);
        Get("cuGetErrorString", d.GetErrorString, d.why);
        std::string cluster_why;  // clusters are asked only by a cluster launch
        Get("cuLaunchKernelEx", d.LaunchKernelEx, cluster_why);
        Get("cuOccupancyMaxActiveClusters", d.OccupancyMaxActiveClusters, cluster_why);
        if (!cluster_why.empty()) d.LaunchKernelEx = nullptr;
        return d;
    }();
    return driver;
}

bool IsStickyDriverError(CUresult r) {
    return r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED ||
           r == CUDA_ERROR_ILLEGAL_INSTRUCTION || r == CUDA_ERROR_MISALIGNED_ADDRESS ||
           r == CUDA_ERROR_INVALID_PC || r == CUDA_ERROR_HARDWARE_STACK_ERROR ||
           r == CUDA_ERROR_LAUNCH_TIMEOUT || r == CUDA_ERROR_ASSERT;
}

void CheckDriver(CUresult r, const char* call, const std::string& name) {
    if (r == CUDA_SUCCESS) return;
    const char* text = nullptr;
    if (GetDriver().GetErrorString) GetDriver().GetErrorString(r, &text);
    throw CudaError(std::string(call) + " failed for " + name + ": " +
                        (text ? text : "unknown error") + " (CUDA driver error " +
                        std::to_string(static_cast<int>(r)) + ")",
                    IsStickyDriverError(r));
}

const Driver& RequireDriver() {
    RequireDevice();
    const Driver& d = GetDriver();
    if (!d.why.empty()) throw UnavailableError("cannot load a compiled kernel: " + d.why);
    return d;
}

}  // namespace

LoadedKernel::LoadedKernel(const std::string& cubin, const std::string& symbol,
                           const std::string& name)
    : m_name(name) {
    const Driver& d = RequireDriver();
    // The runtime's primary context of the current device, made current before the driver is
    // asked to load into it.
    LESSONS_CUDA_CHECK(cudaFree(nullptr));
    CUmodule module = nullptr;
    CheckDriver(d.ModuleLoadData(&module, cubin.data()), "cuModuleLoadData", m_name);
    m_module = module;
    CUfunction function = nullptr;
    const CUresult r = d.ModuleGetFunction(&function, module, symbol.c_str());
    if (r != CUDA_SUCCESS) {
        d.ModuleUnload(module);
        m_module = nullptr;
        CheckDriver(r, "cuModuleGetFunction", m_name);
    }
    m_function = function;
}

LoadedKernel::~LoadedKernel() {
    if (m_module) GetDriver().ModuleUnload(static_cast<CUmodule>(m_module));
}

KernelAttributes LoadedKernel::Attributes(int block, unsigned dynamic_smem) const {
    const Driver& d = GetDriver();
    const auto f = static_cast<CUfunction>(m_function);
    auto attribute = [&](CUfunction_attribute a, const char* what) {
        int value = 0;
        CheckDriver(d.FuncGetAttribute(&value, a, f), what, m_name);
        return value;
    };
    KernelAttributes out;
    out.kernel = m_name;
    out.registers = attribute(CU_FUNC_ATTRIBUTE_NUM_REGS, "cuFuncGetAttribute(NUM_REGS)");
    out.static_smem_bytes =
        attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "cuFuncGetAttribute(SHARED_SIZE_BYTES)");
    out.max_threads_per_block = attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                          "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)");
    if (block > 0 && block <= out.max_threads_per_block) {
        AllowShared(dynamic_smem);
        int blocks = 0;
        CheckDriver(d.OccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, block, dynamic_smem),
                    "cuOccupancyMaxActiveBlocksPerMultiprocessor", m_name);
        out.active_blocks_per_sm = blocks;
        const int max_threads = GetDeviceInfo().max_threads_per_sm;
        if (max_threads > 0) out.occupancy = double(blocks) * block / max_threads;
    }
    return out;
}

void LoadedKernel::CheckBlock(int block) const {
    const KernelAttributes a = Attributes(0);
    if (block > a.max_threads_per_block)
        throw UsageError("block size " + std::to_string(block) + " is too large for your " +
                         m_name + ": with its " + std::to_string(a.registers) +
                         " registers per thread it can take at most " +
                         std::to_string(a.max_threads_per_block) + " threads per block");
}

void LoadedKernel::Launch(unsigned blocks, unsigned block, cudaStream_t stream, void** args,
                          unsigned shared_bytes) const {
    Launch(dim3(blocks), dim3(block), stream, args, shared_bytes);
}

void LoadedKernel::AllowShared(unsigned shared_bytes) const {
    // Over 48 KiB of dynamic shared memory a block gets only after the kernel asks for it.
    if (shared_bytes > 48 * 1024 && shared_bytes > m_allowed_shared) {
        CheckDriver(GetDriver().FuncSetAttribute(static_cast<CUfunction>(m_function),
                                                 CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                 static_cast<int>(shared_bytes)),
                    "cuFuncSetAttribute", m_name);
        m_allowed_shared = shared_bytes;
    }
}

void LoadedKernel::Launch(dim3 grid, dim3 block, cudaStream_t stream, void** args,
                          unsigned shared_bytes) const {
    AllowShared(shared_bytes);
    CheckDriver(GetDriver().LaunchKernel(static_cast<CUfunction>(m_function), grid.x, grid.y,
                                         grid.z, block.x, block.y, block.z, shared_bytes,
                                         static_cast<CUstream>(stream), args, nullptr),
                "cuLaunchKernel", m_name);
}

namespace {

struct ClusterConfig {
    CUlaunchAttribute attribute{};
    CUlaunchConfig config{};
    ClusterConfig(const ClusterConfig&) = delete;
    ClusterConfig(unsigned blocks, unsigned block, unsigned cluster, CUstream stream,
                  unsigned shared_bytes) {
        attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attribute.value.clusterDim.x = cluster;
        attribute.value.clusterDim.y = 1;
        attribute.value.clusterDim.z = 1;
        config.gridDimX = blocks;
        config.gridDimY = config.gridDimZ = 1;
        config.blockDimX = block;
        config.blockDimY = config.blockDimZ = 1;
        config.sharedMemBytes = shared_bytes;
        config.hStream = stream;
        config.attrs = &attribute;
        config.numAttrs = 1;
    }
};

}  // namespace

void LoadedKernel::CheckClusters(unsigned block, unsigned cluster, unsigned shared_bytes) const {
    const Driver& d = GetDriver();
    const DeviceInfo& device = GetDeviceInfo();
    if (device.cc_major < 9)
        throw UsageError(m_name + " runs in thread block clusters, which need compute capability " +
                         "9.0 or later; this GPU (" + device.name + ") has " +
                         std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor));
    if (!d.LaunchKernelEx)
        throw UnavailableError("cannot launch " + m_name +
                               " in clusters: the CUDA driver has no cuLaunchKernelEx (a driver "
                               "for CUDA 12.0 or later has it)");
    if (cluster == 0 || cluster > 16)
        throw UsageError("a cluster has 1 to 16 blocks, not " + std::to_string(cluster));
    const auto f = static_cast<CUfunction>(m_function);
    AllowShared(shared_bytes);
    // Over 8 blocks a cluster (the portable size) only where the kernel says it accepts more.
    if (cluster > 8 && !m_non_portable) {
        CheckDriver(d.FuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
                    "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)", m_name);
        m_non_portable = true;
    }
    const ClusterConfig launch(cluster, block, cluster, nullptr, shared_bytes);
    int fit = 0;
    CheckDriver(d.OccupancyMaxActiveClusters(&fit, f, &launch.config),
                "cuOccupancyMaxActiveClusters", m_name);
    if (fit == 0)
        throw UsageError("a cluster of " + std::to_string(cluster) + " blocks of " +
                         std::to_string(block) + " threads with " +
                         std::to_string((shared_bytes + 1023) / 1024) + " KiB of shared memory " +
                         "each does not fit this GPU at once: take fewer columns, a smaller " +
                         "block or another cluster size");
}

void LoadedKernel::LaunchClusters(unsigned blocks, unsigned block, unsigned cluster,
                                  cudaStream_t stream, void** args, unsigned shared_bytes) const {
    if (cluster == 0 || blocks % cluster != 0)
        throw std::logic_error("a grid of clusters must be a whole number of clusters");
    const ClusterConfig launch(blocks, block, cluster, static_cast<CUstream>(stream), shared_bytes);
    CheckDriver(GetDriver().LaunchKernelEx(&launch.config, static_cast<CUfunction>(m_function),
                                           args, nullptr),
                "cuLaunchKernelEx", m_name);
}

std::shared_ptr<const LoadedKernel> LoadStudentKernel(const StudentKernel& kernel, int threads) {
    auto loaded =
        std::make_shared<const LoadedKernel>(kernel.cubin, kernel.lowered_name, kernel.name);
    loaded->CheckBlock(threads);
    return loaded;
}

KernelAttributes StudentKernelAttributes(const StudentKernel& kernel, int threads,
                                         unsigned dynamic_smem) {
    const LoadedKernel loaded(kernel.cubin, kernel.lowered_name, kernel.name);
    return loaded.Attributes(threads, dynamic_smem);
}

}  // namespace lessons::cuda
