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
#include "shell.h"

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

// A file its owner made read-only is theirs: never replaced, though the folder allows a rename
// over it (mode bits are read too: root's access() says yes to everything).
TEST(Files, AReadOnlyFileIsNotReplaced) {
    const std::string path = TempPath("readonly.txt");
    WriteFileReplacing(path, std::string_view("mine"));
    ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
    const std::string message =
        MessageOf([&] { WriteFileReplacing(path, std::string_view("theirs")); });
    EXPECT_NE(message.find("read-only"), std::string::npos) << message;
    EXPECT_EQ(ReadBack(path), "mine");
    EXPECT_NE(MessageOf([&] { CheckCanWrite(path); }).find("read-only"), std::string::npos);
    ::chmod(path.c_str(), 0644);
    std::remove(path.c_str());
}

// A new file is written only where nothing is: an unreadable file, a FIFO (without blocking) or
// a dangling link is refused as it is, untouched.
TEST(Files, WriteNewFileRefusesWhateverIsThereWithoutOpeningIt) {
    const std::string fifo = TempPath("new.fifo");
    std::remove(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(MessageOf([&] { WriteNewFile(fifo, "x"); }).find("exists"), std::string::npos);
    std::remove(fifo.c_str());
    const std::string locked = TempPath("new.locked");
    std::ofstream(locked) << "my work";
    ASSERT_EQ(::chmod(locked.c_str(), 0), 0);
    EXPECT_NE(MessageOf([&] { WriteNewFile(locked, "x"); }).find("exists"), std::string::npos);
    ::chmod(locked.c_str(), 0644);
    EXPECT_EQ(ReadBack(locked), "my work");
    std::remove(locked.c_str());
    const std::string dangling = TempPath("new.link");
    std::remove(dangling.c_str());
    ASSERT_EQ(::symlink("/nonexistent/target", dangling.c_str()), 0);
    EXPECT_NE(MessageOf([&] { WriteNewFile(dangling, "x"); }).find("exists"), std::string::npos);
    EXPECT_NE(MessageOf([&] { CheckCanWrite(dangling); }).find("leads to no file"),
              std::string::npos);
    std::remove(dangling.c_str());
    const std::string fresh = TempPath("new.txt");
    std::remove(fresh.c_str());
    WriteNewFile(fresh, "start");
    EXPECT_EQ(ReadBack(fresh), "start");
    std::remove(fresh.c_str());
}

// CheckCanWrite says before any work what the write would find: no folder, a file where a
// folder should be, a name too long.
TEST(Files, CheckCanWriteFindsWhatTheWriteWouldFail) {
    const std::string file = TempPath("plain");
    std::ofstream(file) << "x";
    EXPECT_NE(MessageOf([&] { CheckCanWrite(file + "/a/b/tunings.json"); }).find("not a folder"),
              std::string::npos);
    EXPECT_NE(MessageOf([&] { CheckCanWrite(::testing::TempDir()); }).find("directory"),
              std::string::npos);
    EXPECT_NE(MessageOf([&] {
                  CheckCanWrite("/tmp/" + std::string(4000, 'd') + "/t.json");
              }).find("longer than the system allows"),
              std::string::npos);
    EXPECT_EQ(MessageOf([&] { CheckCanWrite(TempPath("new-folder/deeper/t.json")); }),
              "(no exception)");
    std::remove(file.c_str());
}

// exercise --write: a FIFO, an unreadable file of the student's and a read-only one are refused
// at once (exit 2) and left as they were.
TEST(Files, ExerciseWriteNeverBlocksOrOverwrites) {
    const std::string dir = MakeTempDir("exercise-write");
    const std::string fifo = dir + "/p.cu";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const Output out = Cli("exercise gemv/warp-per-row --write " + fifo);
    EXPECT_EQ(out.code, 2) << out.text;
    EXPECT_NE(out.text.find("exists"), std::string::npos) << out.text;
    const std::string mine = dir + "/mine.cu";
    std::ofstream(mine) << "my work";
    ASSERT_EQ(::chmod(mine.c_str(), 0), 0);
    EXPECT_EQ(Cli("exercise gemv/warp-per-row --write " + mine).code, 2);
    ::chmod(mine.c_str(), 0644);
    EXPECT_EQ(ReadBack(mine), "my work");
    std::system(("rm -rf '" + dir + "'").c_str());
}

// tune with a read-only tunings.json, or a file where the data folder should be: said before
// anything is measured (exit 2), the file unchanged.
TEST(Files, TuneChecksWhereItSavesBeforeMeasuring) {
    const std::string dir = MakeTempDir("tune-save");
    const std::string data = dir + "/data";
    ASSERT_EQ(::mkdir(data.c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((data + "/cuda-lessons").c_str(), 0755), 0);
    const std::string tunings = data + "/cuda-lessons/tunings.json";
    std::ofstream(tunings) << "[]\n";
    ASSERT_EQ(::chmod(tunings.c_str(), 0444), 0);
    const auto tune = [](const std::string& data_home) {
        return Sh("XDG_DATA_HOME='" + data_home + "' " + CliPath() +
                  " tune split/openmp --size 1MiB 2>&1");
    };
    const Output ro = tune(data);
    EXPECT_EQ(ro.code, 2) << ro.text;
    EXPECT_NE(ro.text.find("read-only"), std::string::npos) << ro.text;
    EXPECT_EQ(ReadBack(tunings), "[]\n");
    const std::string file = dir + "/a-file";
    std::ofstream(file) << "x";
    const Output not_folder = tune(file);
    EXPECT_EQ(not_folder.code, 2) << not_folder.text;
    EXPECT_NE(not_folder.text.find("not a folder"), std::string::npos) << not_folder.text;
    ::chmod(tunings.c_str(), 0644);
    std::system(("rm -rf '" + dir + "'").c_str());
}
