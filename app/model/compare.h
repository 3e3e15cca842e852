// Honest comparisons, without drawing: whether two results differ by more than their noise,
// whether a comparison mixes this machine's live results with recorded ones, which ceiling a
// result's share is of and which time its rate is taken over, and the progress estimate of
// the work in flight.
#pragma once

#include <string>
#include <string_view>

#include "result.h"

namespace lessons::app {

// Their medians' confidence intervals overlap (NoiseInterval: a result without an interval uses
// its min-max spread): a speed-up between them cannot be told from the noise. More repetitions
// narrow the intervals, so a re-run at more repetitions can settle it.
bool WithinNoise(const RunResult& a, const RunResult& b);

// How a speed-up of `current` over `previous` (previous's median / current's) reads.
struct Speedup {
    double ratio = 0;         // > 1: current is faster
    bool noise = false;       // WithinNoise: "within noise", not "1.19x faster"
    bool mixed = false;       // one is live, the other recorded
    std::string recorded_on;  // where the recorded one was made (mixed only), e.g. "NVIDIA H100"
};
Speedup CompareResults(const RunResult& current, const RunResult& previous);

// The GPU (or CPU) a result was recorded on, short: "H100" for "NVIDIA H100 80GB HBM3".
std::string ShortDevice(const RunResult& r);
// "NVIDIA H100 80GB HBM3" -> "H100 80GB HBM3": a GPU's name without the vendor and brand
// ("NVIDIA ", "GeForce ") all share.
std::string WithoutVendor(const std::string& name);

// What a result's rate is taken over: only its kernel (the part Work::rate_part names, when
// the step reports it apart from copies), or the whole run the time column shows.
bool RateIsKernelOnly(const RunResult& r);

struct Word;

// The ceiling `bound` holds a step to, in words: its name ("the read-bandwidth ceiling") or
// its short name for a table ("read bandwidth"); null for Bound::kNone.
const Word* CeilingWord(Bound bound, bool short_name);

// The ceiling a result's share is of, short for a table ("read bandwidth", "cuBLAS's bf16 rate"),
// in `language`; empty when it has none. A tensor-core step compared with the fp32 peak for
// want of its own ceiling names the fp32 peak.
std::string CeilingShortName(std::string_view language, const RunResult& r);

// The time left of work `fraction` (0..1) done after `elapsed_s` seconds, by the pace so far;
// negative while too little is done (or too little time has passed) to tell.
double EstimateSecondsLeft(double fraction, double elapsed_s);
// "about 12 s left", "about 2 min 05 s left" ("约剩 12 秒"); empty for a negative estimate.
std::string TimeLeftText(std::string_view language, double seconds);

}  // namespace lessons::app
