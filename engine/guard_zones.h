// Guard zones: while they are on (a checked run of a student's kernel, `check`), every device
// buffer the engine allocates (MallocDevice) gets kGuardBytes before its start and after its end,
// filled with a pattern (GuardByte). When the buffer is freed, both zones are read back: a byte
// that no longer holds the pattern means a kernel wrote past the end (or before the start) of
// that buffer, which is reported by the buffer's name (TakeGuardDamage). One mechanism for every
// step kind: the step's buffers are the engine's DeviceBuffers, whatever the chapter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lessons {

// The size of each zone: a multiple of 256, so the buffer itself keeps cudaMalloc's alignment
// (vector loads, TMA descriptors), and large enough to hold the overrun of a missing bounds test
// at the check's small sizes (a tile of rows past the end of a small matrix).
constexpr size_t kGuardBytes = size_t(64) << 10;
// Where the buffer starts in its allocation: the zone before it ends here, after unused
// padding. cudaMalloc aligns a large allocation to 2 MiB; a buffer 64 KiB into it took longer to
// fill from pageable host memory (lesson 1.4's copy, H200), so the buffer keeps that alignment.
constexpr size_t kGuardLead = size_t(2) << 20;
static_assert(kGuardLead >= kGuardBytes && kGuardLead % 256 == 0);

// The pattern's byte at offset `i` of a zone: never the same byte twice in a row, and neither
// 0x00 nor 0xFF (what a kernel that writes zeros or NaN leaves), so any write shows.
uint8_t GuardByte(size_t i);
// Fills `n` bytes with the pattern (from offset 0).
void FillGuard(uint8_t* zone, size_t n);
// The offset of the first byte of `zone` that no longer holds the pattern, and how many do not;
// nullopt when the zone is intact.
struct GuardHit {
    size_t first = 0;  // offset of the first damaged byte within the zone
    size_t last = 0;   // offset of the last damaged byte within the zone
    size_t count = 0;  // damaged bytes
};
std::optional<GuardHit> CheckGuard(const uint8_t* zone, size_t n);

// What a damaged pair of zones says, naming the buffer: `before` is the zone before the start,
// `after` the zone after the end (either may be intact), for a buffer of `bytes`.
std::string GuardDamageText(const std::string& buffer, size_t bytes,
                            const std::optional<GuardHit>& before,
                            const std::optional<GuardHit>& after);
std::string GuardDamageTextZh(const std::string& buffer, size_t bytes,
                              const std::optional<GuardHit>& before,
                              const std::optional<GuardHit>& after);

// Turns guard zones on or off for the buffers allocated from now on, in this process.
void SetGuardZones(bool on);
bool GuardZonesOn();

struct GuardDamage {
    std::string buffer;  // its name ("the matrix C")
    std::string text;    // English
    std::string text_zh;
};
// Recorded by the device layer when a guarded buffer with damaged zones is freed.
void ReportGuardDamage(GuardDamage damage);
// The damage recorded since the last call (and forgets it).
std::vector<GuardDamage> TakeGuardDamage();

}  // namespace lessons
