// Makes a device current for a scope and restores the previous one when it ends, so that work
// on one GPU never leaves another thread's or caller's code on the wrong device.
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

}  // namespace lessons::cuda
