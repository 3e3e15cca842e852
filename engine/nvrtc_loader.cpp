#include "nvrtc_loader.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace lessons::nvrtc {
namespace {

struct Loaded {
    Api api{};
    bool ok = false;
    std::string path;
    std::string why;
};

template <typename F>
bool Bind(void* handle, const char* name, F& out) {
    out = reinterpret_cast<F>(dlsym(handle, name));
    return out != nullptr;
}

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
            void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!handle) {
                // The loader's reason, without the path it repeats.
                std::string reason;
                if (const char* e = dlerror()) reason = e;
                if (reason.rfind(candidate + ": ", 0) == 0) reason.erase(0, candidate.size() + 2);
                if (reason.size() > 200) reason = reason.substr(0, 200) + "...";
                tried += (tried.empty() ? "" : ", ") + candidate +
                         (reason.empty() ? "" : " (" + reason + ")");
                continue;
            }
            if (!BindAll(handle, l.api)) {
                tried += (tried.empty() ? "" : ", ") + candidate + " (lacks an NVRTC call)";
                dlclose(handle);
                continue;
            }
            l.ok = true;
            l.path = candidate;
            link_map* map = nullptr;  // where the loader found it, for messages
            if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
                l.path = map->l_name;
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
