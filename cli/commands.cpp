#include "commands.h"

#include <algorithm>
#include <atomic>
#include <iostream>
#include <map>
#include <optional>

#include "catalog.h"
#include "device.h"
#include "errors.h"
#include "files.h"
#include "host.h"
#include "report.h"
#include "units.h"

namespace lessons::cli {

using json = nlohmann::ordered_json;

namespace {

std::atomic<bool> g_cancel{false};

RunControl Control() {
    RunControl c;
    c.cancel = &g_cancel;
    return c;
}

const Registry& Runnable() {
    return RunnableCatalog();
}

}  // namespace

const Lesson& FindLessonOrThrow(const std::string& key) {
    const Lesson* lesson = Runnable().FindLesson(key);
    if (!lesson) {
        const auto& all = Runnable().lessons();
        throw UsageError("unknown lesson '" + key + "': use a lesson's number such as " +
                         all.front().label + ", its id such as " + all.front().id +
                         ", or its number before chapters numbered their own lessons (see "
                         "'cuda-lessons-cli list')");
    }
    return *lesson;
}

namespace {

std::string Verdict(const RunResult& r) {
    return r.verified ? "ok" : "WRONG";
}

void ReportWrong(const RunResult& r) {
    if (!r.verified)
        std::cerr << "lesson " << r.label << " (" << r.id
                  << ") gave a WRONG result: " << r.check_message << "\n";
}

std::string CeilingsLine() {
    const DeviceList& list = GetDevices();
    if (!list.available()) return "no GPU (" + list.unavailable.text + ")";
    const Ceilings& c = GetCeilings(0);
    // The tensor-core figures when a step held to them measured them.
    const double tf32 = KnownTf32Ceiling(0).gflops;
    const double bf16 = KnownTensorCeiling(Bound::kBf16, 0).gflops;
    return list.devices.front().name + "; measured read " + Fixed(c.read_gbps, 0) + " GB/s, copy " +
           Fixed(c.copy_gbps, 0) + " GB/s, fp32 " + Fixed(c.fp32_gflops / 1000, 1) + " TFLOP/s" +
           (tf32 > 0 ? ", TF32 (cuBLAS) " + Fixed(tf32 / 1000, 1) + " TFLOP/s" : "") +
           (bf16 > 0 ? ", bf16 (cuBLAS) " + Fixed(bf16 / 1000, 1) + " TFLOP/s" : "") + ", H2D " +
           Fixed(c.h2d_gbps, 1) + " GB/s";
}

std::string RateText(const RunResult& r) {
    std::string out = Fixed(r.Rate(), 1) + " " + r.RateUnit();
    // A TF32 step without a TF32 ceiling is compared with the fp32 peak, and says why.
    const Bound held = r.ceiling_note.empty() ? r.work.bound : Bound::kFp32;
    if (r.pct_of_ceiling)
        out += " (" + Fixed(*r.pct_of_ceiling, 1) + "% of the " + CeilingDescription(held) + ", " +
               Fixed(r.ceiling, 0) + " " + r.RateUnit() +
               (r.ceiling_bytes ? " over " + FormatSize(*r.ceiling_bytes) : "") + ")";
    if (!r.ceiling_note.empty()) out += "; " + r.ceiling_note;
    return out;
}

}  // namespace

// Reports the parameters `lessons` do not have: an error for --set, a notice for shorthands.
void CheckUnused(const std::vector<const Lesson*>& lessons, const Options& o) {
    for (const auto& [name, text] : o.run.params) {
        bool used = false;
        for (const Lesson* l : lessons) used = used || l->FindParam(name);
        if (used) continue;
        const Lesson& first = *lessons.front();
        const std::string shown = "'" + Excerpt(name, 40) + "'";
        const std::string who =
            lessons.size() == 1
                ? "lesson " + first.label + " has no parameter " + shown
                : "no lesson of chapter " + first.chapter + " has a parameter " + shown;
        if (std::find(o.from_set.begin(), o.from_set.end(), name) != o.from_set.end()) {
            std::string names;
            for (const std::string& n : ParamNamesOf(lessons))
                names += (names.empty() ? "" : ", ") + n;
            throw UsageError(who + ": use " + (names.empty() ? "none" : names));
        }
        std::string why;
        if (name == "block")
            why = first.library ? " (the library chooses its own)"
                                : (first.kind == StepKind::kCpu ? " (it runs on the CPU)" : "");
        if (name == "threads" && first.kind == StepKind::kGpu) why = " (it runs on the GPU)";
        std::cerr << "note: " << who << why << "; --" << name << " " << Excerpt(text, 40)
                  << " is ignored\n";
    }
    // Only where an input file is taken (else it is refused, and a note would contradict it).
    if (!o.run.input_file.empty() && Runnable().ChapterOf(*lessons.front()).accepts_input_file)
        for (const char* name : {"size", "data"})
            if (o.run.Get(name))
                std::cerr << "note: --" << name << " is ignored: the input file sets the data\n";
}

void RequestCancel() {
    g_cancel = true;
}

bool CancelRequested() {
    return g_cancel;
}

const std::atomic<bool>* CancelFlag() {
    return &g_cancel;
}

RunControl CancelControl() {
    return Control();
}

Format ParseFormat(const std::string& text) {
    if (text == "table") return Format::kTable;
    if (text == "json") return Format::kJson;
    if (text == "csv") return Format::kCsv;
    throw UsageError("unknown format '" + text + "': use table, json or csv");
}

int List(Format format) {
    const Registry& registry = Runnable();
    Session session(registry);
    if (format == Format::kJson) {
        json out = json::array();
        for (const Lesson& l : registry.lessons())
            out.push_back(LessonToJson(registry, l, session.UnavailableMessage(l)));
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    if (format == Format::kCsv) {
        std::cout << "lesson,id,was,chapter,kind,title,available,params\n";
        for (const Lesson& l : registry.lessons()) {
            std::string params;
            for (const ParamSpec& p : l.params) params += (params.empty() ? "" : " ") + p.name;
            std::cout << l.label << ',' << l.id << ',' << (l.was ? std::to_string(l.was) : "")
                      << ',' << registry.ChapterOf(l).number << ',' << ToString(l.kind) << ",\""
                      << l.title << "\"," << (session.Unavailable(l).empty() ? "true" : "false")
                      << ',' << params << "\n";
        }
        return kExitOk;
    }
    for (const Chapter& c : registry.chapters()) {
        std::cout << "Chapter " << c.number << " (" << c.id << "): " << c.title << "\n";
        TextTable table({"#", "id", "was", "kind", "title", "parameters", "runs here"}, {true});
        for (const Lesson* l : registry.LessonsOf(c)) {
            const std::string why = session.Unavailable(*l);
            std::string params;
            for (const ParamSpec& p : l->params) params += (params.empty() ? "" : " ") + p.name;
            table.AddRow({l->label, l->id, l->was ? std::to_string(l->was) : "", ToString(l->kind),
                          l->title, params, why.empty() ? "yes" : "no: " + why});
        }
        std::cout << table.Render() << "\n";
    }
    std::cout << "#: the lesson's number (chapter.step), as the program shows it; id: its name, "
                 "which stays when lessons are added; was: its number before chapters numbered "
                 "their own lessons (recorded results use it). run, sweep and the GUI's --lesson "
                 "take any of the three.\n";
    return kExitOk;
}

int Run(const std::string& key, const Options& options, Format format) {
    const Lesson& lesson = FindLessonOrThrow(key);
    CheckUnused({&lesson}, options);
    Session session(Runnable());
    const RunResult r = session.Run(lesson, options.run, Control());
    const std::vector<std::string> names = ParamNamesOf({&lesson});
    if (format == Format::kJson) {
        std::cout << ToJson(r).dump(2) << "\n";
    } else if (format == Format::kCsv) {
        std::cout << CsvHeader(names) << "\n" << CsvRow(r, names) << "\n";
    } else {
        TextTable t({"lesson " + r.label, r.id});
        t.AddRow({"title", r.title});
        std::string devices;
        for (const std::string& d : r.devices) devices += (devices.empty() ? "" : "; ") + d;
        t.AddRow({"device", devices});
        for (const auto& [name, value] : r.params.entries()) {
            const ParamSpec* spec = lesson.FindParam(name);
            const std::string label = spec ? spec->label_en : name;
            const std::string text = !value.choice.empty() ? value.choice
                                     : spec                ? spec->Format(value)
                                                           : std::to_string(value.number);
            t.AddRow(
                {label, text + (!r.input.empty() && name == "size" ? " (" + r.input + ")" : "")});
        }
        t.AddRow({"median / min / max", Ms(r.median_ms) + " / " + Ms(r.min_ms) + " / " +
                                            Ms(r.max_ms) + " ms over " + std::to_string(r.reps) +
                                            " runs" + (r.cold_l2 ? " (cold L2)" : "")});
        if (r.median_level > 0)
            t.AddRow({"median's interval", MedianIntervalText(r) + " ms: the median lies in it " +
                                               "with that confidence; more runs narrow it"});
        if (!r.parts.empty()) {
            std::string names_text, ms_text;
            for (const TimedPart& p : r.parts) {
                names_text += (names_text.empty() ? "" : " / ") + p.name;
                ms_text += (ms_text.empty() ? "" : " / ") + Ms(p.ms);
            }
            t.AddRow({names_text, ms_text + " ms"});
        }
        t.AddRow({IsArithmetic(r.work.bound) ? "compute" : "bandwidth", RateText(r)});
        // The SM clock while timed (NVML), and what held it below the highest.
        if (r.sm_clock_mhz) {
            std::string why;
            for (const std::string& id : r.clock_limits) why += (why.empty() ? "" : ", ") + id;
            t.AddRow({"SM clock",
                      Fixed(*r.sm_clock_mhz, 0) + " MHz" +
                          (r.sm_clock_max_mhz ? " of " + Fixed(*r.sm_clock_max_mhz, 0) + " at most"
                                              : "") +
                          (why.empty() ? "" : " (held by: " + why + ")")});
        }
        if (r.gflops && !IsArithmetic(r.work.bound))
            t.AddRow({"arithmetic", Fixed(*r.gflops, 1) + " GFLOP/s"});
        if (r.intensity && r.attainable_gflops)
            t.AddRow({"roofline", Fixed(*r.intensity, 3) + " flop/byte: at most " +
                                      Fixed(*r.attainable_gflops, 0) + " GFLOP/s here"});
        for (const NamedValue& v : r.values)
            t.AddRow({v.name, Fixed(v.value, v.value == double(int64_t(v.value)) ? 0 : 6)});
        if (r.attributes)
            t.AddRow({"kernel resources", std::to_string(r.attributes->registers) + " registers, " +
                                              std::to_string(r.attributes->static_smem_bytes) +
                                              " B static + " +
                                              std::to_string(r.attributes->dynamic_smem_bytes) +
                                              " B dynamic shared, occupancy " +
                                              Fixed(100 * r.attributes->occupancy, 0) + "%"});
        t.AddRow({"check",
                  r.verified ? "verified against the CPU reference" : "WRONG: " + r.check_message});
        std::cout << t.Render();
    }
    ReportWrong(r);
    return r.verified ? kExitOk : kExitFailed;
}

int Sweep(const std::string& key, const Options& options, const std::string& param,
          const std::string& range, Format format) {
    const Lesson& lesson = FindLessonOrThrow(key);
    CheckUnused({&lesson}, options);
    const std::vector<SweepPoint> points = PlanSweep(lesson, options.run, param, range);
    const ParamSpec& spec = *lesson.FindParam(param);
    Session session(Runnable());
    const std::vector<std::string> names = ParamNamesOf({&lesson});
    std::vector<RunResult> results;
    std::optional<UsageError> last_refusal;
    for (const SweepPoint& p : points) {
        if (g_cancel) throw Cancelled();
        if (!p.skip_reason.empty()) {
            std::cerr << "skipped: " << p.skip_reason << "\n";
            continue;
        }
        try {
            results.push_back(session.Run(lesson, p.options, Control()));
        } catch (const UsageError& e) {
            // Refused when it came to run (a size over the memory available): the points
            // measured so far are kept and printed.
            std::cerr << "skipped: " << spec.name << " " << spec.Format(spec.Parse(p.value)) << ": "
                      << e.what() << "\n";
            last_refusal = e;
            continue;
        }
        if (format == Format::kCsv) {
            if (results.size() == 1) std::cout << CsvHeader(names) << "\n";
            std::cout << CsvRow(results.back(), names) << std::endl;
        }
    }
    if (results.empty() && last_refusal) throw *last_refusal;  // nothing could run at all
    bool ok = true;
    for (const RunResult& r : results) {
        ReportWrong(r);
        ok = ok && r.verified;
    }
    if (format == Format::kJson) {
        json out = json::array();
        for (const RunResult& r : results) out.push_back(ToJson(r));
        std::cout << out.dump(2) << "\n";
    } else if (format == Format::kTable) {
        // The best point: the fastest rate time among verified ones.
        int best = -1;
        for (size_t i = 0; i < results.size(); ++i)
            if (results[i].verified && (best < 0 || results[i].rate_ms < results[best].rate_ms))
                best = static_cast<int>(i);
        std::cout << "lesson " << lesson.label << " (" << lesson.id << ") over " << spec.name
                  << (lesson.kind == StepKind::kGpu ? " on " + CeilingsLine() : std::string())
                  << "\n";
        const char* unit = results.empty() ? "GB/s" : results.front().RateUnit();
        TextTable t({spec.label_en, "median ms", "median CI ms", "min ms", "max ms", "rate ms",
                     unit, "% ceiling", "check", ""},
                    {true, true, true, true, true, true, true, true});
        for (size_t i = 0; i < results.size(); ++i) {
            const RunResult& r = results[i];
            const ParamValue* v = r.params.Find(spec.name);
            t.AddRow({v ? spec.Format(*v) : "?", Ms(r.median_ms), MedianIntervalText(r),
                      Ms(r.min_ms), Ms(r.max_ms), Ms(r.rate_ms), Fixed(r.Rate(), 1),
                      Fixed(r.pct_of_ceiling, 1), Verdict(r),
                      static_cast<int>(i) == best ? "<- best" : ""});
        }
        std::cout << t.Render();
        // The chapter's model, fitted to the sizes (chapter 7: alpha and beta).
        const Chapter& chapter = Runnable().ChapterOf(lesson);
        if (spec.name == "size" && chapter.size_fit && !results.empty()) {
            std::vector<std::pair<uint64_t, double>> fit_points;
            for (const RunResult& r : results)
                if (r.verified)
                    if (const ParamValue* v = r.params.Find("size"))
                        fit_points.push_back({v->number, r.median_ms});
            std::cout << chapter.size_fit(fit_points, results.front().params).en << "\n";
        }
    }
    return ok ? kExitOk : kExitFailed;
}

int Bench(const std::string& chapter_key, const Options& options, Format format) {
    const Registry& registry = Runnable();
    std::vector<const Chapter*> chapters;
    if (chapter_key.empty()) {
        for (const Chapter& c : registry.chapters()) chapters.push_back(&c);
    } else {
        const Chapter* c = registry.FindChapter(chapter_key);
        if (!c)
            throw UsageError("unknown chapter '" + chapter_key +
                             "': use a number such as 1 or an id such as split");
        chapters.push_back(c);
    }
    // Every lesson's values are checked before anything runs: a value refused at the last
    // chapter must not come after minutes of runs whose table it would lose.
    for (const Chapter* chapter : chapters) {
        CheckUnused(registry.LessonsOf(*chapter), options);
        for (const Lesson* lesson : registry.LessonsOf(*chapter)) {
            try {
                CheckRun(registry, *lesson, options.run);
            } catch (const UsageError& e) {
                throw UsageError(lesson->Name() + ": " + e.what());
            }
        }
    }
    Session session(registry);
    bool ok = true;
    int ran = 0;
    std::string why_none;
    json all = json::array();
    for (const Chapter* chapter : chapters) {
        const std::vector<const Lesson*> lessons = registry.LessonsOf(*chapter);
        const std::vector<std::string> names = ParamNamesOf(lessons);
        if (format == Format::kCsv) std::cout << CsvHeader(names) << ",speedup_vs_previous\n";
        std::map<int, RunResult> done;
        TextTable t(
            {"#", "id", "kind", "median ms", "median CI ms", "H2D ms", "kernel ms", "D2H ms",
             "GB/s", "GFLOP/s", "% ceiling", "ceiling", "vs previous", "check"},
            {true, false, false, true, true, true, true, true, true, true, true, false, true});
        for (const Lesson* lesson : lessons) {
            const std::string why = session.Unavailable(*lesson);
            if (!why.empty()) {
                t.AddRow({lesson->label, lesson->id, ToString(lesson->kind), "-", "-", "-", "-",
                          "-", "-", "-", "-", "-", "-", "not run: " + why});
                if (why_none.empty()) why_none = lesson->Name() + " cannot run here: " + why;
                continue;
            }
            const RunResult r = session.Run(*lesson, options.run, Control());
            ++ran;
            ok = ok && r.verified;
            ReportWrong(r);
            std::optional<double> speedup;
            auto prev = done.find(lesson->previous);
            if (prev != done.end() && prev->second.verified && r.verified && r.median_ms > 0)
                speedup = prev->second.median_ms / r.median_ms;
            done[lesson->number] = r;
            json j = ToJson(r);
            j["speedup_vs_previous"] = speedup ? json(*speedup) : json(nullptr);
            all.push_back(j);
            if (format == Format::kCsv)
                std::cout << CsvRow(r, names) << "," << (speedup ? Fixed(*speedup, 3) : "")
                          << std::endl;
            // The lesson's number as every other place shows it ("5.8"), never its position.
            t.AddRow({r.label, r.id, ToString(r.kind), Ms(r.median_ms), MedianIntervalText(r),
                      Ms(r.Part("h2d")), Ms(r.Part("kernel")), Ms(r.Part("d2h")), Fixed(r.gbps, 1),
                      Fixed(r.gflops, 1), Fixed(r.pct_of_ceiling, 1),
                      r.pct_of_ceiling ? (r.ceiling_note.empty() ? ToString(r.work.bound)
                                                                 : std::string("fp32 (no ") +
                                                                       ToString(r.work.bound) + ")")
                                       : "-",
                      speedup ? Fixed(*speedup, 2) + "x" : std::string("-"), Verdict(r)});
        }
        if (format == Format::kTable) {
            const Lesson& first = *lessons.front();
            std::vector<std::string> ignored;
            const std::string data =
                options.run.input_file.empty()
                    ? chapter->describe(ResolveParams(first, options.run.params, &ignored))
                    : "file " + options.run.input_file;
            std::cout << "Chapter " << chapter->number << " (" << chapter->id << "), " << data
                      << ", " << UtcTimestamp().substr(0, 10) << "\n"
                      << "GPU: " << CeilingsLine() << "\nCPU: " << GetHostInfo().cpu_name << ", "
                      << GetHostInfo().hardware_threads << " threads\n"
                      << "Work: the chapter " << chapter->work_rule << ".\n"
                      << "Rates are over the kernel time for GPU steps (the whole run where the "
                         "parts overlap), the whole run for CPU steps; '% ceiling' compares each "
                         "with the ceiling named in its row, measured on this GPU.\n"
                      << "'vs previous' compares end-to-end medians with the lesson before.\n"
                      << t.Render() << "\n";
        }
    }
    if (format == Format::kJson) std::cout << all.dump(2) << "\n";
    if (ran == 0) {
        // As run of a lesson that cannot run here: the table says why, the exit code too.
        std::cerr << "error: no lesson of "
                  << (chapters.size() == 1 ? "this chapter" : "any chapter") << " could run here ("
                  << why_none << ")\n";
        return kExitFailed;
    }
    return ok ? kExitOk : kExitFailed;
}

int Compare(const std::vector<std::string>& keys, const Options& options, int trials,
            Format format) {
    if (keys.size() < 2 || keys.size() > kMaxCompared)
        throw UsageError("compare takes 2 to " + std::to_string(kMaxCompared) + " lessons, not " +
                         std::to_string(keys.size()));
    std::vector<const Lesson*> lessons;
    for (const std::string& key : keys) lessons.push_back(&FindLessonOrThrow(key));
    CheckUnused(lessons, options);
    Session session(Runnable());
    for (const Lesson* l : lessons)
        if (const std::string why = session.Unavailable(*l); !why.empty())
            throw UnavailableError(l->Name() + " cannot run here: " + why);
    const std::vector<RunResult> results =
        RunInTurn(session, lessons, options.run, trials, Control());
    // Each lesson against the first: its speed-up, the interval the two medians' intervals
    // give (first's low over its high, first's high over its low), and whether they overlap.
    const RunResult& first = results.front();
    struct Against {
        std::optional<double> speedup, lo, hi;
        bool within_noise = false;
    };
    std::vector<Against> against;
    for (const RunResult& r : results) {
        Against a;
        const Interval f = NoiseInterval(first), m = NoiseInterval(r);
        if (&r != &first && first.verified && r.verified && r.median_ms > 0 && m.lo > 0) {
            a.speedup = first.median_ms / r.median_ms;
            a.lo = f.lo / m.hi;
            a.hi = f.hi / m.lo;
            a.within_noise = f.lo <= m.hi && m.lo <= f.hi;
        }
        against.push_back(a);
    }
    std::string order;
    for (int t = 0; t < std::min(trials, 4); ++t) {
        std::string round;
        for (size_t k = 0; k < lessons.size(); ++k)
            round += (round.empty() ? "" : " ") + lessons[InTurnIndex(lessons.size(), t, k)]->label;
        order += (order.empty() ? "" : ", ") + round;
    }
    if (trials > 4) order += ", ...";
    bool ok = true;
    for (const RunResult& r : results) ok = ok && r.verified;
    const std::vector<std::string> names = ParamNamesOf(lessons);
    if (format == Format::kJson) {
        json out = {{"trials", trials}, {"order", order}, {"results", json::array()}};
        for (size_t i = 0; i < results.size(); ++i) {
            json j = ToJson(results[i]);
            const Against& a = against[i];
            j["speedup_vs_first"] = a.speedup ? json(*a.speedup) : json(nullptr);
            j["speedup_lo"] = a.lo ? json(*a.lo) : json(nullptr);
            j["speedup_hi"] = a.hi ? json(*a.hi) : json(nullptr);
            j["within_noise_of_first"] = a.speedup ? json(a.within_noise) : json(nullptr);
            out["results"].push_back(j);
        }
        std::cout << out.dump(2) << "\n";
    } else if (format == Format::kCsv) {
        std::cout << CsvHeader(names) << ",trials,speedup_vs_first,speedup_lo,speedup_hi\n";
        for (size_t i = 0; i < results.size(); ++i) {
            const Against& a = against[i];
            std::cout << CsvRow(results[i], names) << "," << results[i].trials << ","
                      << (a.speedup ? Fixed(*a.speedup, 3) : "") << ","
                      << (a.lo ? Fixed(*a.lo, 3) : "") << "," << (a.hi ? Fixed(*a.hi, 3) : "")
                      << "\n";
        }
    } else {
        TextTable t({"#", "id", "trials", "runs", "median ms", "median CI ms", "vs " + first.label,
                     "check"},
                    {true, false, true, true, true, true, true, false});
        for (size_t i = 0; i < results.size(); ++i) {
            const RunResult& r = results[i];
            const Against& a = against[i];
            std::string vs = "-";
            if (a.speedup)
                vs = Fixed(*a.speedup, 2) + "x [" + Fixed(*a.lo, 2) + ", " + Fixed(*a.hi, 2) + "]" +
                     (a.within_noise ? " within noise" : "");
            t.AddRow({r.label, r.id, std::to_string(r.trials), std::to_string(r.reps),
                      Ms(r.median_ms), MedianIntervalText(r), vs, Verdict(r)});
        }
        std::cout << "Timed in turn, " << trials << " trial" << (trials == 1 ? "" : "s")
                  << " each (" << order << "): each lesson's samples pooled over its trials, so "
                  << "that the machine's drift falls on every lesson alike.\n"
                  << "'vs " << first.label << "': " << first.label << "'s median over the "
                  << "lesson's, with the interval the two medians' intervals give; within noise "
                  << "where those overlap.\n"
                  << t.Render();
    }
    for (const RunResult& r : results) ReportWrong(r);
    return ok ? kExitOk : kExitFailed;
}

}  // namespace lessons::cli
