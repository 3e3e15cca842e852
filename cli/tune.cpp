// `tune`: runs a step at each of its launch shapes (block sizes or tiles) or, on the CPU, its
// thread counts, on this machine and at the given parameters; shows the sweep; and remembers
// the fastest verified one for this GPU model (or CPU) in the user's data folder, beside the
// time at the declared default measured in the same run. The worker's `tune` request measures
// the same way (TuneForWorker), each run sent as it comes.
#include <algorithm>
#include <functional>
#include <iostream>

#include "catalog.h"
#include "commands.h"
#include "device.h"
#include "errors.h"
#include "files.h"
#include "host.h"
#include "report.h"
#include "tuning.h"

namespace lessons::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string MachineOf(const Lesson& lesson) {
    if (lesson.kind == StepKind::kCpu) return "CPU: " + GetHostInfo().cpu_name;
    const DeviceList& devices = GetDevices();
    if (!devices.available())
        throw UnavailableError("tune measures this GPU, and there is none: " +
                               devices.unavailable.text);
    return devices.devices.front().name;
}

// The time a tuning compares: the one the step's rates are over (RunResult::rate_ms), so that
// the kernel decides for a GPU step whose copies take most of its run (lesson 1.10: 0.3 ms of
// kernel in 19.7 ms end to end, where the copies' noise chose the block); else the median.
double ComparedMs(const RunResult& r) {
    return r.rate_ms > 0 ? r.rate_ms : r.median_ms;
}

}  // namespace

TuneRun MeasureTuning(const Lesson& lesson, RunOptions base, const RunControl& control,
                      const std::function<void(const RunResult&, int, int)>& on_result) {
    TuneRun run;
    const std::vector<std::string> tuned = TunedParams(lesson);
    if (tuned.empty())
        throw UsageError(lesson.Name() + " has nothing to tune: " +
                         (lesson.library ? "the library chooses its own launch"
                                         : "it has no block size, tile or thread count"));
    run.machine = MachineOf(lesson);
    for (const std::string& name : tuned)
        base.params.erase(std::remove_if(base.params.begin(), base.params.end(),
                                         [&](const auto& p) { return p.first == name; }),
                          base.params.end());
    const ParamValues at_defaults = ResolveParams(lesson, base.params);
    // Every candidate, counted first for the progress of those who watch.
    std::vector<std::pair<std::string, std::vector<std::string>>> plan;
    int points = 1;
    for (const std::string& name : tuned) {
        const ParamSpec& spec = *lesson.FindParam(name);
        const ParamValue largest =
            name == "threads" ? ParamValue::Number(uint64_t(GetHostInfo().hardware_threads))
                              : ParamValue::Number(spec.max);
        plan.emplace_back(name, TuningCandidates(spec, largest));
        points += static_cast<int>(plan.back().second.size());
    }
    Session session(RunnableCatalog());
    const RunResult at_default = session.Run(lesson, base, control);  // a copy: results grows
    run.results.push_back(at_default);
    if (on_result) on_result(at_default, 0, points);
    // One parameter at a time, each from the best so far (a tile fixes the block, so steps
    // have one of these today; a CPU step only threads).
    run.best_values = at_default.params.Subset(tuned);
    run.best_ms = at_default.verified ? ComparedMs(at_default) : 0;
    int point = 1;
    for (const auto& [name, candidates] : plan) {
        const ParamSpec& spec = *lesson.FindParam(name);
        for (const std::string& text : candidates) {
            const int this_point = point++;
            if (control.cancel && control.cancel->load()) throw Cancelled();
            RunOptions o = base;
            for (const auto& [n, v] : run.best_values.entries())
                if (n != name) o.Set(n, lesson.FindParam(n)->Format(v));
            o.Set(name, text);
            ParamValues candidate = run.best_values;
            candidate.Set(name, spec.Parse(text));
            if (candidate == at_default.params.Subset(tuned)) continue;  // measured above
            try {
                run.results.push_back(session.Run(lesson, o, control));
            } catch (const UsageError& e) {
                run.skipped.push_back(name + " " + text + ": " + e.what());
                continue;
            }
            const RunResult& r = run.results.back();
            if (on_result) on_result(r, this_point, points);
            if (r.verified && (run.best_ms == 0 || ComparedMs(r) < run.best_ms)) {
                run.best_ms = ComparedMs(r);
                run.best_values = r.params.Subset(tuned);
            }
        }
    }
    for (const RunResult& r : run.results) run.all_right = run.all_right && r.verified;
    Tuning& t = run.tuning;
    t.id = lesson.id;
    t.machine = run.machine;
    t.values = run.best_values;
    std::vector<std::string> others;
    for (const auto& [name, v] : at_defaults.entries())
        if (std::find(tuned.begin(), tuned.end(), name) == tuned.end()) others.push_back(name);
    t.at = at_defaults.Subset(others);
    t.best_ms = run.best_ms;
    t.default_ms = ComparedMs(at_default);
    t.when = UtcTimestamp();
    return run;
}

