#include "nvrtc_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "dl_open.h"

namespace lessons::nvrtc {
namespace {

using Loaded = dl::Loaded<Api>;

bool BindAll(void* handle, Api& a) {
#define LESSONS_NVRTC_BIND(name, ...) dl::Bind(handle, "nvrtc" #name, a.name)&&
    return LESSONS_NVRTC_CALLS(LESSONS_NVRTC_BIND) true;
#undef LESSONS_NVRTC_BIND
}

const Loaded& State() {
    static const Loaded loaded = [] {
        Loaded l;
        std::string tried;
        const auto stop = [](const std::string&) { return false; };
        dl::OpenFirst(Candidates(), "lacks an NVRTC call", BindAll, stop, l, tried);
        if (l.ok) return l;
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
    return dl::Candidates("CUDA_LESSONS_NVRTC", {"libnvrtc.so.13", "libnvrtc.so.12"});
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
