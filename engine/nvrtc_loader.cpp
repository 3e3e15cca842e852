#include "nvrtc_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "dl_open.h"

namespace lessons::nvrtc {
namespace {

struct Loaded {
    Api api{};
    bool ok = false;
    std::string path;
    std::string why;
};

using dl::Bind;

bool BindAll(void* handle, Api& a) {
    return Bind(handle, "nvrtcGetErrorString", a.GetErrorString) &&
           Bind(handle, "nvrtcVersion", a.Version) &&
           Bind(handle, "nvrtcCreateProgram", a.CreateProgram) &&
           Bind(handle, "nvrtcDestroyProgram", a.DestroyProgram) &&
           Bind(handle, "nvrtcCompileProgram", a.CompileProgram) &&
           Bind(handle, "nvrtcGetPTXSize", a.GetPTXSize) && Bind(handle, "nvrtcGetPTX", a.GetPTX) &&
           Bind(handle, "nvrtcGetCUBINSize", a.GetCUBINSize) &&
           Bind(handle, "nvrtcGetCUBIN", a.GetCUBIN) &&
           Bind(handle, "nvrtcGetProgramLogSize", a.GetProgramLogSize) &&
           Bind(handle, "nvrtcGetProgramLog", a.GetProgramLog) &&
           Bind(handle, "nvrtcAddNameExpression", a.AddNameExpression) &&
           Bind(handle, "nvrtcGetLoweredName", a.GetLoweredName);
}

const Loaded& State() {
    static const Loaded loaded = [] {
        Loaded l;
        std::string tried;
        for (const std::string& candidate : Candidates()) {
            std::string reason;
            void* handle = dl::Open(candidate, tried, reason);
            if (!handle) continue;
            if (!BindAll(handle, l.api)) {
                dl::Tried(tried, candidate + " (lacks an NVRTC call)");
                dlclose(handle);
                continue;
            }
            l.ok = true;
            l.path = dl::PathOf(handle, candidate);
            return l;
        }
        l.why =
            "NVRTC not found (tried " + tried +
            "): install the CUDA toolkit's runtime compiler (Debian/Ubuntu: the cuda-nvrtc-13-0 "
            "package from NVIDIA's CUDA repository, or pip's nvidia-cuda-nvrtc) or set "
            "CUDA_LESSONS_NVRTC=/path/to/libnvrtc.so.13";
        return l;
    }();
    return loaded;
}

}  // namespace

std::vector<std::string> Candidates() {
    std::vector<std::string> out;
    if (const char* env = std::getenv("CUDA_LESSONS_NVRTC"); env && *env) {
        out.emplace_back(env);  // the user's choice, and only it
        return out;
    }
    const char* names[] = {"libnvrtc.so.13", "libnvrtc.so.12"};
    for (const char* name : names) out.emplace_back(name);
    std::vector<std::string> homes;
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* home = std::getenv(var); home && *home) homes.emplace_back(home);
    homes.emplace_back("/usr/local/cuda");
    for (const std::string& home : homes)
        for (const char* name : names) {
            out.push_back(home + "/lib64/" + name);
            out.push_back(home + "/targets/x86_64-linux/lib/" + name);
        }
    return out;
}

const Api* Load() {
    const Loaded& l = State();
    return l.ok ? &l.api : nullptr;
}

const std::string& Unavailable() {
    return State().why;
}

std::string LoadedPath() {
    const Loaded& l = State();
    return l.ok ? l.path : std::string();
}

std::string Describe() {
    const Loaded& l = State();
    if (!l.ok) return l.why;
    int major = 0, minor = 0;
    l.api.Version(&major, &minor);
    return l.path + ", NVRTC " + std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace lessons::nvrtc
