// Finding a shared library's file as the loader would, without loading it (library_probe.h),
// and the out-of-memory errors (out_of_memory.h).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <link.h>
#include <sys/resource.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#include "library_probe.h"
#include "out_of_memory.h"

using namespace lessons;

namespace {

std::string Real(const std::string& path) {
    char buf[PATH_MAX];
    return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

void Put32(std::string& s, size_t at, uint32_t v) {
    std::memcpy(&s[at], &v, sizeof v);
}

// An ld.so.cache image in glibc's new format: `entries` as {name, path}.
std::string CacheImage(const std::vector<std::pair<std::string, std::string>>& entries,
                       const std::string& before = "") {
    const size_t header = 48, entry = 24;
    std::string image(header + entry * entries.size(), '\0');
    std::memcpy(&image[0], "glibc-ld.so.cache1.1", 20);
    Put32(image, 20, uint32_t(entries.size()));
    std::string strings;
    for (size_t i = 0; i < entries.size(); ++i) {
        const size_t at = header + i * entry;
        Put32(image, at, 0x0303);  // libc6, x86-64
        Put32(image, at + 4, uint32_t(image.size() + strings.size()));
        strings += entries[i].first + '\0';
        Put32(image, at + 8, uint32_t(image.size() + strings.size()));
        strings += entries[i].second + '\0';
    }
    Put32(image, 24, uint32_t(strings.size()));
    return before + image + strings;
}

}  // namespace

TEST(LibraryProbe, TheCacheIsReadInItsNewFormatAloneOrAfterTheOldTable) {
    const std::string image = CacheImage({{"libnccl.so.2", "/opt/a/libnccl.so.2"},
                                          {"libc.so.6", "/lib/libc.so.6"},
                                          {"libnccl.so.2", "/opt/b/libnccl.so.2"}});
    EXPECT_EQ(LdCacheEntries(image, "libnccl.so.2"),
              (std::vector<std::string>{"/opt/a/libnccl.so.2", "/opt/b/libnccl.so.2"}));
    EXPECT_EQ(LdCacheEntries(image, "libc.so.6"), std::vector<std::string>{"/lib/libc.so.6"});
    EXPECT_TRUE(LdCacheEntries(image, "libnone.so.1").empty());
    // After the old format's table (magic, a count, its entries): found by the new magic.
    std::string old = "ld.so-1.7.0";
    old.resize(16 + 12, '\0');
    EXPECT_EQ(LdCacheEntries(CacheImage({{"libx.so.1", "/x/libx.so.1"}}, old), "libx.so.1"),
              std::vector<std::string>{"/x/libx.so.1"});
}

TEST(LibraryProbe, ABrokenCacheGivesNothingAndReadsNothingOutOfBounds) {
    EXPECT_TRUE(LdCacheEntries("", "libc.so.6").empty());
    EXPECT_TRUE(LdCacheEntries("not a cache at all", "libc.so.6").empty());
    std::string image = CacheImage({{"libc.so.6", "/lib/libc.so.6"}});
    Put32(image, 20, 0x7fffffff);  // more entries than the file holds
    EXPECT_TRUE(LdCacheEntries(image, "libc.so.6").empty());
    image = CacheImage({{"libc.so.6", "/lib/libc.so.6"}});
    Put32(image, 48 + 8, 0x7fffffff);  // a path past the end
    EXPECT_TRUE(LdCacheEntries(image, "libc.so.6").empty());
    EXPECT_TRUE(LdCacheEntries(image.substr(0, 40), "libc.so.6").empty());  // cut short
}

// The search finds the very file the loader loaded for a bare name (libc, loaded in every
// process), and only ELF shared objects of this program's kind count.
TEST(LibraryProbe, ABareNameIsFoundWhereTheLoaderFoundIt) {
    void* handle = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    ASSERT_NE(handle, nullptr);
    link_map* map = nullptr;
    ASSERT_EQ(dlinfo(handle, RTLD_DI_LINKMAP, &map), 0);
    const std::string loaded = map->l_name;
    dlclose(handle);
    const std::string found = FindLibraryFile("libc.so.6");
    ASSERT_FALSE(found.empty());
    EXPECT_EQ(Real(found), Real(loaded));
    EXPECT_TRUE(IsLoadableLibraryFile(found));
    EXPECT_TRUE(FindLibraryFile("libno-such-library-of-cuda-lessons.so.1").empty());
}

TEST(LibraryProbe, APathMustBeARegularElfSharedObject) {
    const std::string dir = ::testing::TempDir() + "/library-probe";
    ASSERT_EQ(std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str()), 0);
    std::ofstream(dir + "/text.so.1") << "this is a text file, not a shared library\n";
    std::ofstream(dir + "/short.so.1") << "\x7f"
                                          "ELF";
    for (const std::string& path : {dir + "/text.so.1", dir + "/short.so.1", dir,
                                    std::string("/dev/zero"), dir + "/missing.so.1"})
        EXPECT_TRUE(FindLibraryFile(path).empty()) << path;
    const std::string libc = FindLibraryFile("libc.so.6");
    ASSERT_FALSE(libc.empty());
    EXPECT_EQ(FindLibraryFile(libc), libc);
}

