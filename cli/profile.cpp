// `profile`: one step under NVIDIA Nsight Compute. ncu runs this program's own `run` of the
// step (--reps 1 --no-ceilings) as a child process, writes its CSV report to a temporary file,
// and the counters come back parsed. Without ncu, without a GPU, or when the driver refuses
// counters to this user, the message says which and how to fix it, and the counters recorded
// on the reference GPU are shown instead (labelled).
#include <algorithm>
#include <atomic>
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

// "m = 4096, n = 4096, tile = ..." from a profile's params.
std::string DescribeParams(const Json& params) {
    std::string out;
    if (!params.is_object()) return out;
    for (const auto& [name, value] : params.items())
        out += (out.empty() ? "" : ", ") + name + " = " +
               (value.is_string() ? value.get<std::string>() : value.dump());
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

// The recorded counters, labelled, or why there are none.
int ShowRecorded(const Lesson& lesson, const ParamValues& values, Format format, bool asked_for) {
    std::string problem;
    const std::optional<Json> recorded = FindRecordedProfile(lesson, values, &problem);
    if (!recorded) {
        std::cerr << (asked_for ? "error: " : "note: ") << problem << "\n";
        return kExitFailed;
    }
    const std::string label = "recorded on " + recorded->value("device", std::string("?")) + ", " +
                              recorded->value("recorded_at", std::string("?")) +
                              " (not measured here), at " +
                              DescribeParams(recorded->value("params", Json::object()));
    Json out = *recorded;
    out["source"] = "recorded";
    PrintProfile(out, format, label);
    return asked_for ? kExitOk : kExitFailed;
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
    std::vector<std::string> unused;
    const ParamValues values = ResolveParams(lesson, options.run.params, &unused);
    for (const std::string& name : unused) {
        if (std::find(options.from_set.begin(), options.from_set.end(), name) !=
            options.from_set.end())
            throw UsageError(lesson.Name() + " has no parameter '" + Excerpt(name, 40) + "'");
        std::cerr << "note: " << lesson.Name() << " has no parameter '" << Excerpt(name, 40)
                  << "'; it is ignored\n";
    }
    if (recorded) return ShowRecorded(lesson, values, format, true);

    std::string looked;
    const std::optional<std::string> ncu = FindNcu(&looked);
    if (!ncu) {
        std::cerr << "error: no ncu (NVIDIA Nsight Compute) found; looked at " << looked
                  << ". It comes with the CUDA toolkit (or NVIDIA's nsight-compute package); "
                     "set CUDA_LESSONS_NCU to its path if it is elsewhere.\n";
        return ShowRecorded(lesson, values, format, false);
    }
    const DeviceList& devices = GetDevices();
    if (!devices.available()) {
        std::cerr << "error: no GPU to profile on: " << devices.unavailable_reason << "\n";
        return ShowRecorded(lesson, values, format, false);
    }
    const Lesson* previous = RunnableCatalog().FindLesson(lesson.previous);
    std::cerr << "profiling " << lesson.Name() << " with " << *ncu
              << " (a few seconds to a minute)\n";
    static std::atomic<bool> cancel{false};
    const NcuRun run =
        RunNcu(*ncu, lesson, previous, values, SelfPath(), timeout_s, &cancel, [](int) {
            if (CancelRequested()) cancel = true;
        });
    if (run.cancelled || CancelRequested()) throw Cancelled();
    if (!run.failure.empty()) {
        std::cerr << "error: " << run.failure
                  << (run.timed_out ? " (--timeout sets the limit)" : "") << "\n";
        if (!run.stderr_text.empty())
            std::cerr << "the profiled run said: " << Excerpt(run.stderr_text, 600) << "\n";
        return ShowRecorded(lesson, values, format, false);
    }
    const std::vector<ProfiledKernel>& kernels = run.kernels;
    const std::string device = devices.devices.front().name;
    Json out = ProfileToJson(lesson, values, kernels, device, UtcTimestamp());
    out["source"] = "live";
    PrintProfile(out, format, lesson.Name() + ", profiled now on " + device);
    return kExitOk;
}

nlohmann::ordered_json ProfileForWorker(const Lesson& lesson, const RawParams& params,
                                        bool recorded, const std::atomic<bool>* cancel) {
    if (lesson.kind != StepKind::kGpu)
        throw UsageError(lesson.Name() + " runs on the CPU: ncu profiles GPU kernels");
    std::vector<std::string> unused;  // the protocol ignores parameters a lesson lacks
    const ParamValues values = ResolveParams(lesson, params, &unused);
    std::string recorded_problem;
    auto recorded_or = [&](const std::string& live_failure) {
        std::optional<Json> r = FindRecordedProfile(lesson, values, &recorded_problem);
        if (!r)
            throw UnavailableError(live_failure.empty()
                                       ? recorded_problem
                                       : live_failure + "; and " + recorded_problem);
        (*r)["source"] = "recorded";
        if (!live_failure.empty()) (*r)["live_failure"] = live_failure;
        return *r;
    };
    if (recorded) return recorded_or("");
    std::string looked;
    const std::optional<std::string> ncu = FindNcu(&looked);
    if (!ncu)
        return recorded_or("no ncu (NVIDIA Nsight Compute) found; looked at " + looked +
                           "; it comes with the CUDA toolkit, or set CUDA_LESSONS_NCU");
    const DeviceList& devices = GetDevices();
    if (!devices.available())
        return recorded_or("no GPU to profile on: " + devices.unavailable_reason);
    const Lesson* previous = RunnableCatalog().FindLesson(lesson.previous);
    const NcuRun run = RunNcu(*ncu, lesson, previous, values, SelfPath(), 300, cancel);
    if (run.cancelled) throw Cancelled();
    if (!run.failure.empty()) return recorded_or(run.failure);
    Json out =
        ProfileToJson(lesson, values, run.kernels, devices.devices.front().name, UtcTimestamp());
    out["source"] = "live";
    return out;
}

}  // namespace lessons::cli
