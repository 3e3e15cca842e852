// Each-scans-its-share's rule on the host, for the tests: scan one share as a GPU does, from the
// bytes it receives (its share and, unless it is the last, the byte after it), writing offsets
// counted from the start of the whole text. Together the shares must find every pair once.
#pragma once

#include <cstdint>

namespace lessons::split {

// `bytes` points at the text's byte `begin`; the share is [begin, end) of an n-byte text.
uint64_t SplitShareScan(const char* bytes, uint64_t begin, uint64_t end, uint64_t n, uint64_t* out);

}  // namespace lessons::split