TEST(LibraryProbe, TheVersionIsReadFromTheFileNameOnceLinksAreFollowed) {
    const std::string dir = ::testing::TempDir() + "/library-version";
    ASSERT_EQ(std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "' && touch '" + dir +
                           "/libnccl.so.2.27.7' && ln -s libnccl.so.2.27.7 '" + dir +
                           "/libnccl.so.2' && touch '" + dir + "/libplain.so.2'")
                              .c_str()),
              0);
    EXPECT_EQ(LibraryFileVersion(dir + "/libnccl.so.2"), "2.27.7");
    EXPECT_EQ(LibraryFileVersion(dir + "/libplain.so.2"), "");
    EXPECT_EQ(LibraryFileVersion("/nonexistent/libz.so.1.3"), "1.3");
}

TEST(OutOfMemory, SaysWhatCouldNotBeDoneAndTheLimit) {
    const OutOfMemory e("load the recorded results");
    EXPECT_NE(std::string(e.what()).find("not enough memory to load the recorded results"),
              std::string::npos);
    EXPECT_TRUE(IsOutOfMemory(e));
    EXPECT_TRUE(IsOutOfMemory(std::bad_alloc()));
    EXPECT_TRUE(IsOutOfMemory(std::length_error("x")));
    EXPECT_FALSE(IsOutOfMemory(std::runtime_error("x")));
    // The limit, where one is set, in MiB.
    rlimit old{};
    ASSERT_EQ(getrlimit(RLIMIT_AS, &old), 0);
    if (old.rlim_cur == RLIM_INFINITY || old.rlim_cur > (64ull << 30)) {
        rlimit tight = old;
        tight.rlim_cur = 64ull << 30;
        ASSERT_EQ(setrlimit(RLIMIT_AS, &tight), 0);
        const OutOfMemory limited("open the exercise file");
        EXPECT_NE(std::string(limited.what()).find("limited to 65536 MiB by ulimit -v 67108864"),
                  std::string::npos)
            << limited.what();
        ASSERT_EQ(setrlimit(RLIMIT_AS, &old), 0);
    }
}

// A handler that skips bad entries passes running out of memory on, naming what was being
// done; one already named keeps its name; anything else is left to the handler.
TEST(OutOfMemory, ALoaderThatSkipsBadEntriesLetsItThrough) {
    const auto skipping = [](auto thrower) {
        try {
            thrower();
        } catch (const std::exception& e) {
            RethrowIfOutOfMemory(e, "load the tunings");
            return std::string("skipped");
        }
        return std::string("ok");
    };
    try {
        skipping([] { throw std::bad_alloc(); });
        FAIL() << "bad_alloc was taken for a bad entry";
    } catch (const OutOfMemory& e) {
        EXPECT_NE(std::string(e.what()).find("to load the tunings"), std::string::npos);
    }
    try {
        skipping([] { throw OutOfMemory("load the progress file"); });
        FAIL();
    } catch (const OutOfMemory& e) {
        EXPECT_NE(std::string(e.what()).find("to load the progress file"), std::string::npos);
    }
    EXPECT_THROW(skipping([] { std::string().reserve(std::string().max_size() + 1); }),
                 OutOfMemory);
    EXPECT_EQ(skipping([] { throw std::runtime_error("not a tuning"); }), "skipped");
    EXPECT_EQ(OutOfMemoryAs("x", [] { return 7; }), 7);
}

namespace {
// Out of memory inside a noexcept function, as in nlohmann::json's destructor: nothing can catch
// it, and std::terminate is called.
void ThrowsInsideNoexcept(bool out_of_memory) noexcept {
    if (out_of_memory) throw std::bad_alloc();
    throw std::runtime_error("not memory");
}
}  // namespace

// The last boundary: std::terminate ends the program with the message and exit code 1 when it
// is running out of memory (it died by SIGABRT, "terminate called after throwing an instance of
// 'std::bad_alloc'"); anything else still aborts.
TEST(OutOfMemoryDeathTest, RunningOutInsideNoexceptEndsWithAMessageAndExitOne) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            EndWithAMessageWhenOutOfMemory("error: ", "run 'page'");
            ThrowsInsideNoexcept(true);
        },
        ::testing::ExitedWithCode(1), "error: not enough memory to run 'page'");
    EXPECT_DEATH(
        {
            EndWithAMessageWhenOutOfMemory("error: ", "run 'page'");
            ThrowsInsideNoexcept(false);
        },
        "not memory");
}
