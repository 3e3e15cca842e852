#include "commands.h"

#include <algorithm>
#include <atomic>
#include <iostream>
#include <map>

#include "catalog.h"
#include "device.h"
#include "errors.h"
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

const Lesson& FindLessonOrThrow(const std::string& key) {
    const Lesson* lesson = Catalog().FindLesson(key);
    if (!lesson) {
        const auto& all = Catalog().lessons();
        throw UsageError("unknown lesson '" + key + "': use a number from " +
                         std::to_string(all.front().number) + " to " +
                         std::to_string(all.back().number) + " or an id such as " + all.front().id +
                         " (see 'cuda-lessons-cli list')");
    }
    return *lesson;
}

std::string Ms(double ms) {
    return Fixed(ms, ms < 10 ? 3 : (ms < 1000 ? 2 : 1));
}
std::string Ms(const std::optional<double>& ms) {
    return ms ? Ms(*ms) : "-";
}
std::string Verdict(const RunResult& r) {
    return r.verified ? "ok" : "WRONG";
}

void ReportWrong(const RunResult& r) {
    if (!r.verified)
        std::cerr << "lesson " << r.lesson << " (" << r.id
                  << ") gave a WRONG result: " << r.check_message << "\n";
}

std::string Ceiling() {
    const DeviceInfo& d = GetDeviceInfo();
    if (!d.available()) return "no GPU (" + d.unavailable_reason + ")";
    return d.name + ", measured copy " + Fixed(MeasuredCopyGbps(), 0) + " GB/s (datasheet " +
           Fixed(d.datasheet_gbps, 0) + " GB/s)";
}

}  // namespace

void RequestCancel() {
    g_cancel = true;
}

Format ParseFormat(const std::string& text) {
    if (text == "table") return Format::kTable;
    if (text == "json") return Format::kJson;
    if (text == "csv") return Format::kCsv;
    throw UsageError("unknown format '" + text + "': use table, json or csv");
}

