// NcclUnavailable() and NcclStatus(): NCCL found without loading it (nccl_probe.h).
#include "../nccl_probe.h"

#include <dlfcn.h>

#include <string>

#include "../device.h"
#include "../library_probe.h"
#include "nccl/nccl_loader.h"

namespace lessons {
namespace {

// Whether a step has loaded NCCL in this process already: its loader's answers then cost nothing.
bool NcclLoaded() {
    for (const std::string& candidate : nccl::Candidates())
        if (void* handle = dlopen(candidate.c_str(), RTLD_LAZY | RTLD_NOLOAD)) {
            dlclose(handle);
            return true;
        }
    return false;
}

// The file the loader would load, found without loading it; empty when none is found.
std::string NcclFile() {
    for (const std::string& candidate : nccl::Candidates())
        if (std::string file = FindLibraryFile(candidate); !file.empty()) return file;
    return {};
}

}  // namespace

std::string NcclUnavailable() {
    if (NcclLoaded() || NcclFile().empty()) return nccl::Unavailable();
    return {};
}

std::string NcclStatus() {
    if (NcclLoaded()) return nccl::Describe();
    const std::string file = NcclFile();
    if (file.empty()) return nccl::Describe();  // the loader's reason: nothing found is mapped
    const std::string version = LibraryFileVersion(file);
    return file + (version.empty() ? "" : ", NCCL " + version) +
           " (found; loaded when an NCCL step runs)";
}

}  // namespace lessons
