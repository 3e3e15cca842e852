// Ranks: the processes of a multi-process step, one per GPU, started and watched by the process
// that runs the lesson (the CLI or the GUI's worker). Each rank is a program that reads one
// request per line on its standard input and answers one line on its standard output (both ends
// of a local socket pair, so a rank that has died makes a write fail instead of killing the
// caller with SIGPIPE); what it prints on standard error is passed on to the caller's and its
// last lines kept for the message when it fails. A rank on another machine is the same program
// started through a remote shell (ssh): the lines travel over the shell's connection.
//
// Every failure names the rank: one that exits or is killed ("rank 1 (GPU 1, pid 4242) was
// killed by signal 9"), one that does not answer in time, one that answers "error <message>".
// The group ends every rank it started, and anything they started, when it is destroyed: "quit",
// then SIGKILL to their process group after a grace period; none is left behind.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

namespace lessons::allreduce {

struct RankSpec {
    std::vector<std::string> argv;  // the program and its arguments (argv[0] a path or a name
                                    // found on PATH)
    std::vector<std::string> env;   // NAME=VALUE added to (or replacing in) the environment;
                                    // a bare NAME removed from it
    std::string where;              // how messages name it besides its number: "GPU 1"
};

// A rank failed (died, hung, answered an error): the message names it.
class RankError : public std::runtime_error {
public:
    RankError(int rank, const std::string& message) : std::runtime_error(message), m_rank(rank) {}
    int rank() const { return m_rank; }

private:
    int m_rank;
};

class RankGroup {
public:
    // Starts every rank. `timeout`: how long one answer may take. `cancel` (may be null): when
    // set, a wait stops and lessons::Cancelled is thrown. Throws RankError when a program cannot
    // be started.
    RankGroup(std::vector<RankSpec> ranks, std::chrono::milliseconds timeout,
              const std::atomic<bool>* cancel = nullptr);
    ~RankGroup();
    RankGroup(const RankGroup&) = delete;
    RankGroup& operator=(const RankGroup&) = delete;

    int size() const { return static_cast<int>(m_ranks.size()); }
    pid_t pid(int rank) const { return m_ranks[size_t(rank)].pid; }
    void set_timeout(std::chrono::milliseconds timeout) { m_timeout = timeout; }

    // One line (no line break inside) to one rank, or to every rank.
    void Send(int rank, const std::string& line);
    void SendAll(const std::string& line);
    // The next line of one rank; of every rank (waiting on all at once, so the first to fail is
    // the one named). An answer "error <message>" throws RankError with that message.
    std::string Receive(int rank);
    std::vector<std::string> ReceiveAll();

    // "quit" to every rank, then waits up to `grace` before SIGKILL; reaps every one.
    // Idempotent; the destructor calls it.
    void Stop(std::chrono::milliseconds grace = std::chrono::milliseconds(2000));

    // "rank 1 (GPU 1, pid 4242)".
    std::string Name(int rank) const;

private:
    struct Rank {
        RankSpec spec;
        pid_t pid = -1;
        int fd = -1;            // requests out, answers in
        int err_fd = -1;        // its standard error
        std::string in;         // read, not yet a whole line
        std::string err;        // the end of its standard error
        bool exited = false;    // it has ended (a zombie until released)
        bool released = false;  // reaped: its pid may belong to another process now
        int exit_code = -1;     // when it exited
        int signal = 0;         // when a signal ended it
    };
    void Start(Rank& r);
    [[noreturn]] void Fail(int rank, const std::string& what);
    bool Reap(Rank& r, bool wait);
    std::string Ended(const Rank& r) const;
    void Drain(Rank& r, bool* closed);
    // Waits until every rank in `want` has a whole line; returns false on timeout.
    void WaitLines(const std::vector<int>& want);

    std::vector<Rank> m_ranks;
    std::chrono::milliseconds m_timeout;
    const std::atomic<bool>* m_cancel;
    pid_t m_group = 0;  // the ranks' process group (the first rank's pid)
    bool m_stopped = false;
};

// How long one answer of a rank may take: CUDA_LESSONS_RANK_TIMEOUT seconds (1 to 86400) when
// set and valid, else `fallback`; `note` gets why a set value was not used.
std::chrono::milliseconds RankTimeout(std::chrono::milliseconds fallback, std::string* note);

// The hosts of a run across machines: CUDA_LESSONS_HOSTS, "nodeA,nodeB" (names or addresses,
// letters, digits, '.', '-', '_', ':' for IPv6), each running the same number of ranks. Empty
// when unset (this machine only). Throws UsageError naming the bad entry.
std::vector<std::string> RankHosts();
// The caller's NCCL variables that every rank gets, on any host: the network and the log.
inline constexpr const char* kPassedNcclVariables[] = {
    "NCCL_SOCKET_IFNAME", "NCCL_IB_HCA", "NCCL_DEBUG", "NCCL_DEBUG_SUBSYS", "NCCL_NET_GDR_LEVEL"};

// The remote shell that starts a rank on another host: CUDA_LESSONS_RSH split at spaces and
// tabs, else "ssh -o BatchMode=yes".
std::vector<std::string> RemoteShell();
// `word` quoted for a POSIX shell: in single quotes, each ' written '\''. Nothing in it is
// expanded or split by the shell that reads it.
std::string ShellQuote(const std::string& word);
// The argv that starts `command` (a program and its arguments) on `host` through the remote
// shell, under `env` (NAME=VALUE settings; a bare NAME is unset). ssh joins its arguments with
// spaces into one line that the remote user's shell parses, so the whole command is one argument
// in which every word is quoted: no value of the environment and no path is ever parsed there.
std::vector<std::string> RemoteCommand(const std::string& host, const std::vector<std::string>& env,
                                       const std::vector<std::string>& command);
// True for a host name that means this machine ("localhost", "127.0.0.1", "::1", or its own
// host name).
bool IsThisHost(const std::string& host);

}  // namespace lessons::allreduce
