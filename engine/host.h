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

// Memory a new allocation can take without swapping (MemAvailable), read now.
uint64_t HostAvailableMemory();

// "2026-11-21T19:05:00Z"
std::string UtcTimestamp();

}  // namespace lessons
