#include "host.h"

#include <dirent.h>
#include <malloc.h>
#include <omp.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>
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

CpuTimes ReadCpuTimes() {
    CpuTimes t;
    rusage self{};
    if (getrusage(RUSAGE_SELF, &self) == 0)
        t.self_s = double(self.ru_utime.tv_sec) + double(self.ru_utime.tv_usec) * 1e-6 +
                   double(self.ru_stime.tv_sec) + double(self.ru_stime.tv_usec) * 1e-6;
    // The first line: "cpu  user nice system idle iowait irq softirq steal guest guest_nice",
    // in clock ticks. Read at most one short line; anything else leaves the machine unknown.
    std::ifstream in("/proc/stat");
    char line[512] = {};
    if (!in.getline(line, sizeof line) || std::strncmp(line, "cpu ", 4) != 0) return t;
    std::istringstream fields(line + 4);
    unsigned long long v[8] = {};
    for (unsigned long long& x : v)
        if (!(fields >> x)) return t;
    const long hz = sysconf(_SC_CLK_TCK);
    if (hz <= 0) return t;
    // Busy: user, nice, system, irq, softirq, steal (idle and iowait are not).
    const unsigned long long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    t.machine_busy_s = double(busy) / double(hz);
    return t;
}

std::optional<double> OtherCoresBusy(const CpuTimes& before, const CpuTimes& after, double wall_s) {
    if (before.machine_busy_s < 0 || after.machine_busy_s < 0 || !(wall_s > 0)) return {};
    const double others =
        (after.machine_busy_s - before.machine_busy_s) - (after.self_s - before.self_s);
    return std::max(0.0, others / wall_s);
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

namespace {

// The thread ids of process `pid` ("self" for this one).
std::vector<int> TaskIds(const std::string& pid) {
    std::vector<int> out;
    const std::string dir = "/proc/" + pid + "/task";
    if (DIR* d = opendir(dir.c_str())) {
        while (const dirent* e = readdir(d))
            if (e->d_name[0] >= '0' && e->d_name[0] <= '9') out.push_back(std::atoi(e->d_name));
        closedir(d);
    }
    return out;
}

}  // namespace

int LowerPriority(int increment, std::string* problem) {
    const int self = static_cast<int>(syscall(SYS_gettid));
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, static_cast<id_t>(self));
    if (now == -1 && errno != 0) {
        if (problem) *problem = std::string("cannot read the priority: ") + std::strerror(errno);
        return 0;
    }
    const int target = std::min(19, now + std::max(increment, 0));
    // On Linux a nice value belongs to a thread: each one is lowered, the caller's last.
    std::vector<int> tasks = TaskIds("self");
    if (std::find(tasks.begin(), tasks.end(), self) == tasks.end()) tasks.push_back(self);
    for (int tid : tasks)
        if (setpriority(PRIO_PROCESS, static_cast<id_t>(tid), target) != 0 && problem &&
            problem->empty())
            *problem = "cannot lower the priority of thread " + std::to_string(tid) + ": " +
                       std::strerror(errno);
    return getpriority(PRIO_PROCESS, static_cast<id_t>(self));
}

int CurrentNice() {
    return getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
}

std::vector<int> ThreadNiceValues(int pid) {
    std::vector<int> out;
    for (int tid : TaskIds(std::to_string(pid))) {
        std::ifstream in("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/stat");
        std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        // After the command name in parentheses: field 3 (state) ... field 19 (nice).
        const size_t close = stat.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(stat.substr(close + 2));
        std::string field;
        for (int i = 3; i <= 19 && rest >> field; ++i)
            if (i == 19) out.push_back(std::atoi(field.c_str()));
    }
    return out;
}

void ReturnFreedMemory() {
    malloc_trim(0);
}

}  // namespace lessons
