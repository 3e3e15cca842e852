// The prologues of a test that needs a GPU, or NVRTC (a student's kernel compiled): without one
// it reports *skipped* with the reason (no driver, no device, no NVRTC), never a silent pass.
#pragma once

#include <gtest/gtest.h>

#include "device.h"
#include "nvrtc_loader.h"
#include "session.h"

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

// The options of one quick checked run of a GPU test: one repetition, its data from `seed`, no
// ceilings measured.
inline ::lessons::RunOptions OneRun(uint64_t seed) {
    ::lessons::RunOptions o;
    o.reps = 1;
    o.seed = seed;
    o.measure_ceilings = false;
    return o;
}

// A product step's declared work at m × n × k (`what` names the run): 2·m·n·k flops, A and B
// read once and C written once, `element` bytes each.
inline void ExpectProductWork(const ::lessons::Work& w, uint64_t m, uint64_t n, uint64_t k,
                              uint64_t element, const std::string& what) {
    EXPECT_EQ(w.flops, 2 * m * n * k) << what;
    EXPECT_EQ(w.bytes_read, (m * k + k * n) * element) << what;
    EXPECT_EQ(w.bytes_written, m * n * element) << what;
}
