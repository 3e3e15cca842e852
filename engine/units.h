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

// Parses a decimal integer from `min` to `max` (digits only, an optional leading '-');
// throws UsageError naming `what` and the range on anything else, empty text included.
int64_t ParseIntInRange(std::string_view text, const char* what, int64_t min, int64_t max);

// Parses seconds written as a plain decimal number ("0.25", "5", ".5": no unit, sign,
// exponent, comma or hex) from `min` to `max`; throws UsageError naming `what` otherwise.
double ParseSeconds(std::string_view text, const char* what, double min, double max);

}  // namespace lessons
