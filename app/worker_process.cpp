#include "worker_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace lessons::app {

WorkerProcess::WorkerProcess(std::vector<std::string> argv, std::function<void()> wake)
    : m_argv(std::move(argv)), m_wake(std::move(wake)) {
    // A write to a worker that has just died must not kill the GUI.
    signal(SIGPIPE, SIG_IGN);
}

WorkerProcess::~WorkerProcess() {
    Stop();
}

void WorkerProcess::Stop() {
    if (m_to_child >= 0) {
        close(m_to_child);  // end of input: the worker finishes and exits
        m_to_child = -1;
    }
    if (m_pid > 0 && m_running) kill(m_pid, SIGTERM);
    if (m_reader.joinable()) m_reader.join();
    m_pid = -1;
    m_running = false;
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
    std::vector<char*> args;
    for (std::string& a : m_argv) args.push_back(a.data());
    args.push_back(nullptr);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(to_child[0]);
    close(from_child[1]);
    if (rc != 0) {
        close(to_child[1]);
        close(from_child[0]);
        if (error) *error = "cannot start the worker '" + m_argv[0] + "': " + std::strerror(rc);
        return false;
    }
    m_pid = pid;
    m_to_child = to_child[1];
    m_running = true;
    m_reader = std::thread(&WorkerProcess::ReadLoop, this, from_child[0], pid);
    return true;
}

void WorkerProcess::ReadLoop(int fd, pid_t pid) {
    std::string buffer;
    char chunk[65536];
    for (;;) {
        const ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        buffer.append(chunk, static_cast<size_t>(n));
        size_t start = 0, newline;
        std::vector<Json> parsed;
        while ((newline = buffer.find('\n', start)) != std::string::npos) {
            const std::string line = buffer.substr(start, newline - start);
            start = newline + 1;
            Json message = Json::parse(line, nullptr, false);
            if (message.is_discarded())
                message = Json{
                    {"type", "error"},
                    {"id", nullptr},
                    {"error", "the worker wrote a line that is not JSON: " + line.substr(0, 200)}};
            parsed.push_back(std::move(message));
        }
        buffer.erase(0, start);
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
    if (m_to_child < 0 || !m_running) return false;
    const std::string line = request.dump() + "\n";
    size_t written = 0;
    while (written < line.size()) {
        const ssize_t n = write(m_to_child, line.data() + written, line.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        written += static_cast<size_t>(n);
    }
    return true;
}

std::vector<Json> WorkerProcess::Drain() {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::vector<Json> out;
    out.swap(m_inbox);
    return out;
}

}  // namespace lessons::app
