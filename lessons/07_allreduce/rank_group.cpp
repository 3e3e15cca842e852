#include "rank_group.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "errors.h"
#include "files.h"

extern char** environ;

namespace lessons::allreduce {
namespace {

constexpr size_t kErrKeep = 2000;     // bytes of a rank's standard error kept for messages
constexpr size_t kLineMax = 1 << 20;  // an answer longer than this is a broken rank

std::string Trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return s;
}

// The last few lines of what a rank wrote on standard error, for a message.
std::string ErrTail(const std::string& err) {
    std::string t = Trimmed(err);
    if (t.empty()) return {};
    size_t lines = 0, at = t.size();
    while (at > 0 && lines < 4) {
        at = t.rfind('\n', at - 1);
        if (at == std::string::npos) {
            at = 0;
            break;
        }
        ++lines;
    }
    std::string tail = t.substr(at == 0 ? 0 : at + 1);
    for (char& c : tail)
        if (c == '\n') c = '|';
    return "; its last output: " + tail;
}

void CloseFd(int& fd) {
    if (fd >= 0) close(fd);
    fd = -1;
}

}  // namespace

RankGroup::RankGroup(std::vector<RankSpec> ranks, std::chrono::milliseconds timeout,
                     const std::atomic<bool>* cancel)
    : m_timeout(timeout), m_cancel(cancel) {
    m_ranks.resize(ranks.size());
    for (size_t i = 0; i < ranks.size(); ++i) m_ranks[i].spec = std::move(ranks[i]);
    for (size_t i = 0; i < m_ranks.size(); ++i) {
        try {
            Start(m_ranks[i]);
        } catch (...) {
            Stop(std::chrono::milliseconds(0));
            throw;
        }
    }
}

RankGroup::~RankGroup() {
    Stop();
}

std::string RankGroup::Name(int rank) const {
    const Rank& r = m_ranks[size_t(rank)];
    std::string name = "rank " + std::to_string(rank) + " (";
    if (!r.spec.where.empty()) name += r.spec.where + ", ";
    return name + "pid " + std::to_string(r.pid) + ")";
}

void RankGroup::Start(Rank& r) {
    if (r.spec.argv.empty()) throw std::logic_error("a rank without a program");
    // Everything the child needs is made before fork(): after it, only async-signal-safe calls.
    // NAME=VALUE sets or replaces; a bare NAME removes it from the environment.
    auto name_of = [](const std::string& e) { return e.substr(0, e.find('=')); };
    std::vector<std::string> env_strings;
    for (char** e = environ; e && *e; ++e) {
        const std::string entry = *e;
        const std::string name = name_of(entry);
        const bool replaced = std::any_of(r.spec.env.begin(), r.spec.env.end(),
                                          [&](const std::string& s) { return name_of(s) == name; });
        if (!replaced) env_strings.push_back(entry);
    }
    for (const std::string& s : r.spec.env)
        if (s.find('=') != std::string::npos) env_strings.push_back(s);
    std::vector<char*> argv, envp;
    for (std::string& a : r.spec.argv) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (std::string& e : env_strings) envp.push_back(e.data());
    envp.push_back(nullptr);

    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        throw RankError(int(&r - m_ranks.data()),
                        std::string("cannot make a socket for a rank: ") + std::strerror(errno));
    int ep[2];
    if (pipe2(ep, O_CLOEXEC) != 0) {
        close(sv[0]);
        close(sv[1]);
        throw RankError(int(&r - m_ranks.data()),
                        std::string("cannot make a pipe for a rank: ") + std::strerror(errno));
    }
    const pid_t pid = fork();
    if (pid == 0) {
        // The child: its own process group (so the group can be ended as one, children too),
        // the socket as standard input and output, the pipe as standard error, default signal
        // handling (ignored signals stay ignored across exec), nothing else open.
        setpgid(0, 0);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        dup2(sv[1], 0);
        dup2(sv[1], 1);
        dup2(ep[1], 2);
        if (syscall(SYS_close_range, 3u, ~0u, 0) != 0)
            for (int fd = 3; fd < 4096; ++fd) close(fd);
        execvpe(argv[0], argv.data(), envp.data());
        const char* what = "cannot start the rank's program: ";
        ssize_t ignored = write(2, what, strlen(what));
        ignored = write(2, argv[0], strlen(argv[0]));
        const char* why = strerror(errno);
        ignored = write(2, ": ", 2);
        ignored = write(2, why, strlen(why));
        ignored = write(2, "\n", 1);
        (void)ignored;
        _exit(127);
    }
    close(sv[1]);
    close(ep[1]);
    if (pid < 0) {
        close(sv[0]);
        close(ep[0]);
        throw RankError(int(&r - m_ranks.data()),
                        std::string("cannot start a rank (fork): ") + std::strerror(errno));
    }
    setpgid(pid, pid);  // also here: whichever of the two runs first
    r.pid = pid;
    r.fd = sv[0];
    r.err_fd = ep[0];
    fcntl(r.fd, F_SETFL, fcntl(r.fd, F_GETFL) | O_NONBLOCK);
    fcntl(r.err_fd, F_SETFL, fcntl(r.err_fd, F_GETFL) | O_NONBLOCK);
}

