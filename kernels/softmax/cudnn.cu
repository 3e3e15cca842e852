// cuDNN's softmax, the library: cudnnSoftmaxForward with CUDNN_SOFTMAX_ACCURATE (the max is
// subtracted) and CUDNN_SOFTMAX_MODE_INSTANCE (over each row: x is described as m × n × 1 × 1,
// NCHW). cuDNN is loaded at run time (dlopen), as NCCL is: the program runs without it, and the
// step then says what to install. cuDNN picks its own kernel for the shape and the GPU.
#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "softmax_gpu.cuh"

namespace lessons::softmax {
namespace {

// The few declarations of cudnn.h this step needs (cuDNN 8 and 9 share them).
using Status = int;
using Handle = void*;
using Desc = void*;
constexpr Status kSuccess = 0;
constexpr int kSoftmaxAccurate = 1, kModeInstance = 0, kNchw = 0, kFloat = 0, kBfloat16 = 9;

struct Api {
    Status (*Create)(Handle*);
    Status (*Destroy)(Handle);
    Status (*SetStream)(Handle, cudaStream_t);
    Status (*CreateTensorDescriptor)(Desc*);
    Status (*SetTensor4dDescriptor)(Desc, int, int, int, int, int, int);
    Status (*DestroyTensorDescriptor)(Desc);
    Status (*SoftmaxForward)(Handle, int, int, const void*, Desc, const void*, const void*, Desc,
                             void*);
    const char* (*GetErrorString)(Status);
    size_t (*GetVersion)();
};

struct Loaded {
    Api api{};
    bool ok = false;
    std::string path, why;
};

template <typename F>
bool Bind(const std::vector<void*>& handles, const char* name, F& out) {
    for (void* h : handles)
        if ((out = reinterpret_cast<F>(dlsym(h, name)))) return true;
    return false;
}

std::vector<std::string> Candidates() {
    std::vector<std::string> out;
    if (const char* env = std::getenv("CUDA_LESSONS_CUDNN"); env && *env) {
        out.emplace_back(env);  // the user's choice, and only it
        return out;
    }
    for (const char* name : {"libcudnn.so.9", "libcudnn.so.8"}) out.emplace_back(name);
    for (const char* var : {"CUDNN_HOME", "CUDA_HOME", "CUDA_PATH"})
        if (const char* home = std::getenv(var); home && *home) {
            out.push_back(std::string(home) + "/lib64/libcudnn.so.9");
            out.push_back(std::string(home) + "/lib/libcudnn.so.9");
        }
    out.emplace_back("/usr/local/cuda/lib64/libcudnn.so.9");
    out.emplace_back("/usr/lib/x86_64-linux-gnu/libcudnn.so.9");
    return out;
}

const Loaded& State() {
    static const Loaded loaded = [] {
        Loaded l;
        std::string tried;
        for (const std::string& candidate : Candidates()) {
            void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!handle) {
                std::string reason;
                if (const char* e = dlerror()) reason = e;
                if (reason.rfind(candidate + ": ", 0) == 0) reason.erase(0, candidate.size() + 2);
                if (reason.size() > 200) reason = reason.substr(0, 200) + "...";
                tried += (tried.empty() ? "" : ", ") + candidate +
                         (reason.empty() ? "" : " (" + reason + ")");
                continue;
            }
            std::string where = candidate;
            link_map* map = nullptr;
            if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
                where = map->l_name;
            // cuDNN 9 keeps the legacy calls in libcudnn_ops beside libcudnn; 8 has them in one.
            std::vector<void*> handles{handle};
            const size_t slash = where.rfind('/');
            const std::string dir = slash == std::string::npos ? "" : where.substr(0, slash + 1);
            if (void* ops = dlopen((dir + "libcudnn_ops.so.9").c_str(), RTLD_NOW | RTLD_LOCAL))
                handles.push_back(ops);
            Api& a = l.api;
            const bool all =
                Bind(handles, "cudnnCreate", a.Create) &&
                Bind(handles, "cudnnDestroy", a.Destroy) &&
                Bind(handles, "cudnnSetStream", a.SetStream) &&
                Bind(handles, "cudnnCreateTensorDescriptor", a.CreateTensorDescriptor) &&
                Bind(handles, "cudnnSetTensor4dDescriptor", a.SetTensor4dDescriptor) &&
                Bind(handles, "cudnnDestroyTensorDescriptor", a.DestroyTensorDescriptor) &&
                Bind(handles, "cudnnSoftmaxForward", a.SoftmaxForward) &&
                Bind(handles, "cudnnGetErrorString", a.GetErrorString) &&
                Bind(handles, "cudnnGetVersion", a.GetVersion);
            if (!all) {
                tried += (tried.empty() ? "" : ", ") + candidate + " (lacks cudnnSoftmaxForward)";
                continue;
            }
            l.ok = true;
            l.path = where;
            return l;
        }
        l.why = "cuDNN not found (tried " + tried +
                "); install cuDNN 9 (the cudnn9-cuda-12 or cudnn9-cuda-13 package from NVIDIA's "
                "CUDA repository, or pip's nvidia-cudnn-cu12) or set "
                "CUDA_LESSONS_CUDNN=/path/to/libcudnn.so.9";
        return l;
    }();
    return loaded;
}

struct State_ {
    Handle handle = nullptr;
    Desc desc = nullptr;
};

std::string Failed(const char* call, Status s) {
    const Loaded& l = State();
    return std::string(call) + " failed: " + (l.ok ? l.api.GetErrorString(s) : "cuDNN not loaded") +
           " (cuDNN status " + std::to_string(s) + ")";
}

}  // namespace

