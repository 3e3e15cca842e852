#include "result.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "errors.h"

namespace lessons {

void RunOptions::Set(const std::string& name, const std::string& value) {
    for (auto& [n, v] : params) {
        if (n == name) {
            v = value;
            return;
        }
    }
    params.emplace_back(name, value);
}

const std::string* RunOptions::Get(const std::string& name) const {
    for (const auto& [n, v] : params)
        if (n == name) return &v;
    return nullptr;
}

std::optional<double> RunResult::Part(std::string_view name) const {
    for (const TimedPart& p : parts)
        if (p.name == name) return p.ms;
    return std::nullopt;
}

std::optional<double> RunResult::Value(std::string_view name) const {
    for (const NamedValue& v : values)
        if (v.name == name) return v.value;
    return std::nullopt;
}

std::optional<uint64_t> RunResult::Number(std::string_view param) const {
    const ParamValue* v = params.Find(param);
    if (!v || !v->choice.empty()) return std::nullopt;
    return v->number;
}

std::string RunResult::ChoiceOr(std::string_view param, const std::string& fallback) const {
    const ParamValue* v = params.Find(param);
    return v && !v->choice.empty() ? v->choice : fallback;
}

double Median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

int MaxAutomaticReps(double min_time_s) {
    const double scaled = kMaxReps * (min_time_s > 0 ? min_time_s / kAutoMinTimeS : 1.0);
    return static_cast<int>(std::clamp(scaled, double(kMaxReps), 10.0 * kMaxReps));
}

int MedianIntervalOrder(int n, double confidence, double* level) {
    if (n <= 0) {
        if (level) *level = 0;
        return 0;
    }
    // P(B <= i) for B ~ Binomial(n, 1/2), summed from i = 0 in log space (n up to 100000).
    const double alpha = 1 - confidence;
    const double log_half_n = -n * std::log(2.0);
    const double log_n_fact = std::lgamma(n + 1.0);
    double below = 0;  // P(B <= k - 1)
    int k = 0;
    for (int i = 0; 2 * (i + 1) <= n + 1; ++i) {
        const double pmf =
            std::exp(log_n_fact - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) + log_half_n);
        // [x(i+1), x(n-i)] still reaches the confidence while 2 P(B <= i) <= alpha.
        if (2 * (below + pmf) > alpha * (1 + 1e-12)) break;
        below += pmf;
        k = i + 1;
    }
    if (k == 0) {
        // Too few samples for the confidence: the widest interval, [min, max], at its own level.
        k = 1;
        below = std::exp(log_half_n);
    }
    if (level) *level = std::max(0.0, 1 - 2 * below);
    return k;
}

MedianInterval MedianIntervalOf(std::vector<double> samples, double confidence) {
    MedianInterval out;
    const int n = static_cast<int>(samples.size());
    if (n == 0) return out;
    out.k = MedianIntervalOrder(n, confidence, &out.level);
    const auto lo = samples.begin() + (out.k - 1), hi = samples.begin() + (n - out.k);
    std::nth_element(samples.begin(), lo, samples.end());
    out.lo = *lo;
    std::nth_element(samples.begin(), hi, samples.end());
    out.hi = *hi;
    return out;
}

void SetMedianInterval(RunResult& r) {
    const MedianInterval ci = MedianIntervalOf(r.samples_ms);
    r.median_lo_ms = ci.lo;
    r.median_hi_ms = ci.hi;
    r.median_level = ci.level;
}

Interval NoiseInterval(const RunResult& r) {
    if (r.median_level > 0) return {r.median_lo_ms, r.median_hi_ms};
    // A result without an interval (one sample, or none reported): its spread, or its median.
    return {r.min_ms > 0 ? r.min_ms : r.median_ms, r.max_ms > 0 ? r.max_ms : r.median_ms};
}

