// The CPU side: name, threads, memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lessons {

struct HostInfo {
    std::string cpu_name;
    int hardware_threads = 1;  // what OpenMP uses by default
    uint64_t total_memory = 0;
};

const HostInfo& GetHostInfo();

// OpenMP's default thread count comes from the environment (OMP_NUM_THREADS), unchecked: a
// value far above the processors (100000) makes thread creation fail or crash. Above
// kMaxThreadsPerProcessor per processor, the default becomes the processor count; returns a
// note saying so (empty when the value was kept). Call it first, on the thread that runs.
constexpr int kMaxThreadsPerProcessor = 4;
std::string LimitOpenMpThreads();

// Memory a new allocation can take without swapping (MemAvailable), read now.
uint64_t HostAvailableMemory();

// Lowers this process's scheduling priority by `increment` nice levels (at most to 19), for
// every thread it has now; threads started later inherit it. The worker does this at start,
// so that a lesson running on every core leaves the GUI the CPU it needs to draw. Returns the
// nice value of the calling thread afterwards, or a note on failure in `problem`.
int LowerPriority(int increment, std::string* problem);
// The nice value of the calling thread (Linux: a nice value belongs to a thread).
int CurrentNice();
// The nice value of every thread of process `pid` (Linux: /proc/PID/task/*/stat), empty when
// it cannot be read.
std::vector<int> ThreadNiceValues(int pid);

// The machine's busy CPU time (every core's, from /proc/stat) and this process's own, in
// seconds, read now. machine_busy_s < 0 where /proc/stat cannot be read or parsed.
struct CpuTimes {
    double machine_busy_s = -1;
    double self_s = 0;
};
CpuTimes ReadCpuTimes();
// How many cores other processes kept busy, on average, between two readings `wall_s` apart
// (never below 0); nullopt when either reading is unknown or no time passed.
std::optional<double> OtherCoresBusy(const CpuTimes& before, const CpuTimes& after, double wall_s);

// Returns freed heap memory to the system (glibc's malloc_trim), after large buffers are freed.
void ReturnFreedMemory();

// "2026-11-21T19:05:00Z"
std::string UtcTimestamp();

}  // namespace lessons