int List(Format format) {
    const Registry& registry = Catalog();
    Session session(registry);
    if (format == Format::kJson) {
        json out = json::array();
        for (const Lesson& l : registry.lessons())
            out.push_back(LessonToJson(registry, l, session.Unavailable(l)));
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    if (format == Format::kCsv) {
        std::cout << "lesson,id,chapter,kind,title,available\n";
        for (const Lesson& l : registry.lessons())
            std::cout << l.number << ',' << l.id << ',' << registry.ChapterOf(l).number << ','
                      << ToString(l.kind) << ",\"" << l.title << "\","
                      << (session.Unavailable(l).empty() ? "true" : "false") << "\n";
        return kExitOk;
    }
    for (const Chapter& c : registry.chapters()) {
        std::cout << "Chapter " << c.number << " (" << c.id << "): " << c.title << "\n";
        TextTable table({"#", "id", "kind", "title", "runs here"}, {true});
        for (const Lesson* l : registry.LessonsOf(c)) {
            const std::string why = session.Unavailable(*l);
            table.AddRow({std::to_string(l->number), l->id, ToString(l->kind), l->title,
                          why.empty() ? "yes" : "no: " + why});
        }
        std::cout << table.Render() << "\n";
    }
    return kExitOk;
}

int Info(Format format) {
    const DeviceInfo& d = GetDeviceInfo();
    const HostInfo& h = GetHostInfo();
    const std::optional<double> ceiling =
        d.available() ? std::optional<double>(MeasuredCopyGbps()) : std::nullopt;
    if (format == Format::kJson) {
        std::cout << json{{"device", ToJson(d, ceiling)}, {"host", ToJson(h)}}.dump(2) << "\n";
        return kExitOk;
    }
    if (format == Format::kCsv) throw UsageError("info prints a table or json, not csv");
    TextTable t({"what", "value"});
    if (!d.available()) {
        t.AddRow({"GPU", "none: " + d.unavailable_reason});
    } else {
        t.AddRow({"GPU", d.name});
        t.AddRow(
            {"compute capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)});
        t.AddRow({"SMs", std::to_string(d.sm_count)});
        t.AddRow({"memory", FormatSize(d.total_memory)});
        t.AddRow({"L2 cache", FormatSize(d.l2_bytes)});
        t.AddRow({"DRAM bandwidth, datasheet", Fixed(d.datasheet_gbps, 0) + " GB/s"});
        t.AddRow(
            {"device copy, measured", Fixed(*ceiling, 0) + " GB/s (read + write, up to 1 GiB)"});
        t.AddRow({"driver / runtime",
                  std::to_string(d.driver_version) + " / " + std::to_string(d.runtime_version)});
    }
    t.AddRow({"CPU", h.cpu_name});
    t.AddRow({"hardware threads", std::to_string(h.hardware_threads)});
    t.AddRow({"host memory", FormatSize(h.total_memory) + " (" + FormatSize(HostAvailableMemory()) +
                                 " available)"});
    t.AddRow({"built with CUDA", d.built_with_cuda ? "yes" : "no"});
    std::cout << t.Render();
    return kExitOk;
}

int Run(const std::string& key, const RunOptions& options, Format format) {
    const Lesson& lesson = FindLessonOrThrow(key);
    Session session(Catalog());
    const RunResult r = session.Run(lesson, options, Control());
    if (format == Format::kJson) {
        std::cout << ToJson(r).dump(2) << "\n";
    } else if (format == Format::kCsv) {
        std::cout << CsvHeader() << "\n" << CsvRow(r) << "\n";
    } else {
        TextTable t({"lesson " + std::to_string(r.lesson), r.id});
        t.AddRow({"title", r.title});
        t.AddRow({"device", r.device});
        t.AddRow({"size", FormatSize(r.size_bytes) + " (" + r.data + ")"});
        if (r.block) t.AddRow({"block", std::to_string(*r.block)});
        if (r.threads) t.AddRow({"threads", std::to_string(*r.threads)});
        t.AddRow({"median / min / max", Ms(r.median_ms) + " / " + Ms(r.min_ms) + " / " +
                                            Ms(r.max_ms) + " ms over " + std::to_string(r.reps) +
                                            " runs" + (r.cold_l2 ? " (cold L2)" : "")});
        if (r.kernel_ms)
            t.AddRow({"H2D / kernel / D2H",
                      Ms(r.h2d_ms) + " / " + Ms(r.kernel_ms) + " / " + Ms(r.d2h_ms) + " ms"});
        t.AddRow({"bandwidth", Fixed(r.gbps, 1) + " GB/s" +
                                   (r.pct_of_ceiling ? " (" + Fixed(*r.pct_of_ceiling, 1) +
                                                           "% of the measured copy)"
                                                     : std::string())});
        if (r.found) t.AddRow({"line breaks found", std::to_string(*r.found)});
        if (r.attributes)
            t.AddRow({"kernel resources", std::to_string(r.attributes->registers) + " registers, " +
                                              std::to_string(r.attributes->static_smem_bytes) +
                                              " B shared, occupancy " +
                                              Fixed(100 * r.attributes->occupancy, 0) + "%"});
        for (const auto& [name, value] : r.extra) t.AddRow({name, Fixed(value, 3)});
        t.AddRow({"check",
                  r.verified ? "verified against the CPU reference" : "WRONG: " + r.check_message});
        std::cout << t.Render();
    }
    ReportWrong(r);
    return r.verified ? kExitOk : kExitFailed;
}

int Sweep(const std::string& key, const RunOptions& options, const std::string& blocks,
          const std::string& sizes, Format format) {
    const Lesson& lesson = FindLessonOrThrow(key);
    if (blocks.empty() == sizes.empty())
        throw UsageError(
            "sweep needs exactly one of --blocks (e.g. 32..1024) or --sizes "
            "(e.g. 1MiB..1GiB)");
    const bool by_block = !blocks.empty();
    const std::vector<SweepPoint> points =
        PlanSweep(lesson, options, by_block ? SweepAxis::kBlock : SweepAxis::kSize,
                  by_block ? ParseRange(blocks, &ParseCount) : ParseRange(sizes, &ParseSize));
    std::string reasons;
    for (const SweepPoint& p : points)
        reasons += p.skip_reason.empty() ? "" : "\n  " + p.skip_reason;
    if (std::all_of(points.begin(), points.end(),
                    [](const SweepPoint& p) { return !p.skip_reason.empty(); }))
        throw UsageError("no point of the sweep can run:" + reasons);
    Session session(Catalog());
    std::vector<RunResult> results;
    for (const SweepPoint& p : points) {
        if (!p.skip_reason.empty()) {
            std::cerr << "skipped: " << p.skip_reason << "\n";
            continue;
        }
        results.push_back(session.Run(lesson, p.options, Control()));
        if (format == Format::kCsv) {
            if (results.size() == 1) std::cout << CsvHeader() << "\n";
            std::cout << CsvRow(results.back()) << std::endl;
        }
    }
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
        // The best point: fastest kernel (GPU) or fastest run, among verified ones.
        int best = -1;
        for (size_t i = 0; i < results.size(); ++i) {
            const double t = results[i].kernel_ms.value_or(results[i].median_ms);
            if (results[i].verified &&
                (best < 0 || t < results[best].kernel_ms.value_or(results[best].median_ms)))
                best = static_cast<int>(i);
        }
        std::cout << "lesson " << lesson.number << " (" << lesson.id << ") on " << Ceiling()
                  << "\n";
        TextTable t({by_block ? "block" : "size", "median ms", "min ms", "max ms", "kernel ms",
                     "GB/s", "% ceiling", "check", ""},
                    {true, true, true, true, true, true, true});
        for (size_t i = 0; i < results.size(); ++i) {
            const RunResult& r = results[i];
            t.AddRow({by_block ? std::to_string(r.block.value_or(0)) : FormatSize(r.size_bytes),
                      Ms(r.median_ms), Ms(r.min_ms), Ms(r.max_ms), Ms(r.kernel_ms),
                      Fixed(r.gbps, 1), Fixed(r.pct_of_ceiling, 1), Verdict(r),
                      static_cast<int>(i) == best ? "<- best" : ""});
        }
        std::cout << t.Render();
    }
    return ok ? kExitOk : kExitFailed;
}

int Bench(const std::string& chapter_key, const RunOptions& options, Format format) {
    const Registry& registry = Catalog();
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
    Session session(registry);
    bool ok = true;
    json all = json::array();
    if (format == Format::kCsv) std::cout << CsvHeader() << ",speedup_vs_previous\n";
    for (const Chapter* chapter : chapters) {
        std::map<int, RunResult> done;
        TextTable t({"#", "id", "kind", "median ms", "H2D ms", "kernel ms", "D2H ms", "GB/s",
                     "% ceiling", "vs previous", "check"},
                    {true, false, false, true, true, true, true, true, true, true});
        for (const Lesson* lesson : registry.LessonsOf(*chapter)) {
            const std::string why = session.Unavailable(*lesson);
            if (!why.empty()) {
                t.AddRow({std::to_string(lesson->number), lesson->id, ToString(lesson->kind), "-",
                          "-", "-", "-", "-", "-", "-", "not run: " + why});
                continue;
            }
            const RunResult r = session.Run(*lesson, options, Control());
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
                std::cout << CsvRow(r) << "," << (speedup ? Fixed(*speedup, 3) : "") << std::endl;
            t.AddRow({std::to_string(r.lesson), r.id, ToString(r.kind), Ms(r.median_ms),
                      Ms(r.h2d_ms), Ms(r.kernel_ms), Ms(r.d2h_ms), Fixed(r.gbps, 1),
                      Fixed(r.pct_of_ceiling, 1),
                      speedup ? Fixed(*speedup, 2) + "x" : std::string("-"), Verdict(r)});
        }
        if (format == Format::kTable) {
            const uint64_t size = options.size_bytes.value_or(chapter->default_size);
            std::cout << "Chapter " << chapter->number << " (" << chapter->id << "), "
                      << (options.input_file.empty()
                              ? FormatSize(size) + " of " +
                                    ToString(options.data.value_or(chapter->data_kinds.front())) +
                                    " data"
                              : "file " + options.input_file)
                      << ", " << UtcTimestamp().substr(0, 10) << "\n"
                      << "GPU: " << Ceiling() << "\nCPU: " << GetHostInfo().cpu_name << ", "
                      << GetHostInfo().hardware_threads << " threads\n"
                      << "GB/s counts the bytes the step must move (" << chapter->bytes_rule
                      << ") over the kernel time for GPU steps, the whole run for CPU steps.\n"
                      << "'vs previous' compares end-to-end medians with the lesson before.\n"
                      << t.Render() << "\n";
        }
    }
    if (format == Format::kJson) std::cout << all.dump(2) << "\n";
    return ok ? kExitOk : kExitFailed;
}

}  // namespace lessons::cli
