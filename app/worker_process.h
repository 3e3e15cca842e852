// A worker as a child process speaking JSON lines over pipes, read on its own thread.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "worker_link.h"

namespace lessons::app {

class WorkerProcess : public WorkerLink {
public:
    // argv[0] is the program; it is started with the remaining arguments.
    // `wake` is called on the reader thread whenever messages arrive (the GUI posts an empty
    // event so that a waiting UI thread draws them).
    explicit WorkerProcess(std::vector<std::string> argv, std::function<void()> wake = {});
    ~WorkerProcess() override;
    WorkerProcess(const WorkerProcess&) = delete;
    WorkerProcess& operator=(const WorkerProcess&) = delete;

    bool Start(std::string* error) override;
    bool Running() const override { return m_running; }
    bool Send(const Json& request) override;
    std::vector<Json> Drain() override;

private:
    void Stop();
    void ReadLoop(int fd, pid_t pid);

    std::vector<std::string> m_argv;
    std::function<void()> m_wake;
    pid_t m_pid = -1;
    int m_to_child = -1;
    std::thread m_reader;
    std::atomic<bool> m_running{false};
    std::mutex m_mutex;
    std::vector<Json> m_inbox;
};

}  // namespace lessons::app
