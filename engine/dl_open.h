// What the loaders of the GPU libraries the program opens at run time (cuBLAS, NVRTC: see
// cublas_loader.cpp and nvrtc_loader.cpp) do alike: open a candidate file, say why one could
// not be opened, bind the calls, and name the file the dynamic loader found.
#pragma once

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

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

// A library opened with its calls bound into `api`, or why it could not be.
template <typename Api>
struct Loaded {
    Api api{};
    bool ok = false;
    std::string path;  // where the dynamic loader found it
    std::string why;   // when not ok: what was tried, and what to do
};

// The files to try for a library of the CUDA toolkit, in order: the one file that the
// environment variable `env` names when it is set (the user's choice, and only it); else each of
// `names` as it is (the dynamic loader's own search), then in lib64/ and
// targets/x86_64-linux/lib/ of $CUDA_HOME and $CUDA_PATH, in `built_with` (when not empty: the
// library folder of the toolkit this program was built with), and in /usr/local/cuda's, each
// file once.
inline std::vector<std::string> Candidates(const char* env,
                                           std::initializer_list<const char*> names,
                                           const std::string& built_with = "") {
    if (const char* chosen = std::getenv(env); chosen && *chosen) return {chosen};
    std::vector<std::string> out(names.begin(), names.end()), dirs;
    const auto lib_dirs = [&dirs](const std::string& home) {
        dirs.push_back(home + "/lib64");
        dirs.push_back(home + "/targets/x86_64-linux/lib");
    };
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* home = std::getenv(var); home && *home) lib_dirs(home);
    if (!built_with.empty()) dirs.push_back(built_with);
    lib_dirs("/usr/local/cuda");
    for (const std::string& dir : dirs)
        for (const char* name : names) {
            const std::string path = dir + "/" + name;
            bool seen = false;
            for (const std::string& o : out) seen = seen || o == path;
            if (!seen) out.push_back(path);
        }
    return out;
}

// Opens the first of `candidates` that opens and has every call (`bind_all(handle, l.api)`):
// l.ok and l.path set. Else `tried` lists each candidate with why it was passed over (`lacks`:
// what a library without the calls lacks). `stop(reason)`: whether a candidate that would not
// open ends the search (the others would fail alike).
template <typename Api, typename BindAll, typename Stop>
void OpenFirst(const std::vector<std::string>& candidates, const char* lacks, BindAll bind_all,
               Stop stop, Loaded<Api>& l, std::string& tried) {
    for (const std::string& candidate : candidates) {
        std::string reason;
        void* handle = Open(candidate, tried, reason);
        if (!handle) {
            if (stop(reason)) return;
            continue;
        }
        if (!bind_all(handle, l.api)) {
            Tried(tried, candidate + " (" + lacks + ")");
            dlclose(handle);
            continue;
        }
        l.ok = true;
        l.path = PathOf(handle, candidate);
        return;
    }
}

}  // namespace lessons::dl
