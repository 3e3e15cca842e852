// The prologues of a test that needs a GPU, or NVRTC (a student's kernel compiled): without one
// it reports *skipped* with the reason (no driver, no device, no NVRTC), never a silent pass.
#pragma once

#include <gtest/gtest.h>

#include "device.h"
#include "nvrtc_loader.h"

#define REQUIRE_GPU()                                                                  \
    do {                                                                               \
        if (!::lessons::GetDeviceInfo().available())                                   \
            GTEST_SKIP() << "no GPU: " << ::lessons::GetDeviceInfo().unavailable.text; \
    } while (0)

#define REQUIRE_NVRTC()                                                                    \
    do {                                                                                   \
        if (!::lessons::nvrtc::Load())                                                     \
            GTEST_SKIP() << "NVRTC is not available: " << ::lessons::nvrtc::Unavailable(); \
    } while (0)

// A GPU and NVRTC: the student's kernel is compiled, then run.
#define REQUIRE_GPU_AND_NVRTC() \
    do {                        \
        REQUIRE_GPU();          \
        REQUIRE_NVRTC();        \
    } while (0)
