#include "model/compare.h"

#include <cmath>

#include "words/words.h"

namespace lessons::app {

bool WithinNoise(const RunResult& a, const RunResult& b) {
    // The medians' confidence intervals (a result without one: its min-max spread, or its
    // median). Closed: intervals that touch overlap.
    const Interval x = NoiseInterval(a), y = NoiseInterval(b);
    return x.lo <= y.hi && y.lo <= x.hi;
}

std::string WithoutVendor(const std::string& name) {
    std::string out = name;
    for (const char* prefix : {"NVIDIA ", "GeForce "})
        if (out.rfind(prefix, 0) == 0) out.erase(0, std::string_view(prefix).size());
    return out;
}

std::string ShortDevice(const RunResult& r) {
    std::string name = WithoutVendor(r.Device());
    // "H100 80GB HBM3" -> "H100": the model, not its memory.
    const size_t space = name.find(' ');
    if (r.kind == StepKind::kGpu && space != std::string::npos) name.resize(space);
    if (r.devices.size() > 1) name = std::to_string(r.devices.size()) + "x " + name;
    return name;
}

Speedup CompareResults(const RunResult& current, const RunResult& previous) {
    Speedup s;
    if (current.median_ms > 0) s.ratio = previous.median_ms / current.median_ms;
    s.noise = WithinNoise(current, previous);
    s.mixed = current.recorded != previous.recorded;
    if (s.mixed) s.recorded_on = ShortDevice(current.recorded ? current : previous);
    return s;
}

bool RateIsKernelOnly(const RunResult& r) {
    if (!(r.rate_ms > 0) || r.work.rate_part.empty() || !r.Part(r.work.rate_part)) return false;
    return std::fabs(r.rate_ms - r.median_ms) > 1e-6 * std::max(r.median_ms, 1e-9);
}

namespace {

struct CeilingWords {
    Bound bound;
    const Word& name;
    const Word& short_name;
};

const CeilingWords kCeilingWords[] = {
    {Bound::kRead, kCeilRead, kShortCeilRead}, {Bound::kCopy, kCeilCopy, kShortCeilCopy},
    {Bound::kFp32, kCeilFp32, kShortCeilFp32}, {Bound::kTf32, kCeilTf32, kShortCeilTf32},
    {Bound::kBf16, kCeilBf16, kShortCeilBf16}, {Bound::kH2D, kCeilH2D, kShortCeilH2D},
    {Bound::kPeer, kCeilPeer, kShortCeilPeer},
};

}  // namespace

const Word* CeilingWord(Bound bound, bool short_name) {
    for (const CeilingWords& w : kCeilingWords)
        if (w.bound == bound) return short_name ? &w.short_name : &w.name;
    return nullptr;
}

std::string CeilingShortName(std::string_view language, const RunResult& r) {
    if (!r.pct_of_ceiling) return {};
    const bool fallback = IsTensor(r.work.bound) && !r.ceiling_note.empty();
    const Word* word = CeilingWord(fallback ? Bound::kFp32 : r.work.bound, true);
    return word ? Tr(language, *word) : std::string();
}

double EstimateSecondsLeft(double fraction, double elapsed_s) {
    // Below these the pace says nothing yet (the data is still being made, or checked).
    constexpr double kMinFraction = 0.02, kMinElapsed = 0.5;
    if (!(fraction >= kMinFraction) || !(elapsed_s >= kMinElapsed)) return -1;
    if (fraction >= 1) return 0;
    return elapsed_s * (1 - fraction) / fraction;
}

std::string TimeLeftText(std::string_view language, double seconds) {
    if (!(seconds >= 0) || !std::isfinite(seconds)) return {};
    const long s = std::lround(seconds);
    if (s < 60) return Fmt(Tr(language, kTimeLeftSeconds), static_cast<int>(s));
    return Fmt(Tr(language, kTimeLeftMinutes), static_cast<int>(s / 60), static_cast<int>(s % 60));
}

}  // namespace lessons::app