std::string CudnnUnavailable() {
    return State().why;
}

std::string CudnnDescribe() {
    const Loaded& l = State();
    if (!l.ok) return l.why;
    const size_t v = l.api.GetVersion();  // 9.x: major * 10000 + minor * 100 + patch
    const size_t major = v >= 90000 ? v / 10000 : v / 1000;
    const size_t minor = v >= 90000 ? v / 100 % 100 : v / 100 % 10;
    return l.path + ", cuDNN " + std::to_string(major) + "." + std::to_string(minor) + "." +
           std::to_string(v % 100);
}

std::string CudnnCreate(void** out, int m, int n, bool bf16, cudaStream_t stream) {
    *out = nullptr;
    const Loaded& l = State();
    if (!l.ok) return l.why;
    auto* s = new State_;
    Status st = l.api.Create(&s->handle);
    if (st != kSuccess) {
        delete s;
        return Failed("cudnnCreate", st);
    }
    *out = s;
    if ((st = l.api.SetStream(s->handle, stream)) != kSuccess) return Failed("cudnnSetStream", st);
    if ((st = l.api.CreateTensorDescriptor(&s->desc)) != kSuccess)
        return Failed("cudnnCreateTensorDescriptor", st);
    if ((st = l.api.SetTensor4dDescriptor(s->desc, kNchw, bf16 ? kBfloat16 : kFloat, m, n, 1, 1)) !=
        kSuccess)
        return Failed("cudnnSetTensor4dDescriptor", st);
    return "";
}

std::string CudnnRun(void* state, const void* x, void* y) {
    const Loaded& l = State();
    auto* s = static_cast<State_*>(state);
    const float alpha = 1.0f, beta = 0.0f;  // float scaling factors for float and bf16 data
    const Status st = l.api.SoftmaxForward(s->handle, kSoftmaxAccurate, kModeInstance, &alpha,
                                           s->desc, x, &beta, s->desc, y);
    return st == kSuccess ? "" : Failed("cudnnSoftmaxForward", st);
}

void CudnnDestroy(void* state) {
    if (!state) return;
    const Loaded& l = State();
    auto* s = static_cast<State_*>(state);
    if (s->desc) l.api.DestroyTensorDescriptor(s->desc);
    if (s->handle) l.api.Destroy(s->handle);
    delete s;
}

}  // namespace lessons::softmax
