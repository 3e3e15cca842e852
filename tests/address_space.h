// This process's address space, for the tests that start a child under a small limit on it
// (RLIMIT_AS) and say what the child can still take.
#pragma once

#include <fstream>
#include <string>

// The address space this process has in use (VmSize), in bytes; 0 when /proc does not say.
inline unsigned long long AddressSpaceInUse() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) << 10;
    return 0;
}
