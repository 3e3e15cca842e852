// Reading inputs that are regular files only, and writes that are checked and never leave a
// half-written file under the final name.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "errors.h"
#include "files.h"

using namespace lessons;

namespace {

std::string TempPath(const std::string& name) {
    return ::testing::TempDir() + "/files_" + std::to_string(getpid()) + "_" + name;
}

std::string ReadBack(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool Exists(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0;
}

// Every entry of the folder whose name starts with `prefix` (leftover temporaries).
int CountStartingWith(const std::string& folder, const std::string& prefix) {
    int n = 0;
    const std::string command = "ls -A '" + folder + "'";
    FILE* pipe = popen(command.c_str(), "r");
    char line[4096];
    while (pipe && fgets(line, sizeof line, pipe))
        if (std::string(line).rfind(prefix, 0) == 0) ++n;
    if (pipe) pclose(pipe);
    return n;
}

template <typename F>
std::string MessageOf(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no exception)";
}

}  // namespace

TEST(Files, RegularFileSizeAndRead) {
    const std::string path = TempPath("in.txt");
    WriteFileReplacing(path, std::string_view("hello\r\nworld"));
    ASSERT_EQ(RegularFileSize(path), 12u);
    char buf[12];
    ReadRegularFile(path, buf, sizeof buf);
    EXPECT_EQ(std::string(buf, sizeof buf), "hello\r\nworld");
    std::remove(path.c_str());
}

TEST(Files, InputMustBeARegularFile) {
    EXPECT_THROW(RegularFileSize("/no/such/file"), UsageError);
    EXPECT_NE(MessageOf([] { RegularFileSize(""); }).find("empty"), std::string::npos);
    EXPECT_NE(MessageOf([] { RegularFileSize(::testing::TempDir()); }).find("a directory"),
              std::string::npos);
    EXPECT_NE(MessageOf([] { RegularFileSize("/dev/zero"); }).find("a character device"),
              std::string::npos);
    EXPECT_NE(MessageOf([] { RegularFileSize("/dev/urandom"); }).find("not a regular file"),
              std::string::npos);
    EXPECT_THROW(RegularFileSize("/dev/null"), UsageError);
}

TEST(Files, FifoWithoutWriterIsRefusedWithoutBlocking) {
    const std::string fifo = TempPath("fifo");
    std::remove(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // A blocking open() would wait here for a writer forever.
    const std::string message = MessageOf([&] { RegularFileSize(fifo); });
    EXPECT_NE(message.find("a pipe (FIFO)"), std::string::npos) << message;
    char c;
    EXPECT_THROW(ReadRegularFile(fifo, &c, 1), UsageError);
    std::remove(fifo.c_str());
}

TEST(Files, ReadIsCancellableAndNoticesAShorterFile) {
    const std::string path = TempPath("short.txt");
    WriteFileReplacing(path, std::string_view("abc"));
    std::atomic<bool> cancel{true};
    char buf[8];
    EXPECT_THROW(ReadRegularFile(path, buf, 3, &cancel), Cancelled);
    const std::string message = MessageOf([&] { ReadRegularFile(path, buf, 8); });
    EXPECT_NE(message.find("shorter"), std::string::npos) << message;
    std::remove(path.c_str());
}

TEST(Files, WriteReplacesAtomicallyAndKeepsTheOldFileOnFailure) {
    const std::string path = TempPath("out.txt");
    WriteFileReplacing(path, std::string_view("old contents\n"));
    EXPECT_THROW(WriteFileReplacing(path,
                                    [](std::ostream& out) {
                                        out << "half of the new";
                                        throw std::runtime_error("the writer failed");
                                    }),
                 std::runtime_error);
    EXPECT_EQ(ReadBack(path), "old contents\n") << "never half-written under the final name";
    EXPECT_EQ(CountStartingWith(::testing::TempDir(), ".files_" + std::to_string(getpid())), 0)
        << "the temporary is removed";
    WriteFileReplacing(path, std::string_view("new\n"));
    EXPECT_EQ(ReadBack(path), "new\n");
    std::remove(path.c_str());
}

TEST(Files, WriteKeepsTheModeOfTheReplacedFile) {
    const std::string path = TempPath("mode.txt");
    WriteFileReplacing(path, std::string_view("x"));
    ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
    WriteFileReplacing(path, std::string_view("y"));
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
    std::remove(path.c_str());
}

TEST(Files, FailedWritesAreErrorsWithPathAndReason) {
    // A device that is always full: the write fails with ENOSPC.
    std::string message = MessageOf([] { WriteFileReplacing("/dev/full", std::string_view("1")); });
    EXPECT_NE(message.find("/dev/full"), std::string::npos) << message;
    EXPECT_NE(message.find("No space left"), std::string::npos) << message;
    EXPECT_THROW(WriteFileReplacing("/dev/full", std::string_view("1")), FileError);
    // /proc takes no new files, even from root.
    message = MessageOf([] { WriteFileReplacing("/proc/version", std::string_view("1")); });
    EXPECT_NE(message.find("/proc/version"), std::string::npos) << message;
    EXPECT_THROW(WriteFileReplacing("/proc/version", std::string_view("1")), FileError);
    EXPECT_THROW(WriteFileReplacing("/no/such/folder/x.txt", std::string_view("1")), FileError);
    EXPECT_THROW(WriteFileReplacing(::testing::TempDir(), std::string_view("1")), FileError);
    EXPECT_THROW(WriteFileReplacing("", std::string_view("1")), UsageError);
}

TEST(Files, WritesThroughASymlinkReplaceItsTarget) {
    const std::string target = TempPath("target.txt"), link = TempPath("link.txt");
    WriteFileReplacing(target, std::string_view("a"));
    std::remove(link.c_str());
    ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
    WriteFileReplacing(link, std::string_view("b"));
    EXPECT_EQ(ReadBack(target), "b");
    struct stat st {};
    ASSERT_EQ(::lstat(link.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode));
    std::remove(link.c_str());
    std::remove(target.c_str());
    EXPECT_FALSE(Exists(target));
}

TEST(Files, ExcerptQuotesAShortPrefix) {
    EXPECT_EQ(Excerpt("short"), "short");
    const std::string long_text(100000, 'x');
    const std::string e = Excerpt(long_text, 20);
    EXPECT_LT(e.size(), 60u);
    EXPECT_NE(e.find("100000 bytes"), std::string::npos);
    // Never cut inside a UTF-8 character.
    const std::string han = "\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97";  // three 3-byte characters
    EXPECT_EQ(Excerpt(han, 4).substr(0, 3), "\xe4\xb8\xad");
    EXPECT_EQ(Excerpt(han, 4)[3], '.');
}
