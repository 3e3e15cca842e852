#include "session.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "checked.h"
#include "device.h"
#include "errors.h"
#include "files.h"
#include "gpu_clock.h"
#include "host.h"
#include "units.h"

namespace lessons {
namespace {

// A failed sweep quotes at most this many distinct reasons.
constexpr size_t kQuotedReasons = 5;

void ThrowIfCancelled(const RunControl& control) {
    if (control.cancel && control.cancel->load()) throw Cancelled();
}

std::string ParamNames(const Lesson& lesson) {
    std::string out;
    for (const ParamSpec& p : lesson.params) out += (out.empty() ? "" : ", ") + p.name;
    return out.empty() ? "none" : out;
}

// The medians of every timed part, in the order the step reports them.
std::vector<TimedPart> PartMedians(const std::vector<Sample>& samples) {
    std::vector<TimedPart> out;
    for (const Sample& s : samples)
        for (const TimedPart& p : s.parts)
            if (std::none_of(out.begin(), out.end(),
                             [&](const TimedPart& o) { return o.name == p.name; }))
                out.push_back({p.name, 0});
    for (TimedPart& part : out) {
        std::vector<double> values;
        for (const Sample& s : samples)
            for (const TimedPart& p : s.parts)
                if (p.name == part.name) values.push_back(p.ms);
        part.ms = Median(values);
    }
    return out;
}

// The ceilings of the GPUs a step uses: with several, memory, arithmetic and host-to-device
// figures add up (each GPU has its own memory, SMs and, on the machines we measure, its own
// PCIe link); the peer figure is the copy from the first GPU to the second. A tensor-core
// figure (TF32, bf16) only for a step held to it (its measurement runs cuBLAS).
CeilingFigures FiguresFor(const std::vector<int>& devices, const Work& work) {
    const Bound bound = work.bound;
    CeilingFigures f;
    if (devices.empty()) return f;
    // A memory-bound step is compared with streaming its own bytes (each GPU its share).
    const bool at_own_size = bound == Bound::kRead || bound == Bound::kCopy;
    const uint64_t share = work.MemoryBytes() / devices.size();
    bool tensor_known = IsTensor(bound);
    double& tensor_gflops = bound == Bound::kBf16 ? f.bf16_gflops : f.tf32_gflops;
    std::string& tensor_unavailable =
        bound == Bound::kBf16 ? f.bf16_unavailable : f.tf32_unavailable;
    for (int d : devices) {
        const Ceilings& each = GetCeilings(d);
        if (at_own_size) {
            const MemoryCeilingsAt own = GetMemoryCeilingsAt(d, share);
            f.read_gbps += own.read_gbps;
            f.copy_gbps += own.copy_gbps;
            f.memory_bytes = own.bytes;
        } else {
            f.read_gbps += each.read_gbps;
            f.copy_gbps += each.copy_gbps;
            f.memory_bytes = each.memory_bytes;
        }
        f.fp32_gflops += each.fp32_gflops;
        f.h2d_gbps += each.h2d_gbps;
        if (IsTensor(bound)) {
            const TensorCeiling t = GetTensorCeiling(bound, d);
            tensor_gflops += t.gflops;
            if (t.gflops <= 0 && tensor_unavailable.empty())
                tensor_unavailable = "GPU " + std::to_string(d) + ": " + t.unavailable;
            tensor_known = tensor_known && t.gflops > 0;
        }
    }
    if (!tensor_known) tensor_gflops = 0;  // all of the GPUs' or none
    const Ceilings& c = GetCeilings(devices.front());
    if (devices.size() > 1 && c.peer_gbps.size() > size_t(devices[1]))
        f.peer_gbps = c.peer_gbps[devices[1]];
    return f;
}

}  // namespace

ParamValues ResolveParams(const Lesson& lesson, const RawParams& raw,
                          std::vector<std::string>* unused) {
    // Typed here, at the boundary: each text by its parameter's own rule (the last one given
    // wins), then resolved by the engine's one rule, refusing what a parameter does not take.
    std::map<std::string, const std::string*> last;
    for (const auto& [name, text] : raw) {
        if (lesson.FindParam(name)) {
            last[name] = &text;
            continue;
        }
        if (!unused)
            throw UsageError("lesson " + lesson.label + " has no parameter '" + Excerpt(name, 40) +
                             "': its parameters are " + ParamNames(lesson));
        if (std::find(unused->begin(), unused->end(), name) == unused->end())
            unused->push_back(name);
    }
    std::map<std::string, ParamValue> given;
    for (const ParamSpec& spec : lesson.params)  // in the lesson's order, as before
        if (auto it = last.find(spec.name); it != last.end())
            given[spec.name] = spec.Parse(*it->second);
    return ResolveParams(lesson.params, given, Unaccepted::kRefuse);
}

std::vector<int> DevicesFor(const Lesson& lesson, const ParamValues& params) {
    if (lesson.kind != StepKind::kGpu) return {};
    uint64_t wanted = 1;
    for (const ParamSpec& p : lesson.params)
        if (p.gpu_count && params.Has(p.name)) wanted = params.Number(p.name);
    const int present = GetDevices().count();
    if (wanted > uint64_t(std::max(present, 1)))
        throw UsageError("gpus " + std::to_string(wanted) + " is more than the " +
                         std::to_string(present) + " GPU" + (present == 1 ? "" : "s") +
                         " present: use 1 to " + std::to_string(std::max(present, 1)));
    std::vector<int> out;
    for (uint64_t i = 0; i < wanted; ++i) out.push_back(static_cast<int>(i));
    return out;
}

Message Session::UnavailableMessage(const Lesson& lesson) const {
    if (lesson.kind == StepKind::kGpu) {
        if (!lesson.runner.make) return Message::Of(kNoCudaForLesson);
        const DeviceList& devices = GetDevices();
        if (!devices.available()) return devices.unavailable;
    }
    if (!lesson.runner.make) return Message::Of(kNoRunner);
    if (lesson.runner.unavailable) return Message::Plain(lesson.runner.unavailable());
    return {};
}

std::string Session::Unavailable(const Lesson& lesson) const {
    return UnavailableMessage(lesson).text;
}

void Session::ReleaseWorkload() {
    if (!m_workload) return;
    m_workload.reset();
    m_workload_chapter.clear();
    m_workload_spec = WorkloadSpec();
    ReturnFreedMemory();
}

std::shared_ptr<Workload> Session::GetWorkload(const Chapter& chapter, const WorkloadSpec& spec,
                                               uint64_t step_host_bytes) {
    // A file can change between runs while keeping its name and size: only generated data
    // (fully described by its spec) is reused.
    if (m_workload && spec.input_file.empty() && m_workload_chapter == chapter.id &&
        m_workload_spec.SameData(spec))
        return m_workload;
    m_workload.reset();  // free the old one before making the new one
    const uint64_t workload_bytes = chapter.workload_host_bytes(spec.params);
    const uint64_t needed = SaturatingAdd(workload_bytes, step_host_bytes);
    const uint64_t available = HostAvailableMemory();
    if (needed > available) {
        // A file's contents are unknown until read: its estimate is the most such data could
        // need (the reference answer grows with what the file holds), not what it will take.
        const bool file = !spec.input_file.empty();
        throw UsageError(
            (file ? "the input file '" + Excerpt(spec.input_file, 80) + "' (" +
                        FormatSize(RegularFileSize(spec.input_file)) + ") may need up to "
                  : chapter.describe(spec.params) + " needs about ") +
            FormatSize(needed) +
            " of host memory (input, reference answer and the step's buffers) but only " +
            FormatSize(available) + " is available; " +
            (file ? "use a smaller file" : "choose a smaller size"));
    }
    m_workload = chapter.make_workload(spec);
    m_workload_chapter = chapter.id;
    m_workload_spec = spec;
    m_workload_spec.cancel = nullptr;
    return m_workload;
}

namespace {

// Options that are wrong on every machine, refused before availability is asked.
void CheckOptions(const Chapter& chapter, const RunOptions& options) {
    if (!options.input_file.empty() && !chapter.accepts_input_file)
        throw UsageError("chapter " + chapter.id + " does not take an input file");
    if (!options.output_file.empty() && !chapter.accepts_input_file)
        throw UsageError("chapter " + chapter.id + " has no output file to write");
    if (options.reps && (*options.reps < 1 || *options.reps > kMaxRequestedReps))
        throw UsageError("reps " + std::to_string(*options.reps) +
                         " is out of range: use a whole number from 1 to " +
                         std::to_string(kMaxRequestedReps));
}

// The data a run works on: its chapter's parameters (from the input file, when one is given).
WorkloadSpec MakeSpec(const Chapter& chapter, const RunOptions& options, const RunControl& control,
                      ParamValues& params) {
    WorkloadSpec spec;
    spec.seed = options.seed;
    spec.input_file = options.input_file;
    spec.cancel = control.cancel;
    if (!spec.input_file.empty()) {
        const ParamValues from_file = chapter.params_of_file(RegularFileSize(spec.input_file));
        for (const auto& [name, value] : from_file.entries()) params.Set(name, value);
    }
    std::vector<std::string> chapter_params;
    for (const ParamSpec& p : chapter.params) chapter_params.push_back(p.name);
    spec.params = params.Subset(chapter_params);
    return spec;
}

// Refuses a step that needs more memory than a GPU it uses has free (before any allocation).
void CheckDeviceMemory(const Lesson& lesson, const Chapter& chapter, const WorkloadSpec& spec,
                       const MemoryNeeds& needs, const std::vector<int>& devices) {
    for (int d : devices) {
        const DeviceMemory memory = QueryDeviceMemory(d);
        if (needs.device_bytes > memory.free_bytes)
            throw UsageError(chapter.describe(spec.params) + " needs " +
                             FormatSize(needs.device_bytes) + " of GPU memory for lesson " +
                             lesson.label + " but only " + FormatSize(memory.free_bytes) + " of " +
                             FormatSize(memory.total_bytes) + " is free on GPU " +
                             std::to_string(d) + "; choose a smaller size");
    }
}

// What a result says about what ran, before anything is timed.
RunResult Describe(const Lesson& lesson, const Chapter& chapter, const RunOptions& options,
                   const WorkloadSpec& spec, const ParamValues& params,
                   const std::vector<int>& devices) {
    RunResult r;
    r.lesson = lesson.number;
    r.label = lesson.label;
    r.id = lesson.id;
    r.title = lesson.title;
    r.chapter = chapter.id;
    r.kind = lesson.kind;
    r.params = params;
    if (!spec.input_file.empty()) {
        r.input = spec.input_file;
        if (r.params.Has("data"))
            r.params.Set("data", ParamValue::Choice(std::string(kFileChoice)));
    }
    r.seed = spec.seed;
    r.cold_l2 = options.cold_l2 && lesson.kind == StepKind::kGpu;
    r.timestamp = UtcTimestamp();
    r.source_key = lesson.source_key;
    if (lesson.kind == StepKind::kGpu) {
        for (int d : devices) r.devices.push_back(GetDevices().devices[size_t(d)].name);
        if (lesson.runner.attributes) r.attributes = lesson.runner.attributes(params);
    } else {
        r.devices.push_back(GetHostInfo().cpu_name);
    }
    return r;
}

// The timed samples after a verified first run: `options.reps` of them, or as many as fill
// min_time_s (at least min_reps, at most MaxAutomaticReps(min_time_s), stopping at max_time_s).
std::vector<Sample> TimeSamples(StepInstance& step, const RunOptions& options,
                                const RunControl& control, const std::function<void()>& flush,
                                const std::function<void()>& after_sample) {
    std::vector<Sample> samples;
    const int fixed = options.reps.value_or(0);
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const int most = MaxAutomaticReps(options.min_time_s);
    for (;;) {
        ThrowIfCancelled(control);
        flush();
        samples.push_back(step.Run());
        if (after_sample) after_sample();
        const int n = static_cast<int>(samples.size());
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        int total = fixed;
        if (!fixed) {
            // Estimate how many samples the time budget allows, for the progress bar.
            const double per = elapsed / n;
            const double target =
                std::max(options.min_time_s / std::max(per, 1e-9), double(options.min_reps));
            total = static_cast<int>(std::min<double>(target, most));
            total = std::max(total, n);
        }
        if (control.progress) control.progress(n, total);
        if (fixed) {
            if (n >= fixed) break;
        } else if ((n >= options.min_reps && elapsed >= options.min_time_s) || n >= most ||
                   (n >= 1 && elapsed >= options.max_time_s)) {
            break;
        }
    }
    return samples;
}

// The statistics of the samples.
void Summarize(const std::vector<Sample>& samples, RunResult& r) {
    for (const Sample& s : samples) r.samples_ms.push_back(s.total_ms);
    r.reps = static_cast<int>(samples.size());
    r.median_ms = Median(r.samples_ms);
    r.min_ms = *std::min_element(r.samples_ms.begin(), r.samples_ms.end());
    r.max_ms = *std::max_element(r.samples_ms.begin(), r.samples_ms.end());
    SetMedianInterval(r);
    r.parts = PartMedians(samples);
}

}  // namespace

void CheckRun(const Registry& registry, const Lesson& lesson, const RunOptions& options) {
    std::vector<std::string> unused;
    ResolveParams(lesson, options.params, &unused);
    CheckOptions(registry.ChapterOf(lesson), options);
}

RunResult Session::Run(const Lesson& lesson, const RunOptions& options, const RunControl& control) {
    // Bad options are reported as such on every machine, before availability.
    const Chapter& chapter = m_registry.ChapterOf(lesson);
    std::vector<std::string> unused;
    ParamValues params = ResolveParams(lesson, options.params, &unused);
    CheckOptions(chapter, options);
    const std::string why_not = Unavailable(lesson);
    if (!why_not.empty()) throw UnavailableError(lesson.Name() + " cannot run here: " + why_not);
    const std::vector<int> devices = DevicesFor(lesson, params);
    const WorkloadSpec spec = MakeSpec(chapter, options, control, params);

    // Memory checks come before any allocation.
    const MemoryNeeds needs = lesson.needs(params);
    CheckDeviceMemory(lesson, chapter, spec, needs, devices);
    ThrowIfCancelled(control);
    std::shared_ptr<Workload> workload = GetWorkload(chapter, spec, needs.host_bytes);
    ThrowIfCancelled(control);

    RunResult r = Describe(lesson, chapter, options, spec, params, devices);
    const bool gpu_ceilings = lesson.kind == StepKind::kGpu && options.measure_ceilings;
    // The work rule the lesson declares: the page predicts from it, and the run reports it.
    const std::optional<Work> declared = EstimateWork(lesson, chapter, params);
    // A tensor-core step's ceiling (TF32, bf16) is measured (once per device and process)
    // before its own buffers are allocated and its runs timed.
    if (gpu_ceilings) {
        if (declared && IsTensor(declared->bound))
            for (int d : devices) GetTensorCeiling(declared->bound, d);
    }
    std::unique_ptr<StepInstance> step =
        lesson.runner.make(*workload, StepContext{params, devices, control.cancel});
    const std::function<void()> flush = [&] {
        if (r.cold_l2)
            for (int d : devices) FlushL2(d);
    };
    struct ColdL2ForThisRun {
        explicit ColdL2ForThisRun(bool cold) { SetColdL2Timing(cold); }
        ~ColdL2ForThisRun() { SetColdL2Timing(false); }
    } cold_l2_for_this_run(r.cold_l2);

    // Check first: the first run is verified before anything is timed.
    flush();
    const Sample first = step->Run();
    const Check check = step->Verify();
    r.verified = check.ok;
    r.check_message = check.message;
    r.check_message_id = check.message_id;
    r.check_message_args = check.message_args;
    r.values = check.values;
    for (NamedValue& v : step->Extras()) r.values.push_back(std::move(v));
    r.work = declared ? step->Measured(*declared) : step->GetWork();
    if (!options.output_file.empty())
        WriteFileReplacing(options.output_file, [&](std::ostream& out) { step->WriteOutput(out); });

    // A wrong answer is reported with its one run, never compared as valid. A CPU step's
    // timing also reads how many cores other processes kept busy meanwhile.
    const bool cpu = lesson.kind == StepKind::kCpu;
    const CpuTimes cpu_before = cpu ? ReadCpuTimes() : CpuTimes{};
    const auto timed_from = std::chrono::steady_clock::now();
    // A GPU step's SM clock, read after each sample (a sample ends with the GPU's work done):
    // the clock its time was measured at, and what held it below the highest.
    std::vector<GpuClockReading> clocks;
    const std::string bus =
        !cpu && !devices.empty() && size_t(devices[0]) < GetDevices().devices.size()
            ? GetDevices().devices[size_t(devices[0])].pci_bus_id
            : std::string();
    const std::function<void()> read_clock = [&] {
        if (const auto c = ReadGpuClock(bus)) clocks.push_back(*c);
    };
    Summarize(check.ok ? TimeSamples(*step, options, control, flush,
                                     bus.empty() ? std::function<void()>() : read_clock)
                       : std::vector<Sample>{first},
              r);
    if (const auto clock = SummarizeClock(clocks)) {
        r.sm_clock_mhz = clock->sm_mhz;
        if (clock->max_sm_mhz > 0) r.sm_clock_max_mhz = clock->max_sm_mhz;
        r.clock_limits = ClockReasonIds(clock->reasons);
    }
    if (cpu && check.ok)
        r.other_cores_busy = OtherCoresBusy(
            cpu_before, ReadCpuTimes(),
            std::chrono::duration<double>(std::chrono::steady_clock::now() - timed_from).count());
    if (gpu_ceilings) {
        const CeilingFigures figures = FiguresFor(devices, r.work);
        DeriveMetrics(r, &figures);
    } else {
        DeriveMetrics(r, nullptr);
    }
    return r;
}

std::vector<RunResult> RunInTurn(Session& session, const std::vector<const Lesson*>& lessons,
                                 const RunOptions& options, int trials, const RunControl& control) {
    if (lessons.empty()) throw UsageError("no lessons to time in turn");
    if (trials < 1 || trials > kMaxTrials)
        throw UsageError("trials must be 1 to " + std::to_string(kMaxTrials) + ", not " +
                         std::to_string(trials));
    // Every lesson's options refused before anything runs.
    for (const Lesson* l : lessons) {
        CheckRun(session.registry(), *l, options);
        if (std::count(lessons.begin(), lessons.end(), l) > 1)
            throw UsageError("lesson " + l->label + " is given twice: time it against another");
    }
    RunOptions each = options;
    if (options.reps) {
        each.reps = std::max(1, (*options.reps + trials - 1) / trials);
    } else {
        each.min_time_s = options.min_time_s / trials;
        each.max_time_s = options.max_time_s / trials;
        each.min_reps = std::max(1, (kMinReps + trials - 1) / trials);
    }
    std::vector<std::vector<RunResult>> runs(lessons.size());
    const int calls = trials * static_cast<int>(lessons.size());
    int call = 0, samples_before = 0;
    for (int t = 0; t < trials; ++t) {
        for (size_t k = 0; k < lessons.size(); ++k) {
            const size_t i = InTurnIndex(lessons.size(), t, k);
            RunControl one = control;
            if (control.progress) {
                // The samples of every run so far, and the rest estimated from this one's.
                one.progress = [&control, samples_before, rest = calls - call - 1](int done,
                                                                                   int total) {
                    control.progress(samples_before + done, samples_before + total * (1 + rest));
                };
            }
            RunResult r = session.Run(*lessons[i], each, one);
            ++call;
            samples_before += static_cast<int>(r.samples_ms.size());
            const bool wrong = !r.verified;
            runs[i].push_back(std::move(r));
            if (wrong) {
                // The wrong run stands for its lesson; the others pool what ran.
                std::vector<RunResult> out;
                for (size_t j = 0; j < lessons.size(); ++j)
                    if (j == i)
                        out.push_back(runs[j].back());
                    else if (!runs[j].empty())
                        out.push_back(PoolTrials(runs[j]));
                return out;
            }
        }
    }
    std::vector<RunResult> out;
    for (const std::vector<RunResult>& r : runs) out.push_back(PoolTrials(r));
    return out;
}

std::vector<SweepPoint> PlanSweep(const Lesson& lesson, const RunOptions& base,
                                  const std::string& param, const std::string& range) {
    const ParamSpec* spec = lesson.FindParam(param);
    if (!spec) {
        std::string why = "its parameters are " + ParamNames(lesson);
        if (param == "block")
            why = lesson.library ? "the library chooses its own"
                                 : (lesson.kind == StepKind::kCpu ? "it runs on the CPU" : why);
        throw UsageError(
            "lesson " + lesson.label + " has no " +
            (param == "block" ? std::string("block size") : "parameter '" + param + "'") +
            " to sweep (" + why + ")");
    }
    if (!base.input_file.empty() && spec->name == "size")
        throw UsageError("a size sweep generates its data; it cannot use an input file");
    std::vector<std::string> texts;
    if (range == "all") {
        for (const ParamValue& v : spec->Values()) texts.push_back(spec->Format(v));
        if (texts.empty())
            throw UsageError(spec->name +
                             " has too many values to sweep all of them: give a "
                             "range such as A..B");
        if (spec->type != ParamType::kChoice) {
            texts.clear();
            for (const ParamValue& v : spec->Values()) texts.push_back(std::to_string(v.number));
        }
    } else if (spec->type == ParamType::kChoice) {
        std::string_view s = range;
        while (true) {
            const size_t comma = s.find(',');
            texts.emplace_back(s.substr(0, comma));
            if (texts.size() > kMaxSweepPoints)
                throw UsageError("list '" + Excerpt(range, 40) + "' has more than " +
                                 std::to_string(kMaxSweepPoints) + " values: sweep fewer");
            if (comma == std::string_view::npos) break;
            s.remove_prefix(comma + 1);
        }
    } else {
        const auto parse = spec->type == ParamType::kBytes ? &ParseSize : &ParseCount;
        for (uint64_t v : ParseRange(range, parse)) texts.push_back(std::to_string(v));
    }
    std::vector<SweepPoint> points;
    // Each distinct reason once, the first few of them quoted (a set: no quadratic search).
    std::set<std::string> seen;
    std::string reasons;
    for (const std::string& text : texts) {
        SweepPoint p;
        p.options = base;
        p.options.Set(spec->name, text);
        p.value = text;
        try {
            spec->Parse(text);
        } catch (const UsageError& e) {
            p.skip_reason = e.what();
            if (seen.insert(p.skip_reason).second && seen.size() <= kQuotedReasons)
                reasons += "\n  " + p.skip_reason;
        }
        points.push_back(std::move(p));
    }
    if (seen.size() > kQuotedReasons)
        reasons += "\n  (and " + std::to_string(seen.size() - kQuotedReasons) + " more)";
    if (std::all_of(points.begin(), points.end(),
                    [](const SweepPoint& p) { return !p.skip_reason.empty(); }))
        throw UsageError("nothing to sweep: no value of '" + Excerpt(range, 40) +
                         "' is accepted by lesson " + lesson.label + ":" + reasons);
    return points;
}

}  // namespace lessons
