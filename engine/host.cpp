#include "host.h"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <string>

namespace lessons {
namespace {

uint64_t MeminfoField(const std::string& field) {
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t value_kib = 0;
    std::string unit;
    while (in >> key >> value_kib >> unit) {
        if (key == field + ":") return value_kib * 1024;
    }
    return 0;
}

}  // namespace

const HostInfo& GetHostInfo() {
    static const HostInfo info = [] {
        HostInfo h;
        std::ifstream cpuinfo("/proc/cpuinfo");
        std::string line;
        while (std::getline(cpuinfo, line)) {
            if (line.rfind("model name", 0) == 0) {
                const size_t colon = line.find(':');
                if (colon != std::string::npos) h.cpu_name = line.substr(colon + 2);
                break;
            }
        }
        if (h.cpu_name.empty()) h.cpu_name = "CPU";
        h.hardware_threads = omp_get_max_threads();
        h.total_memory = MeminfoField("MemTotal");
        if (h.total_memory == 0) {
            const long pages = sysconf(_SC_PHYS_PAGES);
            h.total_memory =
                static_cast<uint64_t>(pages) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
        }
        return h;
    }();
    return info;
}

std::string LimitOpenMpThreads() {
    const int processors = std::max(omp_get_num_procs(), 1);
    const int asked = omp_get_max_threads();
    if (asked <= kMaxThreadsPerProcessor * processors) return {};
    omp_set_num_threads(processors);
    return "OMP_NUM_THREADS asks for " + std::to_string(asked) + " threads, more than " +
           std::to_string(kMaxThreadsPerProcessor) + " per processor (" +
           std::to_string(processors) + " here): using " + std::to_string(processors);
}

uint64_t HostAvailableMemory() {
    const uint64_t available = MeminfoField("MemAvailable");
    return available ? available : GetHostInfo().total_memory / 2;
}

std::string UtcTimestamp() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace lessons
