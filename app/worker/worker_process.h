// A worker as a child process speaking JSON lines over pipes, read on its own thread.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "worker/worker_link.h"

namespace lessons::app {

class WorkerProcess : public WorkerLink {
public:
    // argv[0] is the program; it is started with the remaining arguments.
    // `wake` is called on the reader thread whenever messages arrive (the GUI posts an empty
    // event so that a waiting UI thread draws them).
    explicit WorkerProcess(std::vector<std::string> argv, std::function<void()> wake = {});
    // Ends the worker within a few seconds whatever it does: closes its input, waits briefly,
    // then sends SIGTERM and finally SIGKILL to its process group.
    ~WorkerProcess() override;
    WorkerProcess(const WorkerProcess&) = delete;
    WorkerProcess& operator=(const WorkerProcess&) = delete;

    bool Start(std::string* error) override;
    bool Running() const override { return m_running; }
    // Never blocks: what the worker's input pipe cannot take now waits in an outbox that the
    // reader thread writes on. A worker that takes nothing for the stall limit (or lets the
    // outbox pass kMaxOutbox) is killed, with an error message before its exit message.
    bool Send(const Json& request) override;
    std::vector<Json> Drain() override;
    // SIGKILL to the worker's process group; the reader thread reports the exit.
    void Kill() override;
    int Pid() const override { return m_running ? static_cast<int>(m_pid) : -1; }
    // The most bytes the reader has held waiting for a line's end.
    size_t LargestBuffer() const { return m_largest_buffer; }
    // How long a worker may leave its input full before it is stopped (tests shorten it).
    void SetStallLimit(std::chrono::milliseconds limit) { m_stall_limit = limit; }

private:
    using Clock = std::chrono::steady_clock;
    void Stop();
    void ReadLoop(int fd, pid_t pid);
    // Writes what the pipe takes of the outbox now; under m_out_mutex.
    void FlushLocked();
    // On the reader thread: flushes, and kills a worker whose input stays full; false when it
    // was killed just now.
    bool FlushOrStop(pid_t pid);

    std::vector<std::string> m_argv;
    std::function<void()> m_wake;
    pid_t m_pid = -1;
    std::mutex m_out_mutex;  // the input's descriptor and the outbox
    int m_to_child = -1;
    std::string m_outbox;
    Clock::time_point m_last_taken;
    bool m_stalled = false, m_killed_stalled = false;
    std::chrono::milliseconds m_stall_limit{5000};
    std::thread m_reader;
    std::atomic<bool> m_running{false};
    std::mutex m_mutex;
    std::vector<Json> m_inbox;
    std::atomic<size_t> m_largest_buffer{0};
    std::atomic<bool> m_abandon{false};  // the reader stops waiting for the worker's output
};

// The worker program and what to tell the user if it cannot be started.
struct WorkerLocation {
    std::vector<std::string> command;  // program and arguments: `... serve`
    std::string hint;                  // where it was looked for, what to do
};
// cuda-lessons-cli next to the GUI in `program_dir` (install tree) or in ../cli (build tree),
// else on PATH (through /usr/bin/env).
WorkerLocation FindWorker(const std::string& program_dir);

// The longest line the GUI takes from a worker; a longer one is dropped with an error message.
constexpr size_t kMaxWorkerLine = size_t(4) << 20;
// The most request bytes waiting for a worker that does not read them.
constexpr size_t kMaxOutbox = size_t(1) << 20;

}  // namespace lessons::app
