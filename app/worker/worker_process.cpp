#include "worker/worker_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <system_error>

#include "files.h"  // Excerpt

extern char** environ;

namespace lessons::app {

namespace {

using Clock = std::chrono::steady_clock;

// How long a closing worker gets after `shutdown` and after SIGTERM.
constexpr std::chrono::milliseconds kShutdownGrace(1500), kTermGrace(1000);

// Waits until `running` turns false or `limit` passes; true when it did.
bool WaitUntilStopped(const std::atomic<bool>& running, std::chrono::milliseconds limit) {
    const auto deadline = Clock::now() + limit;
    while (running && Clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return !running;
}

}  // namespace

WorkerLocation FindWorker(const std::string& program_dir) {
    const std::vector<std::string> candidates = {program_dir + "/cuda-lessons-cli",
                                                 program_dir + "/../cli/cuda-lessons-cli"};
    std::string not_executable;
    for (const std::string& candidate : candidates) {
        if (access(candidate.c_str(), X_OK) == 0)
            return {{candidate, "serve"},
                    "The worker is " + candidate +
                        ": rebuild it (cmake --build build), or name another with --worker PATH."};
        if (not_executable.empty() && access(candidate.c_str(), F_OK) == 0)
            not_executable = candidate;
    }
    std::string hint = "cuda-lessons-cli was looked for next to this program (" + candidates[0] +
                       ", " + candidates[1] + ") and on PATH";
    if (!not_executable.empty())
        hint += "; " + not_executable + " exists but is not executable (chmod +x it)";
    hint +=
        ". Build it (cmake --build build) or install it beside cuda-lessons, or name it with "
        "--worker PATH.";
    return {{"/usr/bin/env", "cuda-lessons-cli", "serve"}, hint};
}

WorkerProcess::WorkerProcess(std::vector<std::string> argv, std::function<void()> wake)
    : m_argv(std::move(argv)), m_wake(std::move(wake)) {
    // A write to a worker that has just died must not kill the GUI.
    signal(SIGPIPE, SIG_IGN);
}

WorkerProcess::~WorkerProcess() {
    Stop();
}

void WorkerProcess::Stop() {
    {
        std::lock_guard<std::mutex> lock(m_out_mutex);
        if (m_to_child >= 0) {
            FlushLocked();      // what still fits (the Controller has sent `shutdown` last)
            close(m_to_child);  // end of input
            m_to_child = -1;
        }
        m_outbox.clear();
    }
    if (m_pid > 0 && !WaitUntilStopped(m_running, kShutdownGrace)) {
        kill(-m_pid, SIGTERM);  // its process group: a script's children too
        if (!WaitUntilStopped(m_running, kTermGrace)) {
            kill(-m_pid, SIGKILL);
            if (!WaitUntilStopped(m_running, kTermGrace)) m_abandon = true;
        }
    }
    if (m_reader.joinable()) m_reader.join();
    m_pid = -1;
    m_running = false;
    m_abandon = false;
}

void WorkerProcess::Kill() {
    if (m_pid > 0 && m_running) kill(-m_pid, SIGKILL);
}

bool WorkerProcess::Start(std::string* error) {
    Stop();
    int to_child[2], from_child[2];
    if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0) {
        if (error) *error = std::string("cannot create pipes: ") + std::strerror(errno);
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
    // A process group of its own: closing can signal everything the worker started, and a
    // Ctrl-C in the terminal reaches the GUI, which then ends the worker in order.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    std::vector<char*> args;
    for (std::string& a : m_argv) args.push_back(a.data());
    args.push_back(nullptr);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(to_child[0]);
    close(from_child[1]);
    if (rc != 0) {
        close(to_child[1]);
        close(from_child[0]);
        if (error) *error = "cannot start the worker '" + m_argv[0] + "': " + std::strerror(rc);
        return false;
    }
    // The GUI's end of the worker's input never blocks: a worker that stops reading fills the
    // pipe, and what does not fit waits in the outbox (WorkerProcess::Send).
    fcntl(to_child[1], F_SETFL, fcntl(to_child[1], F_GETFL) | O_NONBLOCK);
    m_pid = pid;
    {
        std::lock_guard<std::mutex> lock(m_out_mutex);
        m_to_child = to_child[1];
        m_outbox.clear();
        m_stalled = m_killed_stalled = false;
    }
    m_running = true;
    try {
        m_reader = std::thread(&WorkerProcess::ReadLoop, this, from_child[0], pid);
    } catch (const std::system_error& e) {
        // No thread to read it (a thread or memory limit): the worker is ended, not left
        // running unread, and the GUI says why, as for a worker that cannot start.
        kill(-pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        close(from_child[0]);
        {
            std::lock_guard<std::mutex> lock(m_out_mutex);
            close(m_to_child);
            m_to_child = -1;
        }
        m_pid = -1;
        m_running = false;
        if (error)
            *error = "cannot start a thread to read the worker '" + m_argv[0] + "': " + e.what();
        return false;
    }
    return true;
}

void WorkerProcess::ReadLoop(int fd, pid_t pid) {
    std::string buffer;
    bool dropping = false;  // inside a line that was too long: skip to its end
    char chunk[65536];
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        const int ready = poll(&p, 1, 100);
        if (ready < 0 && errno != EINTR) break;
        if (!FlushOrStop(pid)) {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_inbox.push_back(
                Json{{"type", "error"},
                     {"id", nullptr},
                     {"error", "the worker took no input for " +
                                   std::to_string((m_stall_limit.count() + 500) / 1000) +
                                   " s (it stopped reading its requests), so it was stopped"}});
        }
        if (ready <= 0) {
            if (m_abandon) break;  // killed, yet something still holds its output open
            continue;
        }
        const ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        buffer.append(chunk, static_cast<size_t>(n));
        if (buffer.size() > m_largest_buffer) m_largest_buffer = buffer.size();
        size_t start = 0, newline;
        std::vector<Json> parsed;
        while ((newline = buffer.find('\n', start)) != std::string::npos) {
            const std::string line = buffer.substr(start, newline - start);
            start = newline + 1;
            if (dropping) {
                dropping = false;
                continue;
            }
            Json message = Json::parse(line, nullptr, false);
            if (message.is_discarded())
                message = Json{
                    {"type", "error"},
                    {"id", nullptr},
                    {"error", "the worker wrote a line that is not JSON: " + Excerpt(line, 200)}};
            else if (!message.is_object() || message.value("type", Json()) == "worker_exit")
                // Not a message at all, or one only this reader makes: the worker's exit is
                // known from the process, never from what it writes.
                message = Json{{"type", "error"},
                               {"id", nullptr},
                               {"error", "the worker wrote a line the GUI cannot read: " +
                                             Excerpt(line, 200)}};
            parsed.push_back(std::move(message));
        }
        buffer.erase(0, start);
        if (buffer.size() > kMaxWorkerLine) {
            // No line of the protocol comes near this: drop it, say so once, read on.
            if (!dropping)
                parsed.push_back(
                    Json{{"type", "error"},
                         {"id", nullptr},
                         {"error", "the worker wrote a line longer than 4 MiB (it begins " +
                                       Excerpt(buffer, 60) + "); it was dropped"}});
            dropping = true;
            buffer.clear();
        }
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            for (Json& m : parsed) m_inbox.push_back(std::move(m));
        }
        if (m_wake && !parsed.empty()) m_wake();
    }
    close(fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    Json exit_message{{"type", "worker_exit"},
                      {"code", WIFEXITED(status) ? WEXITSTATUS(status) : -1},
                      {"signal", WIFSIGNALED(status) ? WTERMSIG(status) : 0}};
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_inbox.push_back(std::move(exit_message));
    }
    m_running = false;
    if (m_wake) m_wake();
}
bool WorkerProcess::Send(const Json& request) {
    if (!m_running) return false;
    const std::string line = request.dump() + "\n";
    std::lock_guard<std::mutex> lock(m_out_mutex);
    if (m_to_child < 0 || m_stalled) return false;
    if (m_outbox.size() + line.size() > kMaxOutbox) {
        m_stalled = true;  // the reader thread stops the worker; its exit message follows
        return false;
    }
    if (m_outbox.empty()) m_last_taken = Clock::now();
    m_outbox += line;
    FlushLocked();
    return true;
}

void WorkerProcess::FlushLocked() {
    while (!m_outbox.empty() && m_to_child >= 0) {
        const ssize_t n = write(m_to_child, m_outbox.data(), m_outbox.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // full (EAGAIN), or the worker is gone (its exit follows)
        m_outbox.erase(0, static_cast<size_t>(n));
        m_last_taken = Clock::now();
    }
}

bool WorkerProcess::FlushOrStop(pid_t pid) {
    std::lock_guard<std::mutex> lock(m_out_mutex);
    FlushLocked();
    if (m_killed_stalled) return true;
    if (!m_stalled && (m_outbox.empty() || Clock::now() - m_last_taken < m_stall_limit))
        return true;
    // Its input has been full for too long: it is stuck (or not a worker). Its process group
    // is killed; end of output and its exit message follow, and the Controller replaces it.
    m_stalled = true;
    m_killed_stalled = true;
    kill(-pid, SIGKILL);
    return false;
}

std::vector<Json> WorkerProcess::Drain() {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::vector<Json> out;
    out.swap(m_inbox);
    return out;
}

}  // namespace lessons::app
