#include "library_probe.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace lessons {
namespace {

constexpr size_t kMaxLdCacheBytes = 64u << 20;  // a real one is well under 1 MiB

#if defined(__x86_64__)
constexpr uint16_t kMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kMachine = EM_AARCH64;
#else
constexpr uint16_t kMachine = 0;  // any
#endif

uint32_t Load32(const std::string& s, size_t at) {
    uint32_t v = 0;
    std::memcpy(&v, s.data() + at, sizeof v);
    return v;
}

// The NUL-terminated string at `at`, or empty when it runs past the end.
std::string StringAt(const std::string& s, size_t at) {
    if (at >= s.size()) return {};
    const size_t end = s.find('\0', at);
    return end == std::string::npos ? std::string() : s.substr(at, end - at);
}

std::string ReadLdCache() {
    struct stat st {};
    if (stat("/etc/ld.so.cache", &st) != 0 || !S_ISREG(st.st_mode) ||
        uint64_t(st.st_size) > kMaxLdCacheBytes)
        return {};
    std::ifstream in("/etc/ld.so.cache", std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// This program's search folders for dlopen, as the loader reports them: those before the cache
// (DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH) and the system's, after it.
void SearchFolders(std::vector<std::string>* before, std::vector<std::string>* after) {
    void* self = dlopen(nullptr, RTLD_LAZY);
    if (!self) return;
    Dl_serinfo size{};
    if (dlinfo(self, RTLD_DI_SERINFOSIZE, &size) == 0 && size.dls_size >= sizeof(Dl_serinfo)) {
        std::vector<unsigned char> buffer(size.dls_size);
        auto* info = reinterpret_cast<Dl_serinfo*>(buffer.data());
        info->dls_size = size.dls_size;
        info->dls_cnt = size.dls_cnt;
        if (dlinfo(self, RTLD_DI_SERINFO, info) == 0)
            for (unsigned i = 0; i < info->dls_cnt; ++i) {
                const Dl_serpath& p = info->dls_serpath[i];
                if (!p.dls_name || !*p.dls_name) continue;
                ((p.dls_flags & LA_SER_DEFAULT) ? after : before)->push_back(p.dls_name);
            }
    }
    dlclose(self);
}

}  // namespace

bool IsLoadableLibraryFile(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return false;
    unsigned char h[64] = {};
    const ssize_t n = read(fd, h, sizeof h);
    close(fd);
    if (n < 20 || std::memcmp(h, ELFMAG, SELFMAG) != 0) return false;
    const int want_class = sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32;
    if (h[EI_CLASS] != want_class || h[EI_DATA] != ELFDATA2LSB) return false;
    uint16_t type = 0, machine = 0;
    std::memcpy(&type, h + 16, 2);
    std::memcpy(&machine, h + 18, 2);
    return type == ET_DYN && (kMachine == 0 || machine == kMachine);
}

std::vector<std::string> LdCacheEntries(const std::string& cache, const std::string& name) {
    static constexpr char kMagic[] = "glibc-ld.so.cache1.1";
    constexpr size_t kHeader = 48, kEntry = 24;
    std::vector<std::string> out;
    // Alone, or after the old format's table (whose offsets this does not need).
    size_t base = std::string::npos;
    if (cache.compare(0, sizeof kMagic - 1, kMagic) == 0)
        base = 0;
    else if (cache.compare(0, 11, "ld.so-1.7.0") == 0)
        base = cache.find(kMagic);
    if (base == std::string::npos || cache.size() < base + kHeader) return out;
    const std::string image = cache.substr(base);  // offsets count from the new header
    const uint64_t count = Load32(image, 20);
    if (count > (image.size() - kHeader) / kEntry) return out;
    for (uint64_t i = 0; i < count; ++i) {
        const size_t entry = kHeader + i * kEntry;
        if (StringAt(image, Load32(image, entry + 4)) != name) continue;
        const std::string path = StringAt(image, Load32(image, entry + 8));
        if (!path.empty()) out.push_back(path);
    }
    return out;
}

std::string FindLibraryFile(const std::string& name) {
    if (name.empty()) return {};
    if (name.find('/') != std::string::npos) return IsLoadableLibraryFile(name) ? name : "";
    std::vector<std::string> before, after;
    SearchFolders(&before, &after);
    for (const std::string& folder : before)
        if (IsLoadableLibraryFile(folder + "/" + name)) return folder + "/" + name;
    for (const std::string& path : LdCacheEntries(ReadLdCache(), name))
        if (IsLoadableLibraryFile(path)) return path;
    for (const std::string& folder : after)
        if (IsLoadableLibraryFile(folder + "/" + name)) return folder + "/" + name;
    return {};
}

std::string LibraryFileVersion(const std::string& path) {
    char real[PATH_MAX];
    std::string file = realpath(path.c_str(), real) ? real : path;
    file = file.substr(file.rfind('/') + 1);
    const size_t so = file.find(".so.");
    if (so == std::string::npos) return {};
    const std::string version = file.substr(so + 4);
    // More than the major number alone, and digits and dots only.
    if (version.find('.') == std::string::npos ||
        version.find_first_not_of("0123456789.") != std::string::npos)
        return {};
    return version;
}

}  // namespace lessons