bool RankGroup::Reap(Rank& r, bool wait) {
    if (r.exited || r.pid <= 0) return true;
    // Only looked at, not reaped (WNOWAIT): while it stays a zombie its pid, and so its process
    // group's id, cannot be given to another process, and Stop's killpg reaches only its own.
    siginfo_t info{};
    int rc;
    do {
        rc = waitid(P_PID, id_t(r.pid), &info, WEXITED | WNOWAIT | (wait ? 0 : WNOHANG));
    } while (rc < 0 && errno == EINTR);
    if (rc == 0 && info.si_pid == r.pid) {
        r.exited = true;
        r.exit_code = info.si_code == CLD_EXITED ? info.si_status : -1;
        r.signal = info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED ? info.si_status : 0;
        return true;
    }
    if (rc < 0 && errno == ECHILD) {  // reaped elsewhere: gone, how unknown
        r.exited = true;
        r.released = true;
        return true;
    }
    return false;
}

std::string RankGroup::Ended(const Rank& r) const {
    if (!r.exited) return "closed its connection";
    if (r.exit_code >= 0) return "exited with status " + std::to_string(r.exit_code);
    if (r.signal > 0) {
        const int sig = r.signal;
        const char* name = strsignal(sig);
        return "was killed by signal " + std::to_string(sig) +
               (name ? std::string(" (") + name + ")" : "");
    }
    return "ended";
}

void RankGroup::Fail(int rank, const std::string& what) {
    Rank& r = m_ranks[size_t(rank)];
    // Whatever it managed to write on standard error before it failed.
    bool closed = false;
    Drain(r, &closed);
    const std::string message = Name(rank) + " " + what + ErrTail(r.err);
    // The others may be waiting for it inside NCCL for ever: the run ends here, every rank with
    // it.
    Stop(std::chrono::milliseconds(200));
    throw RankError(rank, message);
}