void DeriveMetrics(RunResult& r, const CeilingFigures* c) {
    r.rate_ms = r.Part(r.work.rate_part).value_or(r.median_ms);
    const double seconds = r.rate_ms * 1e-3;
    const uint64_t bytes = r.work.bound == Bound::kH2D    ? r.work.h2d_bytes
                           : r.work.bound == Bound::kPeer ? r.work.peer_bytes
                                                          : r.work.MemoryBytes();
    r.gbps = seconds > 0 ? double(bytes) / seconds * 1e-9 : 0;
    r.gflops.reset();
    if (r.work.flops > 0 && seconds > 0) r.gflops = double(r.work.flops) / seconds * 1e-9;
    r.ceiling.reset();
    r.pct_of_ceiling.reset();
    r.ceiling_bytes.reset();
    r.intensity.reset();
    r.attainable_gflops.reset();
    r.ceiling_note.clear();
    if (r.kind != StepKind::kGpu || !c) return;
    double ceiling = 0;
    switch (r.work.bound) {
        case Bound::kNone:
            break;
        case Bound::kRead:
            ceiling = c->read_gbps;
            if (c->memory_bytes > 0) r.ceiling_bytes = c->memory_bytes;
            break;
        case Bound::kCopy:
            ceiling = c->copy_gbps;
            if (c->memory_bytes > 0) r.ceiling_bytes = c->memory_bytes;
            break;
        case Bound::kFp32:
            ceiling = c->fp32_gflops;
            break;
        case Bound::kTf32:
        case Bound::kBf16: {
            const bool tf32 = r.work.bound == Bound::kTf32;
            ceiling = tf32 ? c->tf32_gflops : c->bf16_gflops;
            const std::string& why = tf32 ? c->tf32_unavailable : c->bf16_unavailable;
            if (ceiling <= 0 && c->fp32_gflops > 0) {
                // Never a silent wrong %: the fp32 peak, named as such, with why.
                ceiling = c->fp32_gflops;
                r.ceiling_note = std::string("no ") + (tf32 ? "TF32" : "bf16") + " ceiling (" +
                                 (why.empty() ? std::string("not measured") : why) +
                                 "): compared with the fp32 FMA peak instead";
            }
            break;
        }
        case Bound::kH2D:
            ceiling = c->h2d_gbps;
            break;
        case Bound::kPeer:
            ceiling = c->peer_gbps;
            break;
    }
    if (ceiling > 0) {
        r.ceiling = ceiling;
        r.pct_of_ceiling = 100.0 * r.Rate() / ceiling;
    }
    // The roofline: attainable GFLOP/s at this intensity is the lower of the peak (TF32 or bf16
    // for a tensor-core step when measured, else fp32) and the memory bandwidth (read-only for
    // read-mostly steps, copy otherwise) times intensity.
    if (r.work.MemoryBytes() > 0) {
        r.intensity = double(r.work.flops) / double(r.work.MemoryBytes());
        const double bandwidth = r.work.bound == Bound::kRead ? c->read_gbps : c->copy_gbps;
        const double tensor = r.work.bound == Bound::kTf32   ? c->tf32_gflops
                              : r.work.bound == Bound::kBf16 ? c->bf16_gflops
                                                             : 0;
        const double peak = tensor > 0 ? tensor : c->fp32_gflops;
        if (peak > 0 && bandwidth > 0)
            r.attainable_gflops = std::min(peak, *r.intensity * bandwidth);
    }
}

RunResult PoolTrials(const std::vector<RunResult>& trials) {
    if (trials.empty()) throw UsageError("no trials to pool");
    for (const RunResult& t : trials) {
        if (t.id != trials.front().id || !(t.params == trials.front().params))
            throw UsageError("trials of " + trials.front().id + " and " + t.id +
                             " (or at other settings) cannot be pooled");
        if (!t.verified) return t;
    }
    RunResult r = trials.front();
    r.samples_ms.clear();
    r.trials = 0;
    double busy_weighted = 0, clock_weighted = 0;
    size_t busy_samples = 0, clock_samples = 0;
    std::map<std::string, std::vector<double>> parts;
    std::vector<std::string> part_order;
    for (const RunResult& t : trials) {
        r.samples_ms.insert(r.samples_ms.end(), t.samples_ms.begin(), t.samples_ms.end());
        r.trials += std::max(t.trials, 1);
        const size_t n = t.samples_ms.size();
        if (t.other_cores_busy) {
            busy_weighted += *t.other_cores_busy * double(n);
            busy_samples += n;
        }
        if (t.sm_clock_mhz) {
            clock_weighted += *t.sm_clock_mhz * double(n);
            clock_samples += n;
        }
        for (const TimedPart& p : t.parts) {
            if (!parts.count(p.name)) part_order.push_back(p.name);
            parts[p.name].push_back(p.ms);
        }
    }
    r.reps = static_cast<int>(r.samples_ms.size());
    if (r.samples_ms.empty()) return r;
    r.median_ms = Median(r.samples_ms);
    r.min_ms = *std::min_element(r.samples_ms.begin(), r.samples_ms.end());
    r.max_ms = *std::max_element(r.samples_ms.begin(), r.samples_ms.end());
    SetMedianInterval(r);
    r.parts.clear();
    for (const std::string& name : part_order) r.parts.push_back({name, Median(parts[name])});
    if (busy_samples) r.other_cores_busy = busy_weighted / double(busy_samples);
    if (clock_samples) r.sm_clock_mhz = clock_weighted / double(clock_samples);
    for (const RunResult& t : trials)
        for (const std::string& limit : t.clock_limits)
            if (std::find(r.clock_limits.begin(), r.clock_limits.end(), limit) ==
                r.clock_limits.end())
                r.clock_limits.push_back(limit);
    // The rates from the pooled time; the ceiling and the roofline stay the first trial's.
    const RunResult& first = trials.front();
    DeriveMetrics(r, nullptr);
    r.ceiling = first.ceiling;
    r.ceiling_bytes = first.ceiling_bytes;
    r.ceiling_note = first.ceiling_note;
    r.intensity = first.intensity;
    r.attainable_gflops = first.attainable_gflops;
    if (r.ceiling && *r.ceiling > 0) r.pct_of_ceiling = 100.0 * r.Rate() / *r.ceiling;
    return r;
}

}  // namespace lessons