nlohmann::ordered_json TuneForWorker(const Lesson& lesson, const RawParams& params,
                                     const RunControl& control,
                                     const std::function<void(const RunResult&, int, int)>& emit) {
    RunOptions base;
    base.params = params;
    // Where the tuning goes, checked before anything is measured.
    const std::string path = TuningsPath();
    if (path.empty()) throw UsageError("no folder to keep tunings in: set HOME or XDG_DATA_HOME");
    std::string problem;
    ReadTunings(path, &problem);
    if (!problem.empty()) throw UsageError("cannot keep a tuning: " + problem);
    CheckCanWrite(path);
    TuneRun run = MeasureTuning(lesson, base, control, emit);
    if (run.best_ms == 0)
        throw UsageError("no configuration of " + lesson.Name() + " gave a right result");
    Json out = TuningToJson(run.tuning);
    out["all_right"] = run.all_right;
    out["saved_to"] = nullptr;
    if (run.all_right) {  // a step that is wrong anywhere is fixed first, not tuned
        SaveTuning(path, run.tuning);
        out["saved_to"] = path;
    }
    return out;
}

int Tune(const std::string& key, const Options& options, Format format, bool save) {
    const Lesson& lesson = FindLessonOrThrow(key);
    const std::vector<std::string> tuned = TunedParams(lesson);
    if (tuned.empty())
        throw UsageError(lesson.Name() + " has nothing to tune: " +
                         (lesson.library ? "the library chooses its own launch"
                                         : "it has no block size, tile or thread count"));
    for (const std::string& name : options.from_set)
        if (std::find(tuned.begin(), tuned.end(), name) != tuned.end())
            throw UsageError("--set " + name + " fixes what tune varies: leave it out");
    MachineOf(lesson);  // no GPU: said before anything else
    CheckUnused({&lesson}, options);
    // Where the result goes, checked before anything is measured: a sweep that cannot be kept
    // is said at once, not after minutes of measuring.
    const std::string saved_to = save ? TuningsPath() : std::string();
    if (save) {
        if (saved_to.empty())
            throw UsageError(
                "no folder to keep tunings in (set HOME or XDG_DATA_HOME), or use "
                "--no-save");
        std::string problem;
        ReadTunings(saved_to, &problem);
        if (!problem.empty())
            throw UsageError("cannot keep a tuning: " + problem +
                             " (move it away, or use --no-save)");
        try {
            CheckCanWrite(saved_to);
        } catch (const FileError& e) {
            throw UsageError(std::string("cannot keep a tuning: ") + e.what() +
                             " (or use --no-save)");
        }
    }
    RunControl control;
    control.cancel = CancelFlag();
    TuneRun run = MeasureTuning(lesson, options.run, control, {});
    for (const std::string& skip : run.skipped) std::cerr << "skipped " << skip << "\n";
    const std::string& machine = run.machine;
    const std::vector<RunResult>& results = run.results;
    const RunResult& at_default = results.front();
    const ParamValues& best_values = run.best_values;
    const double best_ms = run.best_ms;
    const bool all_right = run.all_right;
    for (const RunResult& r : results) {
        if (r.verified) continue;
        std::cerr << "error: " << lesson.Name() << " gave a WRONG result at " << r.id << " "
                  << ToJson(r.params).dump() << ": " << r.check_message << "\n";
    }
    if (best_ms == 0) {
        std::cerr << "error: no configuration of " << lesson.Name() << " gave a right result\n";
        return kExitFailed;
    }
    save = save && all_right;  // a step that is wrong anywhere is fixed first, not tuned
    const Tuning& t = run.tuning;
    // Saved after the results are printed: a failure then loses nothing measured.
    std::string save_error;
    auto save_now = [&] {
        if (!save) return;
        try {
            SaveTuning(saved_to, t);
        } catch (const std::exception& e) {
            save_error = e.what();
        }
    };
    if (format == Format::kJson) {
        Json out = TuningToJson(t);
        Json runs = Json::array();
        for (const RunResult& r : results) runs.push_back(ToJson(r));
        out["runs"] = runs;
        save_now();
        out["saved_to"] = save && save_error.empty() ? Json(saved_to) : Json(nullptr);
        if (!save_error.empty()) out["save_error"] = save_error;
        std::cout << out.dump(2) << "\n";
        if (!save_error.empty()) std::cerr << "error: not saved: " << save_error << "\n";
        return all_right && save_error.empty() ? kExitOk : kExitFailed;
    }
    std::cout << "tuning " << lesson.Name() << " on " << machine << "\n";
    std::vector<std::string> header;
    for (const std::string& name : tuned) header.push_back(lesson.FindParam(name)->label_en);
    for (const char* h : {"compared ms", "median ms", "min ms", "max ms", "check", ""})
        header.push_back(h);
    TextTable table(header);
    for (const RunResult& r : results) {
        std::vector<std::string> row;
        for (const std::string& name : tuned) {
            const ParamValue* v = r.params.Find(name);
            row.push_back(v ? lesson.FindParam(name)->Format(*v) : "?");
        }
        const bool is_best = r.verified && r.params.Subset(tuned) == best_values;
        const bool is_default = &r == &results.front();
        row.insert(row.end(),
                   {Ms(ComparedMs(r)), Ms(r.median_ms), Ms(r.min_ms), Ms(r.max_ms),
                    r.verified ? "ok" : "WRONG",
                    std::string(is_best ? "<- best" : "") +
                        (is_default ? (is_best ? ", the default" : "the default") : "")});
        table.AddRow(row);
    }
    std::cout << table.Render();
    if (ComparedMs(at_default) != at_default.median_ms)
        std::cout << "compared: the " << at_default.work.rate_part
                  << " time, the part this step's rates are over (median ms: the whole run)\n";
    std::string best_text;
    for (const auto& [name, v] : best_values.entries())
        best_text +=
            (best_text.empty() ? "" : ", ") + name + " " + lesson.FindParam(name)->Format(v);
    std::cout << "best: " << best_text << ", " << Ms(best_ms) << " ms against "
              << Ms(ComparedMs(at_default)) << " ms at the default ("
              << Fixed(ComparedMs(at_default) / best_ms, 2) << "x)\n";
    if (!all_right) std::cout << "not saved: a configuration gave a wrong result\n";
    save_now();
    if (!save_error.empty()) {
        std::cerr << "error: not saved: " << save_error << "\n";
        return kExitFailed;
    }
    if (save) std::cout << "saved for " << machine << " in " << saved_to << "\n";
    return all_right ? kExitOk : kExitFailed;
}

}  // namespace lessons::cli