void RankGroup::Drain(Rank& r, bool* closed) {
    char buf[65536];
    for (int* fd : {&r.fd, &r.err_fd}) {
        while (*fd >= 0) {
            const ssize_t n = read(*fd, buf, sizeof buf);
            if (n > 0) {
                if (fd == &r.fd) {
                    r.in.append(buf, size_t(n));
                } else {
                    // Passed on (NCCL_DEBUG's lines, warnings), and its end kept for messages.
                    for (ssize_t done = 0; done < n;) {
                        const ssize_t w = write(STDERR_FILENO, buf + done, size_t(n - done));
                        if (w <= 0 && errno != EINTR) break;
                        if (w > 0) done += w;
                    }
                    r.err.append(buf, size_t(n));
                    if (r.err.size() > 2 * kErrKeep) r.err.erase(0, r.err.size() - kErrKeep);
                }
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            if (n == 0) {
                if (fd == &r.fd) *closed = true;
                CloseFd(*fd);
            }
            break;  // EAGAIN, or closed
        }
    }
}

void RankGroup::WaitLines(const std::vector<int>& want) {
    const auto deadline = std::chrono::steady_clock::now() + m_timeout;
    for (;;) {
        std::vector<pollfd> fds;
        std::vector<int> owner;
        bool all = true;
        for (int i : want) {
            Rank& r = m_ranks[size_t(i)];
            // A rank that answered an error is named at once: the others may be waiting for it.
            if (r.in.rfind("error ", 0) == 0 && r.in.find('\n') != std::string::npos)
                Fail(i, "failed: " + Trimmed(r.in.substr(6, r.in.find('\n') - 6)));
        }
        for (int i : want) {
            Rank& r = m_ranks[size_t(i)];
            if (r.in.find('\n') != std::string::npos) continue;
            if (r.in.size() > kLineMax)
                Fail(i, "sent an answer longer than 1 MiB without a line break");
            all = false;
            if (r.fd < 0) {
                for (int t = 0; t < 50 && !Reap(r, false); ++t)
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                Fail(i, Ended(r) + " before it answered");
            }
            fds.push_back({r.fd, POLLIN, 0});
            owner.push_back(i);
            if (r.err_fd >= 0) {
                fds.push_back({r.err_fd, POLLIN, 0});
                owner.push_back(i);
            }
        }
        if (all) return;
        if (m_cancel && m_cancel->load()) {
            Stop(std::chrono::milliseconds(200));
            throw Cancelled();
        }
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline) {
            for (int i : want)
                if (m_ranks[size_t(i)].in.find('\n') == std::string::npos)
                    Fail(i, "did not answer in " +
                                std::to_string(
                                    std::chrono::duration_cast<std::chrono::seconds>(m_timeout)
                                        .count()) +
                                " s (CUDA_LESSONS_RANK_TIMEOUT sets the limit)");
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
        const int wait = int(std::clamp<long long>(left.count(), 1, 100));
        const int n = poll(fds.data(), fds.size(), wait);
        if (n < 0 && errno != EINTR)
            throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
        for (size_t k = 0; k < fds.size(); ++k) {
            if (!fds[k].revents) continue;
            Rank& r = m_ranks[size_t(owner[k])];
            bool closed = false;
            Drain(r, &closed);
            if (closed && r.in.find('\n') == std::string::npos) {
                // Its end of the socket closed: it exited or was killed. Reap it to say which.
                for (int t = 0; t < 50 && !Reap(r, false); ++t)
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                Fail(owner[k], Ended(r) + " before it answered");
            }
        }
    }
}

void RankGroup::Send(int rank, const std::string& line) {
    Rank& r = m_ranks[size_t(rank)];
    if (m_stopped || r.fd < 0) Fail(rank, Ended(r));
    const std::string data = line + "\n";
    size_t sent = 0;
    const auto deadline = std::chrono::steady_clock::now() + m_timeout;
    while (sent < data.size()) {
        const ssize_t n = send(r.fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n > 0) {
            sent += size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (std::chrono::steady_clock::now() > deadline)
                Fail(rank, "does not read its requests");
            pollfd p{r.fd, POLLOUT, 0};
            poll(&p, 1, 100);
            continue;
        }
        Reap(r, false);
        Fail(rank, Ended(r) + " (a request could not be sent: " + std::strerror(errno) + ")");
    }
}

void RankGroup::SendAll(const std::string& line) {
    for (int i = 0; i < size(); ++i) Send(i, line);
}

std::string RankGroup::Receive(int rank) {
    WaitLines({rank});
    Rank& r = m_ranks[size_t(rank)];
    const size_t at = r.in.find('\n');
    std::string line = Trimmed(r.in.substr(0, at));
    r.in.erase(0, at + 1);
    if (line.rfind("error ", 0) == 0) Fail(rank, "failed: " + line.substr(6));
    return line;
}

std::vector<std::string> RankGroup::ReceiveAll() {
    std::vector<int> all(m_ranks.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = int(i);
    WaitLines(all);
    std::vector<std::string> lines;
    for (int i : all) lines.push_back(Receive(i));
    return lines;
}

void RankGroup::Stop(std::chrono::milliseconds grace) {
    if (m_stopped) return;
    m_stopped = true;
    for (Rank& r : m_ranks)
        if (r.fd >= 0 && !r.exited) send(r.fd, "quit\n", 5, MSG_NOSIGNAL | MSG_DONTWAIT);
    const auto deadline = std::chrono::steady_clock::now() + grace;
    for (;;) {
        bool all = true;
        for (Rank& r : m_ranks) all = Reap(r, false) && all;
        if (all || std::chrono::steady_clock::now() >= deadline) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    // The group of each: the rank if it is still there, and whatever it started. Every rank
    // is still running or a zombie here (none reaped yet), so each id is still its own.
    for (Rank& r : m_ranks)
        if (r.pid > 0 && !r.released) killpg(r.pid, SIGKILL);
    for (Rank& r : m_ranks) {
        if (r.pid > 0 && !r.released) {
            int status = 0;
            pid_t got;
            do {
                got = waitpid(r.pid, &status, 0);
            } while (got < 0 && errno == EINTR);
            if (!r.exited && got == r.pid) {
                r.exited = true;
                r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
                r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
            }
            r.released = true;
        }
        CloseFd(r.fd);
        CloseFd(r.err_fd);
    }
}

std::chrono::milliseconds RankTimeout(std::chrono::milliseconds fallback, std::string* note) {
    const char* v = std::getenv("CUDA_LESSONS_RANK_TIMEOUT");
    if (!v || !*v) return fallback;
    char* end = nullptr;
    errno = 0;
    const long long s = std::strtoll(v, &end, 10);
    if (errno || end == v || *end || s < 1 || s > 86400) {
        if (note)
            *note = "CUDA_LESSONS_RANK_TIMEOUT is not a number of seconds from 1 to 86400; " +
                    std::to_string(fallback.count() / 1000) + " s is used";
        return fallback;
    }
    return std::chrono::milliseconds(s * 1000);
}

std::vector<std::string> RankHosts() {
    const char* v = std::getenv("CUDA_LESSONS_HOSTS");
    std::vector<std::string> hosts;
    if (!v) return hosts;
    const std::string all = v;
    if (all.size() > 16384) throw UsageError("CUDA_LESSONS_HOSTS is longer than 16 KiB");
    size_t at = 0;
    while (at <= all.size()) {
        size_t comma = all.find(',', at);
        if (comma == std::string::npos) comma = all.size();
        std::string h = all.substr(at, comma - at);
        while (!h.empty() && h.front() == ' ') h.erase(h.begin());
        while (!h.empty() && h.back() == ' ') h.pop_back();
        at = comma + 1;
        if (h.empty()) {
            if (comma == all.size() && !hosts.empty()) break;
            if (all.find_first_not_of(" ,") == std::string::npos) return {};
            throw UsageError(
                "CUDA_LESSONS_HOSTS has an empty entry: give host names separated "
                "by commas, e.g. nodeA,nodeB");
        }
        // [user@]host, as ssh takes it; ':' only in an IPv6 address (a port goes in
        // CUDA_LESSONS_RSH: "ssh -p 2222").
        const size_t at_sign = h.find('@');
        const std::string user = at_sign == std::string::npos ? "" : h.substr(0, at_sign);
        const std::string name = at_sign == std::string::npos ? h : h.substr(at_sign + 1);
        const auto word = [](const std::string& w, bool colon) {
            return !w.empty() && w.size() <= 253 && w.front() != '-' &&
                   std::all_of(w.begin(), w.end(), [&](unsigned char c) {
                       return std::isalnum(c) || c == '.' || c == '-' || c == '_' ||
                              (colon && c == ':');
                   });
        };
        const bool ok = word(name, true) && (at_sign == std::string::npos || word(user, false));
        if (!ok)
            throw UsageError("CUDA_LESSONS_HOSTS: '" + Excerpt(h, 60) +
                             "' is no host name ([user@]host: letters, digits, '.', '-', '_', "
                             "':' in an IPv6 address)");
        if (std::count(name.begin(), name.end(), ':') == 1)
            throw UsageError("CUDA_LESSONS_HOSTS: '" + Excerpt(h, 60) +
                             "' names a port; give the port to the remote shell instead "
                             "(CUDA_LESSONS_RSH='ssh -p PORT')");
        hosts.push_back(h);
        if (hosts.size() > 64) throw UsageError("CUDA_LESSONS_HOSTS names more than 64 hosts");
    }
    return hosts;
}

std::vector<std::string> RemoteShell() {
    const char* v = std::getenv("CUDA_LESSONS_RSH");
    std::vector<std::string> words;
    if (v && *v) {
        std::string w;
        for (const char* p = v;; ++p) {
            if (*p == ' ' || *p == '\t' || *p == '\0') {
                if (!w.empty()) words.push_back(w);
                w.clear();
                if (!*p) break;
            } else {
                w += *p;
            }
        }
    }
    if (words.empty()) words = {"ssh", "-o", "BatchMode=yes"};
    return words;
}

std::string ShellQuote(const std::string& word) {
    std::string out = "'";
    for (const char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

std::vector<std::string> RemoteCommand(const std::string& host, const std::vector<std::string>& env,
                                       const std::vector<std::string>& command) {
    std::vector<std::string> argv = RemoteShell();
    argv.push_back(host);
    std::string line = "env";
    for (const std::string& e : env)
        line += " " + ShellQuote(e.find('=') != std::string::npos ? e : "--unset=" + e);
    for (const std::string& w : command) line += " " + ShellQuote(w);
    argv.push_back(line);
    return argv;
}

bool IsThisHost(const std::string& host) {
    if (host == "localhost" || host == "127.0.0.1" || host == "::1") return true;
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return false;
    return host == name;
}

}  // namespace lessons::allreduce
