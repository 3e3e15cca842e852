// Where the dynamic loader would find a shared library, found without loading it. Loading maps
// the whole library (NCCL: about 218 MB of address space): to say whether a step can run
// (`list`, `info`, the worker's list), finding its file is enough; it is loaded when the step
// runs (nccl_probe.h).
#pragma once

#include <string>
#include <vector>

namespace lessons {

// The file dlopen(name) from this program would open, looked for as the loader looks, without
// opening it as a library: a name with a '/' is that path; a bare name is looked for in this
// program's search folders (DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH, as dlinfo reports them),
// then in ldconfig's cache (/etc/ld.so.cache), then in the system's folders. The file must be
// a regular file that begins as an ELF shared object of this program's class and machine.
// Empty when none is found (dlopen would then fail, or would find what this search does not:
// callers load to be sure).
std::string FindLibraryFile(const std::string& name);

// The libraries named `name` in an ld.so.cache image (glibc's "glibc-ld.so.cache1.1" format,
// alone or after the old "ld.so-1.7.0" table): their paths, in the cache's order. Empty for
// anything else.
std::vector<std::string> LdCacheEntries(const std::string& cache, const std::string& name);

// Whether `path` is a regular file that begins as an ELF shared object of this program's class
// and machine (only its first 64 bytes are read).
bool IsLoadableLibraryFile(const std::string& path);

// The version in a library's file name once links are followed ("libnccl.so.2.27.7" ->
// "2.27.7"); empty when the name carries none past its major number.
std::string LibraryFileVersion(const std::string& path);

}  // namespace lessons
