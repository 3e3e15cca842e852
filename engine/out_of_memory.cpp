#include "out_of_memory.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <stdexcept>

namespace lessons {
namespace {

void Compose(const char* doing, char* out, size_t size) noexcept {
    const unsigned long long limit = AddressSpaceLimit();
    if (limit > 0)
        std::snprintf(out, size,
                      "not enough memory to %s (the address space is limited to %llu MiB by "
                      "ulimit -v %llu: raise the limit)",
                      doing, limit >> 20, limit >> 10);
    else
        std::snprintf(out, size, "not enough memory to %s", doing);
}

// The reserve: pieces of address space mapped and never touched, given back one at a time.
constexpr size_t kPiece = size_t(256) << 10;
constexpr int kMostPieces = 16;
// What the destructors of an unwinding failure may need: once the heap cannot grow, malloc
// maps at least 1 MiB at a time, so a smaller piece alone would not let it go on.
constexpr int kKeptForUnwinding = 5;
std::mutex g_mutex;  // locking it allocates nothing
void* g_pieces[kMostPieces];
int g_left = 0;

// operator new failed. While the reserve lasts, a piece goes back to the system (munmap) and
// the allocation is tried again: the failure may be inside a noexcept destructor
// (nlohmann::json's allocates a stack of the children it frees), where a throw would end the
// program. The last pieces are kept for the destructors that run while a failure unwinds;
// past them, the failure is thrown as it would have been without this handler.
void GiveBackAPiece() {
    std::lock_guard<std::mutex> lock(g_mutex);
    const int keep = std::uncaught_exceptions() > 0 ? 0 : kKeptForUnwinding;
    if (g_left > keep) {
        munmap(g_pieces[--g_left], kPiece);
        return;
    }
    throw std::bad_alloc();
}

// The last boundary: running out of memory where no handler can catch it (a noexcept function,
// such as nlohmann::json's destructor, which allocates) ends the program through
// std::terminate; it then says so, as the command boundaries do, and exits 1.
char g_doing[160] = "go on";
const char* g_prefix = "error: ";
std::terminate_handler g_previous = nullptr;

[[noreturn]] void OnTerminate() {
    if (std::current_exception()) {
        try {
            throw;
        } catch (const std::exception& e) {
            if (IsOutOfMemory(e)) {
                char text[480];
                std::fprintf(stderr, "%s%s\n", g_prefix,
                             OutOfMemoryText(e, g_doing, text, sizeof text));
                std::fflush(nullptr);
                _exit(1);
            }
        } catch (...) {
        }
    }
    if (g_previous) g_previous();
    std::abort();
}

}  // namespace

void EndWithAMessageWhenOutOfMemory(const char* prefix, const char* doing) {
    g_prefix = prefix;
    std::snprintf(g_doing, sizeof g_doing, "%s", doing);
    const std::terminate_handler previous = std::set_terminate(OnTerminate);
    if (previous != OnTerminate) g_previous = previous;
}

void KeepMemoryForOutOfMemory(size_t bytes) {
    std::set_new_handler(GiveBackAPiece);
    std::lock_guard<std::mutex> lock(g_mutex);
    const int want = static_cast<int>(std::min<size_t>(kMostPieces, (bytes + kPiece - 1) / kPiece));
    while (g_left < want) {
        void* at =
            mmap(nullptr, kPiece, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (at == MAP_FAILED) return;  // no room for more now: a later call tries again
        g_pieces[g_left++] = at;
    }
}

OutOfMemory::OutOfMemory(const char* doing) noexcept {
    Compose(doing, m_text, sizeof m_text);
}

bool IsOutOfMemory(const std::exception& e) noexcept {
    return dynamic_cast<const std::bad_alloc*>(&e) || dynamic_cast<const std::length_error*>(&e);
}

void RethrowIfOutOfMemory(const std::exception& e, const char* doing) {
    if (dynamic_cast<const OutOfMemory*>(&e)) throw;  // already says what it could not do
    if (IsOutOfMemory(e)) throw OutOfMemory(doing);
}

const char* OutOfMemoryText(const std::exception& e, const char* doing, char* out,
                            size_t size) noexcept {
    if (size == 0) return out;
    if (dynamic_cast<const OutOfMemory*>(&e))
        std::snprintf(out, size, "%s", e.what());
    else
        Compose(doing, out, size);
    return out;
}

unsigned long long AddressSpaceLimit() noexcept {
    rlimit r{};
    if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return 0;
    return static_cast<unsigned long long>(r.rlim_cur);
}

}  // namespace lessons
