// Running out of memory (std::bad_alloc; std::length_error, a size no container can hold) is
// never "a bad entry, skipped" nor a crash: it ends the command, the worker's request or the
// GUI's frame with a message that says what could not be done and, under an address-space limit
// (ulimit -v), the limit. Every loader that skips a bad entry with catch (std::exception&) lets
// it through first (RethrowIfOutOfMemory); the command boundaries catch it (cli/main.cpp,
// engine/serve.cpp, app/main.cpp).
#pragma once

#include <cstddef>
#include <exception>
#include <new>

namespace lessons {

// Out of memory while doing something named: what() is "not enough memory to <doing> (the
// address space is limited to 54 MiB by ulimit -v 56000: raise the limit)". Made without
// allocating.
class OutOfMemory : public std::bad_alloc {
public:
    explicit OutOfMemory(const char* doing) noexcept;
    const char* what() const noexcept override { return m_text; }

private:
    char m_text[400];
};

// True when `e` is running out of memory: std::bad_alloc (OutOfMemory among them) or
// std::length_error.
bool IsOutOfMemory(const std::exception& e) noexcept;

// In a catch block: when the exception being handled is running out of memory, throws it on, as
// OutOfMemory(doing) unless it already names what was being done; otherwise returns, and the
// handler goes on (skips the entry, reports the file).
void RethrowIfOutOfMemory(const std::exception& e, const char* doing);

// Runs f(); running out of memory in it becomes OutOfMemory(doing) (one that already names what
// was being done is kept).
template <typename F>
auto OutOfMemoryAs(const char* doing, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const std::exception& e) {
        RethrowIfOutOfMemory(e, doing);
        throw;
    }
}

// The message for `e` (IsOutOfMemory(e)) at a command boundary: OutOfMemory's own, else "not
// enough memory to <doing>" with the limit. Written into `out` (size bytes), without allocating;
// returns out.
const char* OutOfMemoryText(const std::exception& e, const char* doing, char* out,
                            size_t size) noexcept;

// Keeps `bytes` of address space aside (mapped in pieces, never touched) for running out of
// memory: when operator new fails, a piece goes back and the allocation is tried again, since the
// failure may be inside a noexcept destructor (nlohmann::json's allocates a stack of the children
// it frees), where a throw ends the program in std::terminate; the last pieces are kept for the
// destructors that run while a failure unwinds. Called at each program's start, and again once a
// failure has been answered (the worker goes on).
void KeepMemoryForOutOfMemory(size_t bytes = size_t(3) << 20);

// Running out of memory where nothing can catch it (inside a noexcept function: nlohmann::json's
// destructor allocates) ends the program in std::terminate: from this call on, it then prints
// `prefix` and "not enough memory to <doing> (… ulimit -v …)" and exits 1, not by SIGABRT.
// Anything else that reaches std::terminate goes on to the handler that was there before.
// `prefix`: a string literal ("error: ", "cuda-lessons: "); `doing` is copied.
void EndWithAMessageWhenOutOfMemory(const char* prefix, const char* doing);

// The soft address-space limit (RLIMIT_AS) in bytes; 0 when there is none.
unsigned long long AddressSpaceLimit() noexcept;

}  // namespace lessons
