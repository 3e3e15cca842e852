// Exceptions used across the engine. Nothing in the engine calls exit(): callers decide.
#pragma once

#include <stdexcept>
#include <string>

namespace lessons {

// A request the engine cannot take: unknown lesson, block size out of range, data size larger
// than memory... The message names the problem and the valid range. The CLI exits with 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A CUDA call failed. `sticky` errors (illegal address, launch timeout, ...) leave the CUDA
// context unusable until the process ends: a worker that sees one must be restarted.
class CudaError : public std::runtime_error {
public:
    CudaError(const std::string& message, bool sticky)
        : std::runtime_error(message), m_sticky(sticky) {}
    bool sticky() const { return m_sticky; }

private:
    bool m_sticky;
};

// A lesson that cannot run on this machine or build (a GPU lesson without a usable GPU).
class UnavailableError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Reading or writing a file failed (a full disk, a read-only target, an I/O error): the
// message names the path and the reason. The CLI exits with 1.
class FileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A run was cancelled by its caller (serve's cancel op, Ctrl-C).
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

}  // namespace lessons
