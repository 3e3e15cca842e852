#include "runner.h"

#include <algorithm>
#include <chrono>

#include "checked.h"
#include "device.h"
#include "errors.h"
#include "files.h"
#include "host.h"
#include "units.h"

namespace lessons {
namespace {

void ThrowIfCancelled(const RunControl& control) {
    if (control.cancel && control.cancel->load()) throw Cancelled();
}

std::optional<double> MedianOf(const std::vector<Sample>& samples,
                               std::optional<double> Sample::*part) {
    std::vector<double> values;
    for (const Sample& s : samples)
        if (s.*part) values.push_back(*(s.*part));
    if (values.empty()) return std::nullopt;
    return Median(values);
}

std::string BlockChoices(const BlockSpec& spec) {
    std::string out;
    const std::vector<int> choices = spec.Choices();
    for (size_t i = 0; i < choices.size(); ++i) out += (i ? ", " : "") + std::to_string(choices[i]);
    return out;
}

}  // namespace

double Median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

StepConfig ResolveConfig(const Lesson& lesson, const RunOptions& options) {
    StepConfig config;
    if (lesson.blocks) {
        const BlockSpec& spec = *lesson.blocks;
        config.block = options.block.value_or(spec.default_block);
        if (!spec.Accepts(config.block)) {
            std::string msg = "block size " + std::to_string(config.block) +
                              " is not accepted by lesson " + std::to_string(lesson.number) +
                              ": use a multiple of 32 from " + std::to_string(spec.min) + " to " +
                              std::to_string(spec.max);
            if (spec.power_of_two) msg += " that is a power of two";
            msg += " (" + BlockChoices(spec) + ")";
            if (!spec.why.empty()) msg += "; " + spec.why;
            throw UsageError(msg);
        }
    }
    if (lesson.uses_threads) {
        config.threads = options.threads.value_or(GetHostInfo().hardware_threads);
        if (config.threads < 1 || config.threads > 1024)
            throw UsageError("thread count " + std::to_string(config.threads) +
                             " is out of range: use 1 to 1024 (this machine has " +
                             std::to_string(GetHostInfo().hardware_threads) + " hardware threads)");
    }
    return config;
}

std::string Session::Unavailable(const Lesson& lesson) const {
    if (lesson.kind == StepKind::kGpu) {
        if (!lesson.make) return "this build has no CUDA support";
        const DeviceInfo& device = GetDeviceInfo();
        if (!device.available()) return device.unavailable_reason;
    }
    if (!lesson.make) return "this build has no runner for it";
    return {};
}

std::shared_ptr<Workload> Session::GetWorkload(const Chapter& chapter, const WorkloadSpec& spec,
                                               uint64_t step_host_bytes) {
    // A file can change between runs while keeping its name and size: only generated data
    // (fully described by its spec) is reused.
    if (m_workload && spec.input_file.empty() && m_workload_chapter == chapter.id &&
        m_workload_spec == spec)
        return m_workload;
    m_workload.reset();  // free the old one before making the new one
    const uint64_t needed =
        SaturatingAdd(chapter.workload_host_bytes(spec.size_bytes), step_host_bytes);
    const uint64_t available = HostAvailableMemory();
    if (needed > available)
        throw UsageError("size " + FormatSize(spec.size_bytes) + " needs about " +
                         FormatSize(needed) + " of host memory (input, reference answer and " +
                         "the step's buffers) but only " + FormatSize(available) +
                         " is available; choose a smaller size");
    m_workload = chapter.make_workload(spec);
    m_workload_chapter = chapter.id;
    m_workload_spec = spec;
    return m_workload;
}

RunResult Session::Run(const Lesson& lesson, const RunOptions& options, const RunControl& control) {
    // Bad options are reported as such on every machine, before availability.
    const Chapter& chapter = m_registry.ChapterOf(lesson);
    const StepConfig config = ResolveConfig(lesson, options);
    const std::string why_not = Unavailable(lesson);
    if (!why_not.empty())
        throw UnavailableError("lesson " + std::to_string(lesson.number) + " (" + lesson.id +
                               ") cannot run here: " + why_not);
    if (!options.input_file.empty() && !chapter.accepts_input_file)
        throw UsageError("chapter " + chapter.id + " does not take an input file");
    if (!options.output_file.empty() && !chapter.accepts_input_file)
        throw UsageError("chapter " + chapter.id + " has no output file to write");
    if (options.reps && (*options.reps < 1 || *options.reps > 100000))
        throw UsageError("reps " + std::to_string(*options.reps) +
                         " is out of range: use 1 to 100000");

    WorkloadSpec spec;
    spec.size_bytes = options.size_bytes.value_or(chapter.default_size);
    spec.data = options.data.value_or(chapter.data_kinds.front());
    if (std::find(chapter.data_kinds.begin(), chapter.data_kinds.end(), spec.data) ==
        chapter.data_kinds.end()) {
        std::string kinds;
        for (DataKind k : chapter.data_kinds)
            kinds += std::string(kinds.empty() ? "" : ", ") + ToString(k);
        throw UsageError("data kind '" + std::string(ToString(spec.data)) +
                         "' is not made by chapter " + chapter.id + ": use " + kinds);
    }
    if (spec.size_bytes % chapter.element_bytes != 0)
        throw UsageError("size " + std::to_string(spec.size_bytes) +
                         " B is not a whole number of " + std::to_string(chapter.element_bytes) +
                         "-byte elements (chapter " + chapter.id + ")");
    spec.seed = options.seed;
    spec.input_file = options.input_file;
    spec.cancel = control.cancel;
    if (!spec.input_file.empty()) spec.size_bytes = RegularFileSize(spec.input_file);

    // Memory checks come before any allocation.
    const MemoryNeeds needs = lesson.needs(spec.size_bytes);
    if (lesson.kind == StepKind::kGpu) {
        const DeviceMemory memory = QueryDeviceMemory();
        if (needs.device_bytes > memory.free_bytes)
            throw UsageError("size " + FormatSize(spec.size_bytes) + " needs " +
                             FormatSize(needs.device_bytes) + " of GPU memory for lesson " +
                             std::to_string(lesson.number) + " but only " +
                             FormatSize(memory.free_bytes) + " of " +
                             FormatSize(memory.total_bytes) + " is free; choose a smaller size");
    }
    ThrowIfCancelled(control);
    std::shared_ptr<Workload> workload = GetWorkload(chapter, spec, needs.host_bytes);
    ThrowIfCancelled(control);

    RunResult r;
    r.lesson = lesson.number;
    r.id = lesson.id;
    r.title = lesson.title;
    r.chapter = chapter.id;
    r.kind = lesson.kind;
    r.size_bytes = spec.size_bytes;
    if (lesson.blocks) r.block = config.block;
    if (lesson.uses_threads) r.threads = config.threads;
    r.data = spec.input_file.empty() ? ToString(spec.data) : "file";
    r.seed = spec.seed;
    r.cold_l2 = options.cold_l2 && lesson.kind == StepKind::kGpu;
    r.timestamp = UtcTimestamp();
    if (lesson.kind == StepKind::kGpu) {
        r.device = GetDeviceInfo().name;
        if (lesson.attributes) r.attributes = lesson.attributes(config.block);
    } else {
        r.device = GetHostInfo().cpu_name;
    }

    std::unique_ptr<StepInstance> step = lesson.make(*workload, config);

    // Check first: the first run is verified before anything is timed.
    if (r.cold_l2) FlushL2();
    const Sample first = step->Run();
    const Check check = step->Verify();
    r.verified = check.ok;
    r.check_message = check.message;
    r.found = check.found;
    r.value = check.value;
    r.expected = check.expected;
    r.bytes_moved = step->BytesMoved();
    r.extra = step->Extras();
    if (!options.output_file.empty())
        WriteFileReplacing(options.output_file, [&](std::ostream& out) { step->WriteOutput(out); });

    std::vector<Sample> samples;
    if (!check.ok) {
        samples.push_back(first);  // reported, never compared as valid
    } else {
        const int fixed = options.reps.value_or(0);
        using Clock = std::chrono::steady_clock;
        const auto start = Clock::now();
        for (;;) {
            ThrowIfCancelled(control);
            if (r.cold_l2) FlushL2();
            samples.push_back(step->Run());
            const int n = static_cast<int>(samples.size());
            const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
            int total = fixed;
            if (!fixed) {
                // Estimate how many samples the time budget allows, for the progress bar.
                const double per = elapsed / n;
                const double target =
                    std::max(options.min_time_s / std::max(per, 1e-9), double(kMinReps));
                total = static_cast<int>(std::min<double>(target, kMaxReps));
                total = std::max(total, n);
            }
            if (control.progress) control.progress(n, total);
            if (fixed) {
                if (n >= fixed) break;
            } else if ((n >= kMinReps && elapsed >= options.min_time_s) || n >= kMaxReps ||
                       (n >= 1 && elapsed >= options.max_time_s)) {
                break;
            }
        }
    }

    for (const Sample& s : samples) r.samples_ms.push_back(s.total_ms);
    r.reps = static_cast<int>(samples.size());
    r.median_ms = Median(r.samples_ms);
    r.min_ms = *std::min_element(r.samples_ms.begin(), r.samples_ms.end());
    r.max_ms = *std::max_element(r.samples_ms.begin(), r.samples_ms.end());
    r.h2d_ms = MedianOf(samples, &Sample::h2d_ms);
    r.kernel_ms = MedianOf(samples, &Sample::kernel_ms);
    r.d2h_ms = MedianOf(samples, &Sample::d2h_ms);
    const double compute_ms = r.kernel_ms.value_or(r.median_ms);
    r.gbps = compute_ms > 0 ? double(r.bytes_moved) / (compute_ms * 1e6) : 0;
    if (lesson.kind == StepKind::kGpu) {
        const double ceiling = MeasuredCopyGbps();
        if (ceiling > 0) {
            r.ceiling_gbps = ceiling;
            r.pct_of_ceiling = 100.0 * r.gbps / ceiling;
        }
    }
    return r;
}

}  // namespace lessons

namespace lessons {

std::vector<SweepPoint> PlanSweep(const Lesson& lesson, const RunOptions& base, SweepAxis axis,
                                  const std::vector<uint64_t>& values) {
    if (axis == SweepAxis::kBlock && !lesson.blocks)
        throw UsageError(
            "lesson " + std::to_string(lesson.number) + " has no block size to sweep (" +
            (lesson.library ? "the library chooses its own" : "it runs on the CPU") + ")");
    std::vector<SweepPoint> points;
    for (uint64_t v : values) {
        SweepPoint p;
        p.options = base;
        if (axis == SweepAxis::kBlock) {
            const int block = v > 4096 ? 0 : static_cast<int>(v);
            p.options.block = block;
            try {
                ResolveConfig(lesson, p.options);
            } catch (const UsageError& e) {
                p.skip_reason = e.what();
            }
        } else {
            if (!base.input_file.empty())
                throw UsageError("a size sweep generates its data; it cannot use an input file");
            p.options.size_bytes = v;
        }
        points.push_back(std::move(p));
    }
    return points;
}

}  // namespace lessons
