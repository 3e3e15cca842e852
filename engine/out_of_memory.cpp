#include "out_of_memory.h"

#include <sys/mman.h>
#include <sys/resource.h>

#include <atomic>
#include <cstdio>
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

struct Reserve {
    void* at;
    size_t bytes;
};
std::atomic<Reserve*> g_reserve{nullptr};

// operator new failed: the reserve's address space goes back to the system (munmap), then the
// failure is thrown as it would have been without this handler.
void GiveBackTheReserve() {
    if (Reserve* r = g_reserve.exchange(nullptr)) munmap(r->at, r->bytes);
    throw std::bad_alloc();
}

}  // namespace

void KeepMemoryForOutOfMemory(size_t bytes) {
    std::set_new_handler(GiveBackTheReserve);
    if (g_reserve.load()) return;
    void* at = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (at == MAP_FAILED) return;  // no room for it now: a later call tries again
    static Reserve slots[2];       // the reserve is at most remade after a failure, one at a time
    static std::atomic<unsigned> next{0};
    Reserve* r = &slots[next++ % 2];
    r->at = at;
    r->bytes = bytes;
    Reserve* expected = nullptr;
    if (!g_reserve.compare_exchange_strong(expected, r)) munmap(at, bytes);
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
