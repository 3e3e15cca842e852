// Makes a device current for a scope and restores the previous one when it ends, so that work
// on one GPU never leaves another thread's or caller's code on the wrong device; and one GPU's
// own things in a multi-GPU step, freed with that GPU current.
#pragma once

#include <cuda_runtime.h>

#include "cuda_util.h"

namespace lessons::cuda {

class ScopedDevice {
public:
    explicit ScopedDevice(int ordinal) {
        LESSONS_CUDA_CHECK(cudaGetDevice(&m_previous));
        if (ordinal != m_previous) {
            LESSONS_CUDA_CHECK(cudaSetDevice(ordinal));
            m_changed = true;
        }
    }
    ~ScopedDevice() {
        if (m_changed) cudaSetDevice(m_previous);  // cannot report from a destructor
    }
    ScopedDevice(const ScopedDevice&) = delete;
    ScopedDevice& operator=(const ScopedDevice&) = delete;

private:
    int m_previous = 0;
    bool m_changed = false;
};

// One GPU's buffers, events (`Members`) and stream, made with that GPU current (the caller's
// ScopedDevice) and freed on it: its destructor makes the GPU current, and they are freed after.
template <class Members>
struct OnGpu : Members {
    explicit OnGpu(int d) : device(d) {}
    ~OnGpu() { cudaSetDevice(device); }  // cannot report from a destructor
    OnGpu(const OnGpu&) = delete;
    OnGpu& operator=(const OnGpu&) = delete;
    int device;
    Stream stream;
};

}  // namespace lessons::cuda
