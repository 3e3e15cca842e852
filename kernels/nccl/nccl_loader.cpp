#include "nccl_loader.h"
#include "nccl_ranks.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace lessons::nccl {
namespace {

struct Loaded {
    Api api{};
    RankApi ranks{};
    bool ranks_ok = false;  // the one-process-per-GPU calls bound too
    bool ok = false;
    std::string path;
    std::string why;
};

template <typename F>
bool Bind(void* handle, const char* name, F& out) {
    out = reinterpret_cast<F>(dlsym(handle, name));
    return out != nullptr;
}

const Loaded& State() {
    static const Loaded loaded = [] {
        Loaded l;
        setenv("NCCL_NVLS_ENABLE", "0", 0);  // 0: keeps a value the user set
        std::string tried;
        for (const std::string& candidate : Candidates()) {
            void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!handle) {
                // The loader's reason (not found, a directory, not a library, wrong class),
                // without the path it repeats.
                std::string reason;
                if (const char* e = dlerror()) reason = e;
                if (reason.rfind(candidate + ": ", 0) == 0) reason.erase(0, candidate.size() + 2);
                if (reason.size() > 200) reason = reason.substr(0, 200) + "...";
                tried += (tried.empty() ? "" : ", ") + candidate +
                         (reason.empty() ? "" : " (" + reason + ")");
                continue;
            }
            Api& a = l.api;
            const bool all = Bind(handle, "ncclCommInitAll", a.CommInitAll) &&
                             Bind(handle, "ncclCommDestroy", a.CommDestroy) &&
                             Bind(handle, "ncclAllReduce", a.AllReduce) &&
                             Bind(handle, "ncclGroupStart", a.GroupStart) &&
                             Bind(handle, "ncclGroupEnd", a.GroupEnd) &&
                             Bind(handle, "ncclGetErrorString", a.GetErrorString) &&
                             Bind(handle, "ncclGetVersion", a.GetVersion);
            if (!all) {
                tried += (tried.empty() ? "" : ", ") + candidate + " (lacks an NCCL call)";
                dlclose(handle);
                continue;
            }
            l.ok = true;
            RankApi& r = l.ranks;
            l.ranks_ok = Bind(handle, "ncclGetUniqueId", r.GetUniqueId) &&
                         Bind(handle, "ncclCommInitRank", r.CommInitRank) &&
                         Bind(handle, "ncclCommAbort", r.CommAbort);
            l.path = candidate;
            link_map* map = nullptr;  // where the loader found it, for `info`
            if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
                l.path = map->l_name;
            return l;
        }
        l.why = "unavailable: NCCL not found (tried " + tried +
                "); install NCCL 2 (the libnccl2 package from NVIDIA's CUDA repository, or pip's "
                "nvidia-nccl-cu12/-cu13) or set CUDA_LESSONS_NCCL=/path/to/libnccl.so.2";
        return l;
    }();
    return loaded;
}

}  // namespace

std::vector<std::string> Candidates() {
    std::vector<std::string> out;
    if (const char* env = std::getenv("CUDA_LESSONS_NCCL"); env && *env) {
        out.emplace_back(env);  // the user's choice, and only it
        return out;
    }
    out.emplace_back("libnccl.so.2");
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* home = std::getenv(var); home && *home) {
            out.push_back(std::string(home) + "/lib64/libnccl.so.2");
            out.push_back(std::string(home) + "/targets/x86_64-linux/lib/libnccl.so.2");
        }
    out.emplace_back("/usr/local/cuda/lib64/libnccl.so.2");
    out.emplace_back("/usr/local/cuda/targets/x86_64-linux/lib/libnccl.so.2");
    return out;
}

const Api* Load() {
    const Loaded& l = State();
    return l.ok ? &l.api : nullptr;
}

const RankApi* LoadRankApi() {
    const Loaded& l = State();
    return l.ok && l.ranks_ok ? &l.ranks : nullptr;
}

const std::string& Unavailable() {
    return State().why;
}

std::string Describe() {
    const Loaded& l = State();
    if (!l.ok) return l.why;
    int version = 0;
    l.api.GetVersion(&version);
    // Since 2.9: major * 10000 + minor * 100 + patch.
    return l.path + ", NCCL " + std::to_string(version / 10000) + "." +
           std::to_string(version / 100 % 100) + "." + std::to_string(version % 100);
}

void Check(Result result, const char* call) {
    if (result == kSuccess) return;
    const Api* api = Load();
    throw std::runtime_error(std::string(call) +
                             " failed: " + (api ? api->GetErrorString(result) : "NCCL not loaded") +
                             " (NCCL error " + std::to_string(int(result)) + ")");
}

Comms::Comms(const std::vector<int>& devices) : m_comms(devices.size(), nullptr) {
    const Api* api = Load();
    if (!api) throw std::runtime_error(Unavailable());
    Check(api->CommInitAll(m_comms.data(), static_cast<int>(devices.size()), devices.data()),
          "ncclCommInitAll");
}

Comms::~Comms() {
    if (const Api* api = Load())
        for (Comm c : m_comms)
            if (c) api->CommDestroy(c);
}

}  // namespace lessons::nccl
