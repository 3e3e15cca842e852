// The GUI's own allocations when memory runs out (issue 45): ImGui's font atlas, whose pixels
// are ImGui's to allocate, ends in OutOfMemory with a message, not in a write through a null
// pointer; the worker's reading thread that cannot start is said, and the worker ended.
#include <gtest/gtest.h>
#include <imgui.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "address_space.h"
#include "out_of_memory.h"
#include "panels/fonts.h"
#include "worker/worker_process.h"

using namespace lessons;
using namespace lessons::app;

namespace {

// In a child: a font atlas far larger than the address space left; exits 0 on OutOfMemory.
[[noreturn]] void BuildAnAtlasTooLargeForTheAddressSpace() {
    ImGuiAllocationsThrowWhenOutOfMemory();
    ImGui::CreateContext();
    rlimit limit{};
    limit.rlim_cur = limit.rlim_max = AddressSpaceInUse() + (96ull << 20);
    if (setrlimit(RLIMIT_AS, &limit) != 0) std::exit(3);
    try {
        ImFontConfig config;
        config.SizePixels = 2000;  // a texture of several hundred MB
        ImGui::GetIO().Fonts->AddFontDefault(&config);
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        std::fprintf(stderr, "built %d x %d\n", w, h);
        std::exit(2);  // it fitted: the test proves nothing
    } catch (const OutOfMemory& e) {
        std::fprintf(stderr, "%s\n", e.what());
        std::exit(0);
    }
}

// In a child: a worker started with too little address space left for its reading thread's
// stack; exits 0 when Start() says so and the worker is not running.
[[noreturn]] void StartAWorkerWithoutRoomForItsThread(const std::string& pid_file) {
    // A worker that writes its pid and stays (it does not end with its input).
    WorkerProcess worker({"/bin/sh", "-c", "echo $$ > '" + pid_file + "'; exec sleep 30"});
    rlimit limit{};
    limit.rlim_cur = limit.rlim_max = AddressSpaceInUse() + (2ull << 20);  // < a stack
    if (setrlimit(RLIMIT_AS, &limit) != 0) std::exit(3);
    std::string error;
    const bool started = worker.Start(&error);
    std::fprintf(stderr, "started %d: %s\n", started, error.c_str());
    std::exit(!started && !worker.Running() ? 0 : 1);
}

}  // namespace

// A font atlas too big for the address space left: a message naming what could not be done.
// Without the allocator, ImGui writes through the null pointer malloc returns (SIGSEGV).
TEST(AppMemoryDeathTest, AFontAtlasThatDoesNotFitIsAMessageNotACrash) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(BuildAnAtlasTooLargeForTheAddressSpace(), ::testing::ExitedWithCode(0),
                "not enough memory to draw the window");
}

// A worker whose reading thread cannot start (too little address space for its stack): Start()
// says so and the worker process is ended, not left running unread. It ended the GUI in
// std::terminate (an uncaught std::system_error) under ulimit -v 600000.
TEST(AppMemoryDeathTest, AWorkerWhoseReadingThreadCannotStartIsSaidAndEnded) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::string pid_file = ::testing::TempDir() + "/reader-thread-worker.pid";
    std::remove(pid_file.c_str());
    EXPECT_EXIT(StartAWorkerWithoutRoomForItsThread(pid_file), ::testing::ExitedWithCode(0),
                "cannot start a thread to read the worker");
    // The worker it had started is gone.
    std::ifstream in(pid_file);
    int pid = 0;
    if (in >> pid && pid > 0) {
        bool gone = false;
        for (int i = 0; i < 100 && !gone; ++i) {
            gone = kill(pid, 0) != 0;
            if (!gone) usleep(20000);
        }
        EXPECT_TRUE(gone) << "the worker " << pid << " was left running";
    }
}
