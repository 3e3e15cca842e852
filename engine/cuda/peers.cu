#include "peers.h"

#include "cuda_util.h"
#include "scoped_device.h"

namespace lessons::cuda {

PeerPath EnablePeerAccess(const std::vector<int>& devices) {
    PeerPath path;
    if (devices.size() < 2) {
        path.text = "one GPU: nothing crosses between GPUs";
        return path;
    }
    std::string direct, staged;
    for (size_t i = 0; i < devices.size(); ++i) {
        ScopedDevice on(devices[i]);
        for (size_t j = 0; j < devices.size(); ++j) {
            if (i == j) continue;
            int can = 0;
            LESSONS_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, devices[i], devices[j]));
            const std::string pair = std::to_string(devices[i]) + "->" + std::to_string(devices[j]);
            if (!can) {
                path.direct = false;
                staged += (staged.empty() ? "" : ", ") + pair;
                continue;
            }
            const cudaError_t e = cudaDeviceEnablePeerAccess(devices[j], 0);
            if (e == cudaErrorPeerAccessAlreadyEnabled) {
                cudaGetLastError();  // not an error here: clear it
            } else {
                LESSONS_CUDA_CHECK(e);
            }
            direct += (direct.empty() ? "" : ", ") + pair;
        }
    }
    if (path.direct)
        path.text = "peer access: GPUs copy to each other directly (NVLink or PCIe P2P)";
    else if (direct.empty())
        path.text = "no peer access: copies between GPUs go through host memory";
    else
        path.text = "peer access for " + direct + "; through host memory for " + staged;
    return path;
}

}  // namespace lessons::cuda
