// cuBLAS loaded on its first call (engine/cublas_loader.h), not linked: where it looks, the
// message when it cannot be loaded (missing, or too little address space), and the library
// steps' own calls (kernels/gemv/31_cublas.cu) answering with that message rather than
// aborting. No GPU needed: each case runs in a child of its own (the loader's state is made
// once per process), and none creates a context.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <string>

#include "address_space.h"
#include "cublas_loader.h"
#include "gemv/gemv_gpu.cuh"
#include "scoped_env.h"

using namespace lessons;

TEST(CublasLoader, CandidatesAreTheVariableAloneWhenSet) {
    ScopedEnv chosen("CUDA_LESSONS_CUBLAS", "/x/libcublas.so.13");
    EXPECT_EQ(cublas::Candidates(), std::vector<std::string>{"/x/libcublas.so.13"});
    chosen.Unset();
    const std::vector<std::string> found = cublas::Candidates();
    ASSERT_GE(found.size(), 2u);
    // The versioned soname of the build's toolkit first (the loader's own search), then paths
    // ending in that same name; never the unversioned development link.
    EXPECT_TRUE(std::regex_match(found.front(), std::regex(R"(libcublas\.so\.[0-9]+)")))
        << found.front();
    for (size_t i = 1; i < found.size(); ++i)
        EXPECT_EQ(found[i].substr(found[i].size() - found.front().size() - 1), "/" + found.front())
            << found[i];
}

// CUDA_LESSONS_CUBLAS naming a file in an empty folder: the loader says what it tried, why, and
// what to install; the cuBLAS step's own call (cublasCreate, through the loader's definition)
// returns a status whose text is that message, so the step fails with it and nothing aborts.
TEST(CublasLoaderDeathTest, AMissingLibraryIsAMessageNamingWhatToInstall) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::string missing = ::testing::TempDir() + "/no-cublas-here/libcublas.so.13";
    EXPECT_EXIT(
        {
            setenv("CUDA_LESSONS_CUBLAS", missing.c_str(), 1);
            const bool loaded = cublas::Load();
            void* handle = nullptr;
            const std::string step = gemv::GemvCublasCreate(&handle, nullptr);
            std::fprintf(stderr, "loader: %s\nstep: %s\n", cublas::Unavailable().c_str(),
                         step.c_str());
            std::exit(!loaded && handle == nullptr && !step.empty() ? 0 : 1);
        },
        ::testing::ExitedWithCode(0),
        "loader: cuBLAS could not be loaded \\(tried [^\n]*no-cublas-here/libcublas\\.so\\.13 "
        "\\([^\n]*No such file[^\n]*\\)\\): install cuBLAS [0-9]+ \\(Debian/Ubuntu: the "
        "libcublas-[0-9]+-[0-9]+ "
        "package[^\n]*CUDA_LESSONS_CUBLAS=/path/to/libcublas\\.so\\.[0-9]+\n"
        "step: cublasCreate failed: CUBLAS_STATUS_NOT_INITIALIZED \\(cuBLAS could not be loaded "
        "\\(tried [^\n]*install cuBLAS");
}

// A text file named as the library: refused with the loader's reason, never read at length.
TEST(CublasLoaderDeathTest, ATextFileIsNoLibrary) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::string text = ::testing::TempDir() + "/not-cublas.so";
    ASSERT_TRUE(std::ofstream(text) << "this is a text file, not a shared library\n") << text;
    EXPECT_EXIT(
        {
            setenv("CUDA_LESSONS_CUBLAS", text.c_str(), 1);
            const bool loaded = cublas::Load();
            std::fprintf(stderr, "%s\n", cublas::Unavailable().c_str());
            std::exit(loaded ? 1 : 0);
        },
        ::testing::ExitedWithCode(0),
        "cuBLAS could not be loaded \\(tried [^\n]*not-cublas\\.so \\(.+\\)\\): install");
}

// The toolkit's cuBLAS, where this machine has it: found and loaded on the first call, its
// version said; a status's name then comes from the library itself.
TEST(CublasLoaderDeathTest, TheToolkitsCublasLoadsOnFirstUse) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            unsetenv("CUDA_LESSONS_CUBLAS");
            if (!cublas::Load()) {
                std::fprintf(stderr, "no cuBLAS here: %s\n", cublas::Unavailable().c_str());
                std::exit(77);
            }
            std::fprintf(stderr, "%s\n", cublas::Describe().c_str());
            std::exit(cublas::Unavailable().empty() ? 0 : 1);
        },
        [](int status) {
            return WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 77);
        },
        "libcublas\\.so\\.[0-9]+, cuBLAS [0-9]+\\.[0-9]+\\.[0-9]+|no cuBLAS here: cuBLAS could "
        "not be loaded");
}

// Under an address-space limit (ulimit -v) too small for cuBLAS and cuBLASLt, which are mapped
// whole: the process goes on, and the message names the limit (installing would not help).
TEST(CublasLoaderDeathTest, TooLittleAddressSpaceIsAMessageNamingTheLimit) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            unsetenv("CUDA_LESSONS_CUBLAS");
            const unsigned long long in_use = AddressSpaceInUse();
            if (in_use == 0) std::exit(2);
            // Room for the loader's own work, not for the 500 MB of libcublasLt.
            rlimit limit{};
            limit.rlim_cur = limit.rlim_max = in_use + (64ull << 20);
            if (setrlimit(RLIMIT_AS, &limit) != 0) std::exit(3);
            const bool loaded = cublas::Load();
            std::fprintf(stderr, "%s\n", cublas::Unavailable().c_str());
            std::exit(loaded ? 1 : 0);
        },
        ::testing::ExitedWithCode(0),
        "cuBLAS could not be loaded \\(tried .*\\): this process may map at most [0-9]+ MiB "
        "\\(ulimit -v\\), too little for cuBLAS and its cuBLASLt, which are mapped whole: raise "
        "or remove the limit\n");
}
