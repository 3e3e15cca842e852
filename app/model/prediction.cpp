#include "model/prediction.h"

#include <cmath>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "model/page_params.h"
#include "units.h"
#include "words/words.h"

namespace lessons::app {
namespace {

std::string Gbps(double v) {
    return v > 0 ? Fixed(v, 0) : std::string("?");
}

std::string MsText(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ms < 0.1 ? "%.4f" : ms < 10 ? "%.3f" : "%.1f", ms);
    return buf;
}

std::string Count(double v) {
    char buf[32];
    if (v >= 1e9)
        std::snprintf(buf, sizeof buf, "%.2fG", v / 1e9);
    else if (v >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2fM", v / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

}  // namespace

std::string Times(double ratio) {
    return Fixed(ratio, 2);
}

CeilingSource CeilingsFromDevices(const DeviceFacts& devices) {
    CeilingSource s;
    const GpuFacts* gpu = devices.available ? devices.First() : nullptr;
    if (!gpu) return s;
    const GpuCeilings& c = gpu->ceilings;
    s.ceilings = c;  // the figures a prediction takes, without the block floor and datasheet
    s.known = s.ceilings.read_gbps > 0 || s.ceilings.copy_gbps > 0;
    s.measured = true;
    s.device = gpu->name;
    s.sm_count = gpu->sm_count;
    s.max_threads_per_sm = gpu->max_threads_per_sm;
    s.clock_khz = gpu->clock_khz;
    return s;
}

CeilingSource CeilingsFromRecordedInfo(const Json& info) {
    if (!info.is_object()) return {};
    CeilingSource s = CeilingsFromDevices(DeviceFactsFromInfo(info));
    s.measured = false;
    const Json& at = info.contains("recorded_at") ? info["recorded_at"] : Json();
    s.date = at.is_string() ? at.get<std::string>().substr(0, 10) : "";
    return s;
}

namespace {

// The figure of `ceilings` a step of `bound` is held to; null for a bound it has none of.
double* CeilingSlot(PredictCeilings& ceilings, Bound bound) {
    static constexpr std::pair<Bound, double PredictCeilings::*> kSlots[] = {
        {Bound::kRead, &PredictCeilings::read_gbps},
        {Bound::kCopy, &PredictCeilings::copy_gbps},
        {Bound::kFp32, &PredictCeilings::fp32_gflops},
        {Bound::kTf32, &PredictCeilings::tf32_gflops},
        {Bound::kBf16, &PredictCeilings::bf16_gflops},
        {Bound::kH2D, &PredictCeilings::h2d_gbps},
    };
    for (const auto& [b, member] : kSlots)
        if (b == bound) return &(ceilings.*member);
    return nullptr;
}

}  // namespace

void AddRecordedCeiling(const RunResult& recorded, CeilingSource* source) {
    // One GPU's figures only: a multi-GPU result's ceilings are several GPUs' added up.
    if (recorded.devices.size() > 1) return;
    PredictCeilings& c = source->ceilings;
    auto name_source = [&] {
        if (source->known) return;
        source->known = true;
        source->device = recorded.Device();
        source->date = recorded.timestamp.substr(0, 10);
    };
    if (recorded.work.bound == Bound::kTf32 && !recorded.CeilingOf(Bound::kTf32)) {
        // Recorded before results carried the TF32 ceiling: its rate is a TF32 rate reached.
        if (!recorded.verified || !recorded.gflops || *recorded.gflops <= 0) return;
        if (c.tf32_gflops > 0 && !source->tf32_from_rates) return;
        c.tf32_gflops = std::max(c.tf32_gflops, *recorded.gflops);
        source->tf32_from_rates = true;
        name_source();
        return;
    }
    // A ceiling that is not its bound's own (a TF32 step compared with fp32) fills nothing.
    if (!recorded.CeilingOf(recorded.work.bound)) return;
    double* slot = CeilingSlot(c, recorded.work.bound);
    // Results recorded before their bound was named carry none we can use.
    if (!slot) return;
    if (*slot > 0 && !(slot == &c.tf32_gflops && source->tf32_from_rates)) return;
    *slot = *recorded.ceiling;
    if (slot == &c.tf32_gflops) source->tf32_from_rates = false;
    name_source();
}

std::vector<std::string> PredictionLines(const std::string& language, const Lesson& lesson,
                                         const Chapter& chapter, const ParamValues& params,
                                         const CeilingSource& source, const RunResult* measured,
                                         const KernelAttributes* attributes) {
    std::vector<std::string> out;
    if (lesson.kind != StepKind::kGpu) {
        out.push_back(Tr(language, kPredCpu));
        return out;
    }
    const std::optional<Work> work = EstimateWork(lesson, chapter, params);
    if (!work) {
        out.push_back(Tr(language, kPredNoWork));
        return out;
    }
    std::string line = Fmt(Tr(language, kPredWork), FormatSize(work->bytes_read).c_str(),
                           FormatSize(work->bytes_written).c_str());
    if (work->flops) line += Fmt(Tr(language, kPredFlops), Count(double(work->flops)).c_str());
    if (work->h2d_bytes || work->d2h_bytes)
        line += Fmt(Tr(language, kPredPcie), FormatSize(work->h2d_bytes).c_str(),
                    FormatSize(work->d2h_bytes).c_str());
    out.push_back(line);

    if (!source.known) {
        out.push_back(Tr(language, kPredNoCeilings));
        return out;
    }
    const PredictCeilings& c = source.ceilings;
    out.push_back(
        source.measured
            ? Fmt(Tr(language, kPredCeilMeasured), source.device.c_str(), Gbps(c.read_gbps).c_str(),
                  Gbps(c.copy_gbps).c_str(), Gbps(c.h2d_gbps).c_str(), Gbps(c.d2h_gbps).c_str())
            : Fmt(Tr(language, kPredCeilRecorded), source.device.c_str(), source.date.c_str(),
                  Gbps(c.read_gbps).c_str(), Gbps(c.copy_gbps).c_str(), Gbps(c.h2d_gbps).c_str(),
                  Gbps(c.fp32_gflops).c_str()) +
                  // "?" explained only where a figure was not recorded.
                  (c.read_gbps > 0 && c.copy_gbps > 0 && c.h2d_gbps > 0 && c.fp32_gflops > 0
                       ? std::string()
                       : std::string(Tr(language, kPredCeilRecordedUnknown))));

    if (work->bound == Bound::kTf32 && work->flops > 0 && c.tf32_gflops <= 0) {
        out.push_back(Tr(language, kPredNoTf32));  // never a bound from the wrong peak
        return out;
    }
    if (work->bound == Bound::kBf16 && work->flops > 0 && c.bf16_gflops <= 0) {
        out.push_back(Tr(language, kPredNoBf16));  // never a bound from the wrong peak
        return out;
    }
    if (work->bound == Bound::kBf16)
        out.push_back(Fmt(Tr(language, kPredBf16Ceiling), Gbps(c.bf16_gflops).c_str()));
    if (work->bound == Bound::kTf32)
        out.push_back(Fmt(Tr(language, source.tf32_from_rates ? kPredTf32Rates : kPredTf32Ceiling),
                          Gbps(c.tf32_gflops).c_str()));
    const Prediction p = Predict(*work, c);
    const bool flops = IsArithmetic(p.device_bound);
    line = Fmt(Tr(language, kPredKernel), MsText(p.device_ms).c_str(),
               flops ? (Count(double(work->flops)) + " flop").c_str()
                     : FormatSize(work->MemoryBytes()).c_str(),
               Fixed(p.device_ceiling, 0).c_str(), flops ? "GFLOP/s" : "GB/s");
    const bool copies = work->h2d_bytes || work->d2h_bytes;
    if (copies) {
        if ((work->h2d_bytes && c.h2d_gbps <= 0) || (work->d2h_bytes && c.d2h_gbps <= 0))
            line += Tr(language, kPredPcieUnknown);
        else
            line += Fmt(Tr(language, kPredCopies), MsText(p.h2d_ms).c_str(),
                        MsText(p.d2h_ms).c_str(), MsText(p.total_ms).c_str(),
                        Tr(language, p.overlapped ? kPredOverlapped : kPredInTurn));
    }
    out.push_back(line);

    // Little's law, for kernels of our own that declare their bytes in flight.
    if (lesson.in_flight && !lesson.library) {
        const double bytes = double(lesson.in_flight(params));
        if (source.sm_count > 0 && source.max_threads_per_sm > 0 && source.clock_khz > 0) {
            double resident = double(source.sm_count) * source.max_threads_per_sm;
            std::string resident_text =
                Fmt(Tr(language, kPredResidentFull), source.sm_count, source.max_threads_per_sm);
            const ParamSpec* block_size = BlockSizeParam(lesson);
            const uint64_t block =
                block_size && params.Has(block_size->name) ? params.Number(block_size->name) : 0;
            if (attributes && attributes->active_blocks_per_sm > 0 && block > 0) {
                resident =
                    double(source.sm_count) * attributes->active_blocks_per_sm * double(block);
                resident_text = Fmt(Tr(language, kPredResidentKernel), source.sm_count,
                                    attributes->active_blocks_per_sm, static_cast<int>(block));
            }
            const double latency = AssumedLatencyNs(source.clock_khz);
            out.push_back(Fmt(Tr(language, kPredLittle), Fixed(bytes, 0).c_str(),
                              Count(resident).c_str(), resident_text.c_str(),
                              Fixed(latency, 0).c_str(),
                              Fixed(LittleGbps(bytes, resident, latency), 0).c_str()));
            out.push_back(
                Fmt(Tr(language, kPredLatency), kAssumedDramLatencyCycles, source.clock_khz / 1e3));
            if (measured && measured->verified && measured->gbps > 0 && !measured->recorded)
                out.push_back(
                    Fmt(Tr(language, kPredImplied), Fixed(measured->gbps, 0).c_str(),
                        Fixed(ImpliedLatencyNs(bytes, resident, measured->gbps), 0).c_str()));
        } else {
            out.push_back(Tr(language, kPredNoLittle));
        }
    }

    if (!measured) {
        out.push_back(Tr(language, kPredNotYet));
        return out;
    }
    const std::optional<double> kernel_ms = measured->Part("kernel");
    const bool pcie_known =
        !(work->h2d_bytes && c.h2d_gbps <= 0) && !(work->d2h_bytes && c.d2h_gbps <= 0);
    if (!kernel_ms) {  // the copies and the kernel overlap: only the whole run is timed
        line = pcie_known
                   ? Fmt(Tr(language, kPredMeasuredRun), MsText(measured->median_ms).c_str(),
                         Times(TimesBound(measured->median_ms, p.total_ms)).c_str())
                   : Fmt(Tr(language, kPredMeasuredRunOnly), MsText(measured->median_ms).c_str());
    } else {
        line = Fmt(Tr(language, kPredMeasuredKernel), MsText(*kernel_ms).c_str(),
                   Times(TimesBound(*kernel_ms, p.device_ms)).c_str());
        if (copies && pcie_known && measured->median_ms > *kernel_ms * 1.0001)
            line += Fmt(Tr(language, kPredMeasuredTotal), MsText(measured->median_ms).c_str(),
                        Times(TimesBound(measured->median_ms, p.total_ms)).c_str());
    }
    out.push_back(line);
    return out;
}

BoundedTime BoundAndTime(const Lesson& lesson, const Chapter& chapter, const ParamValues& params,
                         const CeilingSource& source, const RunResult* measured) {
    BoundedTime out;
    const bool ok = measured && measured->verified && measured->median_ms > 0;
    const std::optional<double> kernel_ms = ok ? measured->Part("kernel") : std::nullopt;
    if (ok) out.measured_ms = kernel_ms ? *kernel_ms : measured->median_ms;
    if (lesson.kind != StepKind::kGpu || !source.known) return out;
    const std::optional<Work> work = EstimateWork(lesson, chapter, params);
    if (!work) return out;
    const PredictCeilings& c = source.ceilings;
    if ((work->bound == Bound::kTf32 && work->flops > 0 && c.tf32_gflops <= 0) ||
        (work->bound == Bound::kBf16 && work->flops > 0 && c.bf16_gflops <= 0))
        return out;
    const Prediction p = Predict(*work, c);
    const bool copies = work->h2d_bytes || work->d2h_bytes;
    // The whole run is what a result without a kernel part times (or, before a run, what a step
    // with copies will be timed by).
    const bool whole = ok ? !kernel_ms : copies;
    if (whole && ((work->h2d_bytes && c.h2d_gbps <= 0) || (work->d2h_bytes && c.d2h_gbps <= 0)))
        return out;
    const double bound = whole ? p.total_ms : p.device_ms;
    if (bound > 0 && std::isfinite(bound)) out.bound_ms = bound;
    return out;
}

GuessCheck CheckGuess(const Guess& guess, const BoundedTime& mine, const BoundedTime& previous,
                      std::optional<double> measured_speedup) {
    GuessCheck out;
    out.guess = guess.value;
    if (!guess.speedup) {
        out.bound = mine.bound_ms;
        out.measured = mine.measured_ms;
        return out;
    }
    if (mine.bound_ms && previous.bound_ms && *mine.bound_ms > 0)
        out.bound = *previous.bound_ms / *mine.bound_ms;
    out.measured = measured_speedup;
    return out;
}

}  // namespace lessons::app

namespace lessons::app {

std::vector<SummaryRow> SummaryRows(const Registry& reg, const Chapter& chapter,
                                    const std::function<const RunResult*(const Lesson&)>& shown,
                                    const Lesson** base) {
    std::vector<SummaryRow> rows;
    const std::vector<const Lesson*> lessons = reg.LessonsOf(chapter);
    auto usable = [](const RunResult* r) { return r && r->verified && r->median_ms > 0; };
    const RunResult* first = nullptr;
    const Lesson* first_lesson = nullptr;
    for (const Lesson* l : lessons)
        if (!first && usable(shown(*l))) {
            first = shown(*l);
            first_lesson = l;
        }
    if (base) *base = first_lesson;
    for (const Lesson* l : lessons) {
        SummaryRow row;
        row.lesson = l;
        row.result = shown(*l);
        // Independent experiments (chapter 2) are not steps of one problem: no speed-ups.
        if (usable(row.result) && !chapter.independent_steps) {
            const Lesson* prev = l->previous ? reg.FindLesson(l->previous) : nullptr;
            const RunResult* p = prev ? shown(*prev) : nullptr;
            if (usable(p)) {
                row.vs_previous = p->median_ms / row.result->median_ms;
                row.previous = p;
            }
            if (usable(first) && l != first_lesson) {
                row.vs_first = first->median_ms / row.result->median_ms;
                row.first = first;
            }
        }
        rows.push_back(row);
    }
    return rows;
}

}  // namespace lessons::app
