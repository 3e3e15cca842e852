// The prologue of a test that needs a GPU: without one it reports *skipped* with the reason
// (no driver, no device), never a silent pass.
#pragma once

#include <gtest/gtest.h>

#include "device.h"

#define REQUIRE_GPU()                                                                  \
    do {                                                                               \
        if (!::lessons::GetDeviceInfo().available())                                   \
            GTEST_SKIP() << "no GPU: " << ::lessons::GetDeviceInfo().unavailable.text; \
    } while (0)
