// Sizes with units ("64MiB", "1G", "1000") and ranges ("32..1024", "1MiB..1GiB", "64,128").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lessons {

// Parses a byte count. Binary units: K, M, G, T, KiB, MiB, GiB, TiB (1024-based); decimal
// units: KB, MB, GB, TB (1000-based); B or no unit: bytes. Throws UsageError on bad input.
uint64_t ParseSize(std::string_view text);

// "1.00 GiB", "64.0 MiB", "1023 B".
std::string FormatSize(uint64_t bytes);

// Parses "A..B" (A, 2A, 4A, ... up to B), "A..B:S" (A, A+S, ... up to B) or "a,b,c".
// Each value goes through `parse_value` (ParseSize or a plain integer parser).
std::vector<uint64_t> ParseRange(std::string_view text, uint64_t (*parse_value)(std::string_view));

// Parses a non-negative decimal integer; throws UsageError naming `what` on bad input.
uint64_t ParseCount(std::string_view text);

// a + b and a * b, or a UsageError saying that `what` is too large to hold.
uint64_t CheckedAdd(uint64_t a, uint64_t b, const char* what);
uint64_t CheckedMul(uint64_t a, uint64_t b, const char* what);

}  // namespace lessons
