// The GUI's side of the worker protocol (docs/serve-protocol.md). The GUI never runs GPU
// code itself: it talks to `cuda-lessons-cli serve` through this interface (or, in tests, to
// a fake).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace lessons::app {

using Json = nlohmann::ordered_json;

class WorkerLink {
public:
    virtual ~WorkerLink() = default;
    // Starts (or restarts) the worker; false with `error` set when it cannot be started.
    virtual bool Start(std::string* error) = 0;
    virtual bool Running() const = 0;
    // Writes one request line; false when the worker is gone.
    virtual bool Send(const Json& request) = 0;
    // Messages received since the last call, in order. When the worker has exited, the last
    // one is {"type":"worker_exit","code":N,"signal":S}.
    virtual std::vector<Json> Drain() = 0;
    // Ends the worker at once, without waiting (a student's kernel past its time limit): its
    // exit message follows in Drain. Does nothing when it is not running.
    virtual void Kill() {}
    // The worker's process id while it runs; -1 where there is none (or no process: a fake).
    virtual int Pid() const { return -1; }
};

}  // namespace lessons::app
