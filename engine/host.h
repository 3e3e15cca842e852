// The CPU side: name, threads, memory.
#pragma once

#include <cstdint>
#include <string>

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

// "2026-11-21T19:05:00Z"
std::string UtcTimestamp();

}  // namespace lessons
