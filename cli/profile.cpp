// `profile`: one step under NVIDIA Nsight Compute. ncu runs this program's own `run` of the
// step (--reps 1 --no-ceilings) as a child process, writes its CSV report to a temporary file,
// and the counters come back parsed. Without ncu, without a GPU, or when the driver refuses
// counters to this user, the message says which and how to fix it, and the counters recorded
// on the reference GPU are shown instead (labelled).
#include <algorithm>
#include <atomic>
#include <functional>
#include <iostream>

#include "catalog.h"
#include "commands.h"
#include "device.h"
#include "errors.h"
#include "files.h"
#include "host.h"
#include "profile.h"
#include "report.h"
#include "units.h"

namespace lessons::cli {

namespace {

using Json = nlohmann::ordered_json;

// How long the worker lets ncu run (the CLI takes --timeout).
constexpr double kWorkerProfileTimeoutS = 300;

// "m = 4096, n = 4096, tile = ..., size = 256 MiB" from a profile's params, each value as the
// lesson's parameter writes it (a parameter the lesson no longer has, as recorded).
std::string DescribeParams(const Lesson& lesson, const Json& params) {
    std::string out;
    if (!params.is_object()) return out;
    for (const auto& [name, value] : params.items()) {
        std::string text = value.is_string() ? value.get<std::string>() : value.dump();
        if (const ParamSpec* spec = lesson.FindParam(name); spec && value.is_number_unsigned())
            text = spec->Format(ParamValue::Number(value.get<uint64_t>()));
        out += (out.empty() ? "" : ", ") + name + " = " + text;
    }
    return out;
}

std::string CounterText(const NcuCounter& c) {
    if (!c.value) return c.text;
    const double v = *c.value;
    std::string s =
        (std::abs(v) < 1e15 && v == double(int64_t(v))) ? std::to_string(int64_t(v)) : Fixed(v, 3);
    return c.unit.empty() ? s : s + " " + c.unit;
}

void PrintProfile(const Json& profile, Format format, const std::string& label) {
    if (format == Format::kJson) {
        std::cout << profile.dump(2) << "\n";
        return;
    }
    const std::vector<ProfiledKernel> kernels = KernelsFromJson(profile);
    if (format == Format::kCsv) {
        std::cout << "launch,kernel,metric,unit,value\n";
        for (const ProfiledKernel& k : kernels)
            for (const NcuCounter& c : k.counters)
                std::cout << k.id << "," << CsvField(k.name) << "," << c.name << "," << c.unit
                          << "," << (c.value ? Fixed(*c.value, 6) : CsvField(c.text)) << "\n";
        return;
    }
    std::cout << label << "\n";
    // The last launch of each kernel: the timed one (the earlier ones are the check and the
    // warm-up of the same step).
    std::vector<const ProfiledKernel*> last;
    for (const ProfiledKernel& k : kernels) {
        bool seen = false;
        for (const ProfiledKernel*& l : last)
            if (l->name == k.name) l = &k, seen = true;
        if (!seen) last.push_back(&k);
    }
    for (const ProfiledKernel* k : last) {
        int launches = 0;
        for (const ProfiledKernel& other : kernels) launches += other.name == k->name;
        TextTable t({"kernel", Excerpt(k->name, 90)});
        t.AddRow({"launch", "block " + k->block + ", grid " + k->grid + " (the last of " +
                                std::to_string(launches) + " launches)"});
        for (const NcuCounter& c : k->counters) t.AddRow({c.name, CounterText(c)});
        std::cout << t.Render();
    }
}

}  // namespace

namespace {

// The one profile of the CLI and the worker: live where ncu and a GPU can, else the recorded
// counters with "live_failure" saying why not live; an UnavailableError with both reasons when
// neither. `progress` (the CLI's) is told when ncu starts.
Json ProfileValues(const Lesson& lesson, const ParamValues& values, bool recorded, double timeout_s,
                   const std::atomic<bool>* cancel,
                   const std::function<void(const std::string& ncu)>& progress = {}) {
    std::string recorded_problem;
    auto recorded_or = [&](const std::string& live_failure) {
        std::optional<Json> r = FindRecordedProfile(lesson, values, &recorded_problem);
        if (!r)
            throw UnavailableError(live_failure.empty()
                                       ? recorded_problem
                                       : live_failure + "; and " + recorded_problem);
        (*r)["source"] = "recorded";
        if (!live_failure.empty()) (*r)["live_failure"] = live_failure;
        // Recorded at other settings than asked (the chapter's benchmark size; the defaults
        // where these settings were not profiled): what they were, for the page and scripts.
        if (const ParamValues other = RecordedAtOtherSettings(lesson, values, *r);
            !other.entries().empty())
            (*r)["recorded_at_other_settings"] = ToJson(other);
        return *r;
    };
    if (recorded) return recorded_or("");
    std::string looked;
    const std::optional<std::string> ncu = FindNcu(&looked);
    if (!ncu)
        return recorded_or("no ncu (NVIDIA Nsight Compute) found; looked at " + looked +
                           ". It comes with the CUDA toolkit (or NVIDIA's nsight-compute "
                           "package); set CUDA_LESSONS_NCU to its path if it is elsewhere");
    const DeviceList& devices = GetDevices();
    if (!devices.available())
        return recorded_or("no GPU to profile on: " + devices.unavailable.text);
    const Lesson* previous = RunnableCatalog().FindLesson(lesson.previous);
    if (progress) progress(*ncu);
    const NcuRun run = RunNcu(*ncu, lesson, previous, values, SelfPath(), timeout_s, cancel);
    if (run.cancelled) throw Cancelled();
    if (!run.failure.empty())
        return recorded_or(run.failure + (run.stderr_text.empty()
                                              ? std::string()
                                              : " (the profiled run said: " +
                                                    Excerpt(run.stderr_text, 600) + ")"));
    Json out =
        ProfileToJson(lesson, values, run.kernels, devices.devices.front().name, UtcTimestamp());
    out["source"] = "live";
    return out;
}

}  // namespace

int Profile(const std::string& key, const Options& options, Format format, bool recorded,
            double timeout_s) {
    const Lesson& lesson = FindLessonOrThrow(key);
    if (lesson.kind != StepKind::kGpu)
        throw UsageError(lesson.Name() +
                         " runs on the CPU: ncu profiles GPU kernels; choose a GPU lesson "
                         "(see 'cuda-lessons-cli list')");
    // As `run`: a parameter given with --set that the lesson lacks is an error, one given by a
    // shorthand (--size, --block, --data) a notice.
    CheckUnused({&lesson}, options);
    const ParamValues values = ResolveParams(lesson, options.run.params);
    Json profile;
    try {
        profile = ProfileValues(lesson, values, recorded, timeout_s, CancelFlag(),
                                [&](const std::string& ncu) {
                                    std::cerr << "profiling " << lesson.Name() << " with " << ncu
                                              << " (a few seconds to a minute)\n";
                                });
    } catch (const UnavailableError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return kExitFailed;
    }
    if (profile["source"] == "live") {
        PrintProfile(profile, format,
                     lesson.Name() + ", profiled now on " + profile.value("device", std::string()));
        return kExitOk;
    }
    // Recorded: asked for (exit 0), or shown because a live profile could not be taken (1).
    const bool instead = profile.contains("live_failure");
    if (instead)
        std::cerr << "error: " << profile["live_failure"].get<std::string>()
                  << "\nnote: showing the counters recorded on the reference GPU instead\n";
    if (const auto other = profile.find("recorded_at_other_settings"); other != profile.end())
        std::cerr << "note: recorded at other settings than asked: "
                  << DescribeParams(lesson, *other) << "\n";
    PrintProfile(profile, format,
                 "recorded on " + profile.value("device", std::string("?")) + ", " +
                     profile.value("recorded_at", std::string("?")) + " (not measured here), at " +
                     DescribeParams(lesson, profile.value("params", Json::object())));
    return instead ? kExitFailed : kExitOk;
}

nlohmann::ordered_json ProfileForWorker(const Lesson& lesson, const RawParams& params,
                                        bool recorded, const std::atomic<bool>* cancel) {
    if (lesson.kind != StepKind::kGpu)
        throw UsageError(lesson.Name() + " runs on the CPU: ncu profiles GPU kernels");
    std::vector<std::string> unused;  // the protocol ignores parameters a lesson lacks
    return ProfileValues(lesson, ResolveParams(lesson, params, &unused), recorded,
                         kWorkerProfileTimeoutS, cancel);
}

}  // namespace lessons::cli
