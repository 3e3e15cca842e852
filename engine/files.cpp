#include "files.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <ostream>
#include <vector>

#include "errors.h"

namespace lessons {
namespace {

std::string Reason(int error) {
    return std::strerror(error);
}

const char* KindOf(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a pipe (FIFO)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// Closes a descriptor when it goes out of scope, unless released.
class Fd {
public:
    explicit Fd(int fd) : m_fd(fd) {}
    ~Fd() {
        if (m_fd >= 0) ::close(m_fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    Fd(Fd&& other) noexcept : m_fd(other.release()) {}
    Fd& operator=(Fd&& other) noexcept {
        if (this != &other) {
            if (m_fd >= 0) ::close(m_fd);
            m_fd = other.release();
        }
        return *this;
    }
    int get() const { return m_fd; }
    int release() {
        const int fd = m_fd;
        m_fd = -1;
        return fd;
    }

private:
    int m_fd;
};

// O_NONBLOCK keeps open() from waiting for a FIFO's writer; it is cleared again once the
// descriptor is known to be something we accept.
void ClearNonBlocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

// The file systems of /proc and /sys (statfs's f_type).
constexpr decltype(statfs::f_type) kProcMagic = 0x9fa0, kSysfsMagic = 0x62656572;

// Opens `path` for reading; throws unless it is a regular file.
Fd OpenRegular(const std::string& path, uint64_t* size, const std::string& what) {
    if (path.empty()) throw UsageError("the " + what + " name is empty");
    Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (fd.get() < 0) throw UsageError("cannot open " + what + " '" + path + "': " + Reason(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        throw UsageError("cannot open " + what + " '" + path + "': " + Reason(errno));
    if (!S_ISREG(st.st_mode))
        throw UsageError(what + " '" + path + "' is " + KindOf(st.st_mode) +
                         ", not a regular file: give a file stored on disk");
    // /proc and /sys files are made up as they are read: their size says 0 or 4096 whatever
    // they hold, so the data could be neither sized nor checked.
    struct statfs fs {};
    if (::fstatfs(fd.get(), &fs) == 0 && (fs.f_type == kProcMagic || fs.f_type == kSysfsMagic))
        throw UsageError(what + " '" + path + "' is " +
                         (what == "input file" ? "a kernel file" : "a file the OS kernel makes") +
                         " (" + (fs.f_type == kProcMagic ? "/proc" : "/sys") +
                         ") whose size is known only once it is read: copy it to a regular "
                         "file first");
    ClearNonBlocking(fd.get());
    if (size) *size = static_cast<uint64_t>(st.st_size);
    return Fd(fd.release());
}

// A stream buffer over a file descriptor that remembers the first failed write.
class FdStreamBuf : public std::streambuf {
public:
    explicit FdStreamBuf(int fd) : m_fd(fd), m_buffer(1 << 16) {
        setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
    }
    int error() const { return m_error; }

protected:
    int_type overflow(int_type c) override {
        if (!Drain()) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return Drain() ? 0 : -1; }

private:
    bool Drain() {
        if (m_error) return false;
        const char* p = pbase();
        size_t left = static_cast<size_t>(pptr() - pbase());
        while (left > 0) {
            const ssize_t n = ::write(m_fd, p, left);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                m_error = n < 0 ? errno : EIO;
                return false;
            }
            p += n;
            left -= static_cast<size_t>(n);
        }
        setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
        return true;
    }

    int m_fd;
    std::vector<char> m_buffer;
    int m_error = 0;
};

// Runs `write` on a stream over `fd` and checks that everything reached the descriptor.
void WriteThrough(int fd, const std::string& path,
                  const std::function<void(std::ostream&)>& write) {
    FdStreamBuf buffer(fd);
    std::ostream stream(&buffer);
    write(stream);
    stream.flush();
    if (buffer.error()) throw FileError("cannot write '" + path + "': " + Reason(buffer.error()));
    if (!stream) throw FileError("cannot write '" + path + "': the output was not fully written");
}

void CloseChecked(Fd& fd, const std::string& path) {
    if (::close(fd.release()) != 0 && errno != EINTR)
        throw FileError("cannot write '" + path + "': " + Reason(errno));
}

// The most of the target's name a temporary file's name repeats.
constexpr size_t kMaxTempStem = 200;

std::string FolderOf(const std::string& path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string NameOf(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Why writes to `fd` failed, when the failing write's errno is gone (a stream failed earlier
// and later calls reset errno): a regular file at the size limit (ulimit -f) or on a full file
// system; 0 when neither.
int LikelyWriteError(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    rlimit limit{};
    if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        uint64_t(st.st_size) >= uint64_t(limit.rlim_cur))
        return EFBIG;
    struct statfs fs {};
    if (::fstatfs(fd, &fs) == 0 && fs.f_bavail == 0) return ENOSPC;
    return 0;
}

}  // namespace

uint64_t RegularFileSize(const std::string& path, const char* what) {
    uint64_t size = 0;
    OpenRegular(path, &size, what);
    return size;
}

void ReadRegularFile(const std::string& path, char* out, uint64_t size,
                     const std::atomic<bool>* cancel, const char* what) {
    Fd fd = OpenRegular(path, nullptr, what);
    constexpr uint64_t kChunk = uint64_t(8) << 20;
    uint64_t done = 0;
    while (done < size) {
        if (cancel && cancel->load()) throw Cancelled();
        const size_t want = static_cast<size_t>(std::min(kChunk, size - done));
        const ssize_t n = ::read(fd.get(), out + done, want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw FileError("cannot read '" + path + "': " + Reason(errno));
        if (n == 0)
            throw UsageError(std::string(what) + " '" + path +
                             "' is shorter than when it was measured (" + std::to_string(done) +
                             " of " + std::to_string(size) +
                             " bytes): it changed while being read");
        done += static_cast<uint64_t>(n);
    }
}

void WriteFileReplacing(const std::string& path, const std::function<void(std::ostream&)>& write) {
    if (path.empty()) throw UsageError("the output file name is empty");
    std::string target = path;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        // Replace the file the link points to, not the link; a link that leads nowhere (a
        // dangling link, a loop) is neither followed nor replaced.
        std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr),
                                                         &std::free);
        const int error = errno;
        if (real) {
            target = real.get();
        } else if (struct stat through{}; ::stat(path.c_str(), &through) != 0) {
            throw FileError("cannot write '" + path + "': it is a symbolic link that leads to no " +
                            "file (" + Reason(error) + ")");
        }  // else a link with no path to resolve (/dev/stdout to a pipe): written through it
    }
    const bool exists = ::stat(target.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        throw FileError("cannot write '" + path + "': it is a directory");
    // This program's own standard output or error (/dev/stdout redirected to a file): written
    // in turn through that descriptor, never replaced, or what else goes there would be lost.
    for (const int standard : {STDOUT_FILENO, STDERR_FILENO}) {
        struct stat own {};
        if (!exists || ::fstat(standard, &own) != 0 || own.st_dev != st.st_dev ||
            own.st_ino != st.st_ino)
            continue;
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
        WriteThrough(standard, path, write);
        return;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        // A terminal, a pipe or a device: there is no file to replace, write in place.
        Fd fd(::open(target.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
        if (fd.get() < 0) throw FileError("cannot write '" + path + "': " + Reason(errno));
        ClearNonBlocking(fd.get());
        WriteThrough(fd.get(), path, write);
        CloseChecked(fd, path);
        return;
    }
    // A file its owner made read-only (or one this user may not write) is theirs: never
    // replaced, though the folder would allow a rename over it. The mode bits are read too, as
    // root's access() says yes to every file.
    if (exists && (::access(target.c_str(), W_OK) != 0 || (st.st_mode & 0222) == 0))
        throw FileError("'" + Excerpt(path) +
                        "' is read-only: it is not replaced (make it writable, or choose "
                        "another path)");

    static std::atomic<unsigned> counter{0};
    const std::string folder = FolderOf(target);
    std::string temp;
    Fd fd(-1);
    for (int attempt = 0; attempt < 100 && fd.get() < 0; ++attempt) {
        // A name of up to 255 bytes must still leave room for the temporary's own: the
        // temporary keeps the start of the name (cut at a UTF-8 character boundary).
        std::string name = NameOf(target);
        if (name.size() > kMaxTempStem) {
            size_t cut = kMaxTempStem;
            while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
            name.resize(cut);
        }
        temp = folder + "/." + name + ".tmp-" + std::to_string(::getpid()) + "-" +
               std::to_string(counter++);
        fd = Fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0666));
        if (fd.get() < 0 && errno != EEXIST) break;
    }
    if (fd.get() < 0)
        throw FileError("cannot write '" + path + "': cannot create a file in '" + folder +
                        "': " + Reason(errno));
    try {
        if (exists) ::fchmod(fd.get(), st.st_mode & 07777);  // keep the replaced file's mode
        WriteThrough(fd.get(), path, write);
        if (::fsync(fd.get()) != 0 && errno != EINVAL && errno != EROFS)
            throw FileError("cannot write '" + path + "': " + Reason(errno));
        CloseChecked(fd, path);
        if (::rename(temp.c_str(), target.c_str()) != 0)
            throw FileError("cannot write '" + path + "': " + Reason(errno));
    } catch (...) {
        if (fd.get() >= 0) ::close(fd.release());
        ::unlink(temp.c_str());
        throw;
    }
}

void CheckCanWrite(const std::string& path) {
    if (path.empty()) throw UsageError("the output file name is empty");
    const auto fail = [&](const std::string& why) {
        throw FileError("cannot write '" + Excerpt(path) + "': " + why);
    };
    if (path.size() >= PATH_MAX) fail("the path is longer than the system allows");
    for (size_t at = 0; at < path.size();) {
        size_t end = path.find('/', at);
        if (end == std::string::npos) end = path.size();
        if (end - at > NAME_MAX) fail("a name in the path is longer than the system allows");
        at = end + 1;
    }
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
        if (S_ISLNK(st.st_mode) && ::stat(path.c_str(), &st) != 0)
            fail("it is a symbolic link that leads to no file (" + Reason(errno) + ")");
        if (S_ISDIR(st.st_mode)) fail("it is a directory");
        if (!S_ISREG(st.st_mode)) return;  // a terminal, a pipe: written in place
        if (::access(path.c_str(), W_OK) != 0 || (st.st_mode & 0222) == 0)
            fail("it is read-only, and is not replaced");
    }
    // The file is written beside itself and renamed: its folder, or the nearest one above that
    // exists (the rest are created), must be a folder this user can write.
    std::string folder = FolderOf(path);
    for (int depth = 0; depth < 4096; ++depth) {
        if (::stat(folder.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode)) fail("'" + Excerpt(folder) + "' is not a folder");
            if (::access(folder.c_str(), W_OK | X_OK) != 0)
                fail("cannot create a file in '" + Excerpt(folder) + "': " + Reason(errno));
            return;
        }
        if (errno == ENOTDIR) {  // a file on the way: say which
            std::string up = FolderOf(folder);
            while (up != "/" && up != "." && ::stat(up.c_str(), &st) != 0) up = FolderOf(up);
            fail("'" + Excerpt(up) + "' is not a folder");
        }
        if (errno != ENOENT) fail("'" + Excerpt(folder) + "': " + Reason(errno));
        if (folder == "/" || folder == ".") return;
        folder = FolderOf(folder);
    }
}

void WriteNewFile(const std::string& path, std::string_view contents) {
    if (path.empty()) throw UsageError("the output file name is empty");
    // O_EXCL: anything at the path (a file, however unreadable, a FIFO, a link, even a dangling
    // one) is refused without being opened, so nothing blocks and nothing is written over.
    Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
                 0666));
    if (fd.get() < 0) {
        if (errno == EEXIST)
            throw UsageError("'" + Excerpt(path) +
                             "' exists: it is not written over, as it may hold your work; give "
                             "another path or remove it");
        throw FileError("cannot write '" + Excerpt(path) + "': " + Reason(errno));
    }
    try {
        WriteThrough(fd.get(), path, [contents](std::ostream& out) {
            out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
        });
        if (::fsync(fd.get()) != 0 && errno != EINVAL && errno != EROFS)
            throw FileError("cannot write '" + path + "': " + Reason(errno));
        CloseChecked(fd, path);
    } catch (...) {
        if (fd.get() >= 0) ::close(fd.release());
        ::unlink(path.c_str());
        throw;
    }
}

void WriteFileReplacing(const std::string& path, std::string_view contents) {
    WriteFileReplacing(path, [contents](std::ostream& out) {
        out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    });
}

void FlushStandardOutput() {
    errno = 0;
    std::cout.flush();  // synchronised with stdio, this is where a write usually fails
    const bool stream_ok = static_cast<bool>(std::cout);
    int error = errno;
    const bool flushed = std::fflush(stdout) == 0;
    if (!error) error = errno;
    if (flushed && stream_ok && !std::ferror(stdout)) return;
    if (!error) error = LikelyWriteError(STDOUT_FILENO);
    throw FileError("cannot write to standard output: " +
                    (error ? Reason(error) : std::string("part of the output was lost")));
}

std::string Excerpt(std::string_view text, size_t max_bytes) {
    if (text.size() <= max_bytes) return std::string(text);
    size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size()) + " bytes)";
}

std::string UserDataPath(const std::string& name,
                         const std::function<const char*(const char*)>& getenv_fn) {
    auto env = [&](const char* var) -> std::string {
        const char* v = getenv_fn ? getenv_fn(var) : std::getenv(var);
        return v ? std::string(v) : std::string();
    };
    if (const std::string data = env("XDG_DATA_HOME"); !data.empty() && data.front() == '/')
        return data + "/cuda-lessons/" + name;
    if (const std::string home = env("HOME"); !home.empty() && home.front() == '/')
        return home + "/.local/share/cuda-lessons/" + name;
    return "";
}

}  // namespace lessons
