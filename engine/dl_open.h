// What the loaders of the GPU libraries the program opens at run time (cuBLAS, NVRTC: see
// cublas_loader.cpp and nvrtc_loader.cpp) do alike: open a candidate file, say why one could
// not be opened, bind the calls, and name the file the dynamic loader found.
#pragma once

#include <dlfcn.h>
#include <link.h>

#include <string>

namespace lessons::dl {

// `out` = the symbol `name` of `handle`, as F; whether it is there.
template <typename F>
bool Bind(void* handle, const char* name, F& out) {
    out = reinterpret_cast<F>(dlsym(handle, name));
    return out != nullptr;
}

// Adds `what` to the comma list of the candidates tried.
inline void Tried(std::string& tried, const std::string& what) {
    tried += (tried.empty() ? "" : ", ") + what;
}

// dlopen(candidate), or nullptr with `reason` set to the loader's reason (not found, not a
// library, a dependency that could not be mapped), without the path it repeats, and the
// candidate added to `tried` with it.
inline void* Open(const std::string& candidate, std::string& tried, std::string& reason) {
    void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    reason.clear();
    if (handle) return handle;
    if (const char* e = dlerror()) reason = e;
    if (reason.rfind(candidate + ": ", 0) == 0) reason.erase(0, candidate.size() + 2);
    if (reason.size() > 200) reason = reason.substr(0, 200) + "...";
    Tried(tried, candidate + (reason.empty() ? "" : " (" + reason + ")"));
    return nullptr;
}

// Where the dynamic loader found `handle` (opened as `candidate`), for messages.
inline std::string PathOf(void* handle, const std::string& candidate) {
    link_map* map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
        return map->l_name;
    return candidate;
}

}  // namespace lessons::dl
