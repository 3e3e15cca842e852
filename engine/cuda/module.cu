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

KernelAttributes LoadedKernel::Attributes(int block) const {
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
        int blocks = 0;
        CheckDriver(d.OccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, block, 0),
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

void LoadedKernel::Launch(dim3 grid, dim3 block, cudaStream_t stream, void** args,
                          unsigned shared_bytes) const {
    // Over 48 KiB of dynamic shared memory a block gets only after the kernel asks for it.
    if (shared_bytes > 48 * 1024 && shared_bytes > m_allowed_shared) {
        CheckDriver(GetDriver().FuncSetAttribute(static_cast<CUfunction>(m_function),
                                                 CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                 static_cast<int>(shared_bytes)),
                    "cuFuncSetAttribute", m_name);
        m_allowed_shared = shared_bytes;
    }
    CheckDriver(GetDriver().LaunchKernel(static_cast<CUfunction>(m_function), grid.x, grid.y,
                                         grid.z, block.x, block.y, block.z, shared_bytes,
                                         static_cast<CUstream>(stream), args, nullptr),
                "cuLaunchKernel", m_name);
}

std::shared_ptr<const LoadedKernel> LoadStudentKernel(const StudentKernel& kernel, int threads) {
    auto loaded =
        std::make_shared<const LoadedKernel>(kernel.cubin, kernel.lowered_name, kernel.name);
    loaded->CheckBlock(threads);
    return loaded;
}

KernelAttributes StudentKernelAttributes(const StudentKernel& kernel, int threads) {
    const LoadedKernel loaded(kernel.cubin, kernel.lowered_name, kernel.name);
    return loaded.Attributes(threads);
}

}  // namespace lessons::cuda
