// Peer access between the GPUs a multi-GPU step uses: turned on where
// cudaDeviceCanAccessPeer allows, both ways between every pair; where it does not, copies
// between GPUs go through host memory (cudaMemcpyPeerAsync stages them).
#pragma once

#include <string>
#include <vector>

namespace lessons::cuda {

struct PeerPath {
    bool direct = true;  // every pair can reach each other directly
    std::string text;    // "peer access (direct GPU-to-GPU copies) between GPUs 0 and 1", ...
};

// Enables what can be enabled (already enabled is fine) and says which path copies take.
// Restores the current device. One GPU: direct, "one GPU: nothing crosses between GPUs".
PeerPath EnablePeerAccess(const std::vector<int>& devices);

}  // namespace lessons::cuda
