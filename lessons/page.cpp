#include "page.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <regex>
#include <set>

#include "errors.h"
#include "host.h"
#include "machine_code.h"
#include "out_of_memory.h"
#include "recordings.h"
#include "report.h"
#include "resources.h"
#include "units.h"

namespace lessons {
namespace {

struct PartName {
    PagePart part;
    const char* keyword;
    const char* zh;
};
constexpr PartName kParts[] = {
    {PagePart::kIntro, "", ""},
    {PagePart::kChange, "Change", "改动"},
    {PagePart::kPrediction, "Prediction", "预测"},
    {PagePart::kWhy, "Why", "原因"},
    {PagePart::kTryThis, "Try this", "试一试"},
    {PagePart::kQuestions, "Questions", "问题"},
    {PagePart::kEvidence, "Evidence", "证据"},
    {PagePart::kBackground, "Background", "背景"},
    {PagePart::kOtherGpu, "On another GPU", "在另一块 GPU 上"},
};

std::vector<std::string> Lines(std::string_view text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(start, end - start));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        out.push_back(std::move(line));
        if (end == text.size()) break;
        start = end + 1;
    }
    return out;
}

bool IsAnswer(std::string_view line) {
    const size_t first = line.find_first_not_of(' ');
    if (first == std::string_view::npos) return false;
    line.remove_prefix(first);
    return line.rfind("Answer:", 0) == 0 || line.rfind("\xE7\xAD\x94\xEF\xBC\x9A", 0) == 0;
}

std::string Trim(std::string_view s) {
    const size_t a = s.find_first_not_of(" \t");
    if (a == std::string_view::npos) return {};
    const size_t b = s.find_last_not_of(" \t");
    return std::string(s.substr(a, b - a + 1));
}

// --- figures --------------------------------------------------------------------------------

std::string Printf(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// --- matching results to settings -----------------------------------------------------------

// A result's parameter `name`, compared with a wanted value.
bool Same(const ParamValues& params, const std::string& name, const ParamValue& value) {
    const ParamValue* have = params.Find(name);
    return have && *have == value;
}

struct Wanted {
    ParamValues required;   // the reference's own settings: must match
    ParamValues preferred;  // the page's settings or the defaults: matched where possible
};

// The step's settings for a reference: its named settings (parsed by the step's specs) are
// required, the page's (for the parameters the step has) and else the defaults preferred.
// `other`: the settings of a speedup's other step (vs=): its own "vs.NAME=VALUE" ones, and the
// plain ones its parameters have.
Wanted WantedFor(const Lesson& step, const PageRef& ref, const PageData& data, std::string* error,
                 bool other = false) {
    Wanted w;
    for (const auto& [written, text] : ref.settings) {
        if (written == "fn") continue;  // sass: which function, not a setting
        const bool for_other = written.rfind("vs.", 0) == 0;
        const std::string name = for_other ? written.substr(3) : written;
        if (for_other != other && !(other && !for_other)) continue;
        if (other && !for_other) {
            // A plain setting is the other step's too where it has the parameter, unless the
            // reference gives the other its own value.
            bool own = false;
            for (const auto& [n, t] : ref.settings) own = own || n == "vs." + name;
            if (own || !step.FindParam(name)) continue;
        }
        const ParamSpec* spec = step.FindParam(name);
        if (!spec) {
            *error = step.Name() + " has no parameter '" + name + "'";
            return w;
        }
        try {
            w.required.Set(name, spec->Parse(text));
        } catch (const std::exception& e) {
            *error = e.what();
            return w;
        }
    }
    for (const ParamSpec& spec : step.params) {
        if (w.required.Has(spec.name)) continue;
        const ParamValue* page = data.settings.Find(spec.name);
        w.preferred.Set(spec.name, page && spec.Reject(*page).empty() ? *page : spec.Default());
    }
    return w;
}

// The best of `results` for `step` at `wanted` on `gpu` (empty: any device); null when none
// meets the required settings. Preferred settings that differ cost one each, a data size less
// than any other; among equals the size most recorded for the step, then the latest.
const RunResult* Best(const std::vector<const RunResult*>& results, const Lesson& step,
                      const Wanted& wanted, const std::string& gpu, const Registry& registry,
                      bool exact_only) {
    std::vector<const RunResult*> mine;
    for (const RunResult* r : results) {
        if (!r || !r->verified) continue;
        if (r->id != step.id && registry.FindLesson(r->id) != &step) continue;
        if (!gpu.empty()) {
            if (r->devices.empty()) continue;
            // A CPU step's recording is the GPU machine's host, recorded with its GPU.
            if (step.kind == StepKind::kCpu) {
                if (r->recorded_with != gpu) continue;
            } else if (std::any_of(r->devices.begin(), r->devices.end(),
                                   [&](const std::string& d) { return d != gpu; })) {
                continue;
            }
        }
        if (r->recorded && IsStale(*r, registry)) continue;
        bool ok = true;
        for (const auto& [name, value] : wanted.required.entries())
            ok = ok && Same(r->params, name, value);
        if (ok) mine.push_back(r);
    }
    std::map<uint64_t, int> per_size;
    std::string size_name;
    for (const ParamSpec& spec : step.params)
        if (spec.type == ParamType::kBytes) size_name = spec.name;
    for (const RunResult* r : mine)
        if (!size_name.empty())
            if (const ParamValue* v = r->params.Find(size_name)) ++per_size[v->number];
    const RunResult* best = nullptr;
    double best_cost = 1e18;
    for (const RunResult* r : mine) {
        double cost = 0;
        for (const auto& [name, value] : wanted.preferred.entries()) {
            if (Same(r->params, name, value)) continue;
            cost += name == size_name ? 1.0 : 100.0;
        }
        if (exact_only && cost > 0) continue;
        if (!size_name.empty())
            if (const ParamValue* v = r->params.Find(size_name))
                cost -= 0.001 * std::min(per_size[v->number], 999);  // the most recorded size
        if (cost <= best_cost) best = r, best_cost = cost;           // `<=`: the latest of equals
    }
    return best;
}

// Whether `results` hold a recording of `step` on `gpu` that is stale (its sources changed).
bool AnyStale(const std::vector<const RunResult*>& results, const Lesson& step,
              const std::string& gpu, const Registry& registry) {
    for (const RunResult* r : results)
        if (r && r->recorded && r->Device() == gpu &&
            (r->id == step.id || registry.FindLesson(r->id) == &step) && IsStale(*r, registry))
            return true;
    return false;
}

std::string NoRecording(const std::vector<const RunResult*>& results, const Lesson& step,
                        const std::string& gpu, const Registry& registry) {
    if (AnyStale(results, step, gpu, registry))
        return "the recording of " + step.Name() + " on " + gpu +
               " is stale: its kernel's sources changed since (record it again)";
    return "no recording of " + step.Name() + " on " + gpu + " at these settings";
}

std::string Provenance(const RunResult& r) {
    // A recorded CPU result names the GPU machine whose host ran it.
    if (!r.recorded_with.empty()) return r.recorded_with + " host, " + r.timestamp;
    std::string device = r.Device();
    if (r.devices.size() > 1) device = std::to_string(r.devices.size()) + "x " + device;
    return device + ", " + r.timestamp;
}

// A quantity of one result, formatted; nullopt when the result does not carry it.
std::optional<std::string> QuantityOf(const RunResult& r, const PageRef& ref, std::string* why) {
    const std::string& q = ref.quantity;
    if (q == "ms") return FormatFigure(r.median_ms) + " ms";
    if (q == "us") return FormatFigure(r.median_ms * 1000) + " \xC2\xB5s";
    if (q == "gbps") return FormatFigure(r.gbps) + " GB/s";
    if (q == "gflops" || q == "tflops") {
        if (!r.gflops) {
            *why = "the result counts no arithmetic";
            return std::nullopt;
        }
        return q == "gflops" ? FormatFigure(*r.gflops) + " GFLOP/s"
                             : FormatFigure(*r.gflops / 1000) + " TFLOP/s";
    }
    if (q == "pct") {
        if (!r.pct_of_ceiling) {
            *why = "the result was compared with no ceiling";
            return std::nullopt;
        }
        return FormatFigure(*r.pct_of_ceiling) + "%";
    }
    if (q == "ceiling") {
        if (!r.ceiling) {
            *why = "the result was compared with no ceiling";
            return std::nullopt;
        }
        if (IsArithmetic(r.work.bound)) return FormatFigure(*r.ceiling / 1000) + " TFLOP/s";
        return FormatFigure(*r.ceiling) + " GB/s";
    }
    if (q == "spread")
        return FormatFigure(r.min_ms) + "\xE2\x80\x93" + FormatFigure(r.max_ms) + " ms";
    if (q == "part") {
        if (const auto v = r.Part(ref.subject)) return FormatFigure(*v) + " ms";
        *why = "the result has no timed part '" + ref.subject + "'";
        return std::nullopt;
    }
    if (q == "value") {
        // A value is a count (pieces: "16") or a measure of any size (an error: "0.00455"):
        // whole numbers whole, others to three significant figures.
        if (const auto v = r.Value(ref.subject)) {
            if (std::fabs(*v) < 1e15 && *v == std::floor(*v)) return Printf("%.0f", *v);
            return std::fabs(*v) >= 1000 ? Printf("%.0f", *v) : Printf("%.3g", *v);
        }
        *why = "the result carries no value '" + ref.subject + "'";
        return std::nullopt;
    }
    if (q == "attr") {
        if (!r.attributes) {
            *why = "the result has no kernel attributes";
            return std::nullopt;
        }
        const Json j = ToJson(*r.attributes);
        const auto it = j.find(ref.subject);
        if (it == j.end() || !it->is_number()) {
            *why = "no kernel attribute '" + ref.subject + "'";
            return std::nullopt;
        }
        if (ref.subject == "occupancy") return FormatFigure(it->get<double>() * 100) + "%";
        if (it->is_number_integer()) return std::to_string(it->get<int64_t>());
        return FormatFigure(it->get<double>());
    }
    *why = "unknown quantity '" + q + "'";
    return std::nullopt;
}

// --- counters -------------------------------------------------------------------------------

struct CounterHit {
    double value = 0;
    std::string unit;
    std::string provenance;
    std::string file;
};

std::optional<CounterHit> FindCounter(const Lesson& step, const Wanted& wanted, const PageRef& ref,
                                      const std::string& gpu, std::string* why) {
    const Json* best = nullptr;
    std::string best_file;
    double best_cost = 1e18;
    static const std::map<std::string, Json> kFiles =
        OutOfMemoryAs("load the recorded counters", [] {
            std::map<std::string, Json> out;
            for (const auto& [path, text] : EmbeddedFiles())
                if (path.rfind("assets/counters/", 0) == 0)
                    out[path] = Json::parse(text.begin(), text.end(), nullptr, false);
            return out;
        });
    const std::string old_id = step.OldId();
    for (const auto& [path, all] : kFiles) {
        if (!all.is_array()) continue;
        for (const Json& p : all) {
            if (!p.is_object()) continue;
            const std::string id = p.value("id", std::string());
            if (id != step.id && (old_id.empty() || id != old_id)) continue;
            if (p.value("device", std::string()) != gpu) continue;
            const auto params = p.find("params");
            if (params == p.end() || !params->is_object()) continue;
            ParamValues have;
            bool ok = true;
            for (const auto& [name, v] : params->items()) {
                const ParamSpec* spec = step.FindParam(name);
                if (!spec) continue;
                try {
                    have.Set(name, v.is_string() ? spec->Parse(v.get<std::string>())
                                                 : ParamValue::Number(v.get<uint64_t>()));
                } catch (const std::exception&) {
                    ok = false;
                }
            }
            for (const auto& [name, value] : wanted.required.entries())
                ok = ok && Same(have, name, value);
            if (!ok) continue;
            double cost = 0;
            for (const auto& [name, value] : wanted.preferred.entries())
                if (!Same(have, name, value))
                    cost += step.FindParam(name)->type == ParamType::kBytes ? 1.0 : 100.0;
            if (cost <= best_cost) best = &p, best_cost = cost, best_file = path;
        }
    }
    if (!best) {
        *why = "no counters of " + step.Name() + " are recorded on " + gpu + " at these settings";
        return std::nullopt;
    }
    const auto kernels = best->find("kernels");
    if (kernels == best->end() || !kernels->is_array() || kernels->empty()) {
        *why = "the recorded profile of " + step.Name() + " has no kernels";
        return std::nullopt;
    }
    // The kernel asked for, else the one that ran longest (the step's main kernel).
    const Json* kernel = nullptr;
    if (ref.kernel >= 0) {
        if (size_t(ref.kernel) < kernels->size()) kernel = &(*kernels)[size_t(ref.kernel)];
    } else {
        double longest = -1;
        for (const Json& k : *kernels) {
            const double t =
                k.contains("counters") && k["counters"].contains("gpu__time_duration.sum")
                    ? k["counters"]["gpu__time_duration.sum"].value("value", 0.0)
                    : 0.0;
            if (t > longest) longest = t, kernel = &k;
        }
    }
    if (!kernel || !kernel->contains("counters") || !(*kernel)["counters"].contains(ref.subject)) {
        *why = "the recorded profile of " + step.Name() + " has no counter '" + ref.subject + "'";
        return std::nullopt;
    }
    const Json& c = (*kernel)["counters"][ref.subject];
    if (!c.is_object() || !c.contains("value") || !c["value"].is_number()) {
        *why = "counter '" + ref.subject + "' has no number";
        return std::nullopt;
    }
    return CounterHit{c["value"].get<double>(), c.value("unit", std::string()),
                      gpu + ", " + best->value("recorded_at", std::string()), best_file};
}

std::string FormatCounter(double value, const std::string& unit) {
    if (unit == "%") return FormatFigure(value) + "%";
    if (unit == "byte") {
        if (value >= 1e9) return FormatFigure(value / 1e9) + " GB";
        if (value >= 1e6) return FormatFigure(value / 1e6) + " MB";
        if (value >= 1e3) return FormatFigure(value / 1e3) + " kB";
        return FormatFigure(value) + " B";
    }
    if (unit == "ns") return FormatFigure(value / 1e6) + " ms";
    if (unit == "usecond") return FormatFigure(value / 1e3) + " ms";
    // Counts with ncu's unit ("69.2 M sector", "7 block"; whole numbers without decimals).
    const std::string n = value >= 1e6                 ? FormatFigure(value / 1e6) + " M"
                          : value == std::floor(value) ? Printf("%.0f", value)
                                                       : FormatFigure(value);
    return unit.empty() || unit == "inst" ? n : n + " " + unit;
}

// --- SASS -----------------------------------------------------------------------------------

// The opcode of a SASS line ("/*0080*/  @P0 LDG.E.128 R4, ..." -> "LDG.E.128"); empty: none.
std::string_view Opcode(std::string_view line) {
    const size_t close = line.find("*/");
    if (line.find("/*") == std::string_view::npos || close == std::string_view::npos) return {};
    line.remove_prefix(close + 2);
    auto word = [&line]() -> std::string_view {
        const size_t a = line.find_first_not_of(" \t");
        if (a == std::string_view::npos) return {};
        line.remove_prefix(a);
        const size_t b = line.find_first_of(" \t;");
        const std::string_view w = line.substr(0, b);
        line.remove_prefix(b == std::string_view::npos ? line.size() : b);
        return w;
    };
    std::string_view w = word();
    if (!w.empty() && w.front() == '@') w = word();  // a predicate
    if (w.empty() || !std::isupper(static_cast<unsigned char>(w.front()))) return {};
    return w;
}

std::optional<int> CountSass(const Lesson& step, const PageRef& ref, std::string* provenance,
                             std::string* why) {
    const auto& files = MachineCodeFiles().files;
    const auto file = files.find(step.source_path);
    if (file == files.end() || file->second.sass.empty()) {
        *why = "no SASS of " + step.source_path + " in this build" +
               (file != files.end() && file->second.sass_note && *file->second.sass_note
                    ? std::string(" (") + file->second.sass_note + ")"
                    : std::string());
        return std::nullopt;
    }
    std::string fn;
    for (const auto& [name, value] : ref.settings)
        if (name == "fn") fn = value;
    int count = 0;
    bool any_function = false;
    for (const MachineFunction& f : SplitFunctions(file->second.sass, Isa::kSass)) {
        if (!fn.empty() && f.name.find(fn) == std::string::npos) continue;
        any_function = true;
        size_t start = 0;
        while (start < f.code.size()) {
            size_t end = f.code.find('\n', start);
            if (end == std::string_view::npos) end = f.code.size();
            const std::string_view op = Opcode(f.code.substr(start, end - start));
            if (op == ref.subject ||
                (op.size() > ref.subject.size() &&
                 op.substr(0, ref.subject.size()) == ref.subject && op[ref.subject.size()] == '.'))
                ++count;
            start = end + 1;
        }
    }
    if (!any_function) {
        *why = "no function of " + step.source_path + "'s SASS is named like '" + fn + "'";
        return std::nullopt;
    }
    *provenance = std::string("SASS ") + MachineCodeFiles().sass_arch +
                  (file->second.sass_source && *file->second.sass_source
                       ? std::string(", ") + file->second.sass_source
                       : std::string(", this build"));
    return count;
}

const Lesson* FindStep(const Registry& registry, const Lesson& page, const std::string& name) {
    if (name.empty()) return &page;
    if (name.find('/') == std::string::npos) {
        if (const Lesson* l = registry.FindLesson(page.chapter + "/" + name)) return l;
    }
    return registry.FindLesson(name);
}

// --- anchors: another program's rates, recorded as data (assets/anchors/<gpu>/*.json) --------

constexpr std::string_view kAnchorFolder = "assets/anchors/";

// One file: a program (PyTorch) timed on one GPU, at some settings of a chapter's parameters.
struct AnchorFile {
    std::string path, device, chapter, provenance;
    std::vector<Json> results;  // {"op", the chapter's parameters..., "median_ms", "gbps"}
};

const std::vector<AnchorFile>& Anchors() {
    static const std::vector<AnchorFile> all = [] {
        std::vector<AnchorFile> out;
        for (const auto& [path, text] : EmbeddedFiles()) {
            if (path.rfind(kAnchorFolder, 0) != 0) continue;
            const Json j = OutOfMemoryAs("load the recorded results", [&text = text] {
                return Json::parse(text.begin(), text.end(), nullptr, false);
            });
            if (!j.is_object() || !j.contains("device") || !j["device"].is_string() ||
                !j.contains("results") || !j["results"].is_array())
                continue;  // the page test names files that do not load (AnchorProblems)
            AnchorFile f;
            f.path = path;
            f.device = j["device"].get<std::string>();
            f.chapter = j.value("chapter", std::string());
            // No ", " in it: the footer lists it apart from the GPU's own recordings. No words
            // either: the footer is shown in both languages.
            f.provenance = j.value("program", std::string("?")) + " \xC2\xB7 " + f.device +
                           " \xC2\xB7 " + j.value("recorded", std::string("?"));
            for (const Json& r : j["results"])
                if (r.is_object()) f.results.push_back(r);
            out.push_back(std::move(f));
        }
        return out;
    }();
    return all;
}

// Whether an anchor's entry was taken at `value` of the parameter `name` (an entry that does not
// name the parameter was not taken at any particular value of it: it matches).
bool AnchorHas(const Json& entry, const std::string& name, const ParamValue& value) {
    const auto it = entry.find(name);
    if (it == entry.end()) return true;
    if (it->is_number_unsigned() || it->is_number_integer())
        return value.choice.empty() && it->get<uint64_t>() == value.number;
    if (it->is_string()) return !value.choice.empty() && it->get<std::string>() == value.choice;
    return false;
}

// {{anchor OP settings... [vs=@step] [on=GPU]}}: the rate of another program's OP (PyTorch's
// "torch.softmax") recorded on the page's GPU at exactly the settings asked (named, or the page's
// for the parameters the anchor names): its GB/s; with vs=, the step's recorded rate at the same
// settings over the anchor's ("1.20×": the step is that many times as fast).
RefValue ResolveAnchor(const PageRef& ref, const Lesson& step, const Wanted& wanted,
                       const PageData& data, const std::string& gpu) {
    RefValue out;
    const AnchorFile* file = nullptr;
    const Json* entry = nullptr;
    bool any_op = false;
    for (const AnchorFile& f : Anchors()) {
        if (f.device != gpu || (!f.chapter.empty() && f.chapter != step.chapter)) continue;
        for (const Json& e : f.results) {
            if (e.value("op", std::string()) != ref.subject) continue;
            any_op = true;
            bool ok = e.contains("gbps") && e["gbps"].is_number();
            for (const auto& [name, value] : wanted.required.entries())
                ok = ok && AnchorHas(e, name, value);
            for (const auto& [name, value] : wanted.preferred.entries())
                ok = ok && AnchorHas(e, name, value);
            if (ok) file = &f, entry = &e;
        }
    }
    if (!entry) {
        std::string at;
        for (const char* name : {"m", "n", "k", "size", "dtype"}) {
            const ParamValue* v = wanted.required.Find(name);
            if (!v) v = wanted.preferred.Find(name);
            if (v)
                at += std::string(at.empty() ? "" : " ") + name + "=" +
                      (v->choice.empty() ? std::to_string(v->number) : v->choice);
        }
        out.text = any_op ? "no anchor '" + ref.subject + "' on " + gpu + " at " + at
                          : "no anchor '" + ref.subject + "' is recorded on " + gpu;
        return out;
    }
    const double anchor_gbps = (*entry)["gbps"].get<double>();
    out.file = file->path;
    if (ref.vs.empty()) {
        out.ok = true;
        out.text = FormatFigure(anchor_gbps) + " GB/s";
        out.provenance = file->provenance;
        return out;
    }
    const Registry& registry = *data.registry;
    const Lesson* other = FindStep(registry, step, ref.vs);
    if (!other) {
        out.text = "no lesson '" + ref.vs + "'";
        return out;
    }
    // The step at the anchor's settings exactly: the same rows, columns and dtype.
    std::string error;
    Wanted at = WantedFor(*other, PageRef{}, data, &error);
    for (const auto& [name, value] : wanted.required.entries())
        if (other->FindParam(name)) at.required.Set(name, value);
    for (const auto& [name, value] : wanted.preferred.entries())
        if (other->FindParam(name) && entry->contains(name)) at.required.Set(name, value);
    const RunResult* r = Best(data.recorded, *other, at, gpu, registry, false);
    if (!r || anchor_gbps <= 0) {
        out.text = NoRecording(data.recorded, *other, gpu, registry) + " (the anchor's)";
        return out;
    }
    out.ok = true;
    out.text = FormatFigure(r->gbps / anchor_gbps) + "\xC3\x97";
    // Both sources, a line each (ResolvePage lists them apart).
    out.provenance = Provenance(*r) + "\n" + file->provenance;
    return out;
}

bool IsUnitStart(std::string_view s, size_t at, std::string_view unit) {
    if (s.substr(at, unit.size()) != unit) return false;
    const size_t after = at + unit.size();
    if (after >= s.size()) return true;
    const unsigned char c = static_cast<unsigned char>(s[after]);
    return !(std::isalnum(c) || c == '_');
}

}  // namespace

const char* PartKeyword(PagePart part) {
    return kParts[int(part)].keyword;
}
const char* PartHeading(PagePart part, TextLanguage language) {
    return language == TextLanguage::kChinese ? kParts[int(part)].zh : kParts[int(part)].keyword;
}
bool IsFolded(PagePart part) {
    return part == PagePart::kEvidence || part == PagePart::kBackground ||
           part == PagePart::kOtherGpu;
}

const PageSection* LessonPage::Find(PagePart part) const {
    for (const PageSection& s : sections)
        if (s.part == part) return &s;
    return nullptr;
}

LessonPage ParsePage(std::string_view text) {
    LessonPage page;
    page.sections.push_back({PagePart::kIntro, {}});
    bool fenced = false;
    for (const std::string& line : Lines(text)) {
        if (line.rfind("```", 0) == 0) fenced = !fenced;
        if (!fenced && line.rfind("# ", 0) == 0 && page.title.empty()) {
            page.title = Trim(line.substr(2));
            continue;
        }
        if (!fenced && line.rfind("## ", 0) == 0) {
            const std::string heading = Trim(line.substr(3));
            const PartName* found = nullptr;
            for (const PartName& p : kParts)
                if (p.part != PagePart::kIntro && heading == p.keyword) found = &p;
            page.in_model = true;
            if (!found) {
                page.problems.push_back("unknown section '## " + heading +
                                        "' (the sections are Change, Prediction, Why, Try this, "
                                        "Questions, Evidence, Background, On another GPU)");
                page.sections.back().text += line + "\n";
                continue;
            }
            if (page.Find(found->part))
                page.problems.push_back("section '## " + heading + "' appears twice");
            else if (found->part < page.sections.back().part)
                page.problems.push_back("section '## " + heading + "' is out of order");
            page.sections.push_back({found->part, {}});
            continue;
        }
        page.sections.back().text += line + "\n";
    }
    for (PageSection& s : page.sections) {
        const size_t a = s.text.find_first_not_of("\n");
        s.text = a == std::string::npos ? std::string() : s.text.substr(a);
        while (s.text.size() > 1 && s.text[s.text.size() - 1] == '\n' &&
               s.text[s.text.size() - 2] == '\n')
            s.text.pop_back();
    }
    if (page.title.empty()) page.problems.push_back("no '# ' title");
    if (page.in_model) {
        for (const PagePart required : {PagePart::kChange, PagePart::kPrediction, PagePart::kWhy})
            if (!page.Find(required))
                page.problems.push_back(std::string("no '## ") + PartKeyword(required) +
                                        "' section");
        if (const PageSection* change = page.Find(PagePart::kChange)) {
            int bullets = 0;
            for (const std::string& l : Lines(change->text)) bullets += l.rfind("- ", 0) == 0;
            if (bullets > 3) page.problems.push_back("'## Change' has more than three bullets");
        }
        if (const PageSection* q = page.Find(PagePart::kQuestions)) {
            int answers = 0;
            for (const std::string& l : Lines(q->text)) answers += IsAnswer(l);
            if (answers > 2) page.problems.push_back("more than two questions");
        }
    }
    return page;
}

int CoreLength(const LessonPage& page, TextLanguage language) {
    int count = 0;
    for (const PageSection& s : page.sections) {
        if (IsFolded(s.part)) continue;
        bool answer = false;
        for (const std::string& line : Lines(s.text)) {
            if (line.empty()) answer = false;
            if (IsAnswer(line)) answer = true;
            if (answer) continue;
            // A reference counts as one word however long it is written.
            std::string plain;
            for (size_t i = 0; i < line.size();) {
                if (line.compare(i, 2, "{{") == 0) {
                    const size_t end = line.find("}}", i);
                    plain += " x ";
                    i = end == std::string::npos ? line.size() : end + 2;
                } else {
                    plain += line[i++];
                }
            }
            bool in_word = false;
            for (size_t i = 0; i < plain.size();) {
                const unsigned char c = static_cast<unsigned char>(plain[i]);
                const size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
                if (language == TextLanguage::kChinese && len >= 3) {
                    // A Chinese character counts one; full-width punctuation does not.
                    const bool punct =
                        (c == 0xE3 && static_cast<unsigned char>(plain[i + 1]) == 0x80) ||
                        c == 0xEF;
                    count += punct ? 0 : 1;
                    in_word = false;
                } else if (std::isspace(c) ||
                           (c < 0x80 && std::ispunct(c) && !((c == '\'' || c == '-') && in_word))) {
                    in_word = false;
                } else if (!in_word) {
                    ++count;
                    in_word = true;
                }
                i += len;
            }
        }
    }
    return count;
}

std::optional<PageRef> ParseRef(std::string_view inside, std::string* error) {
    PageRef ref;
    const std::string body = Trim(inside);
    if (body.rfind("given", 0) == 0 && (body.size() == 5 || body[5] == ' ')) {
        ref.quantity = "given";
        const std::string rest = body.substr(5);
        const size_t bar = rest.find('|');
        if (bar == std::string::npos || Trim(rest.substr(0, bar)).empty() ||
            Trim(rest.substr(bar + 1)).empty()) {
            *error = "a given figure is written {{given TEXT | SOURCE}}";
            return std::nullopt;
        }
        ref.given_text = Trim(rest.substr(0, bar));
        ref.given_source = Trim(rest.substr(bar + 1));
        return ref;
    }
    std::vector<std::string> words;
    size_t i = 0;
    while (i < body.size()) {
        while (i < body.size() && body[i] == ' ') ++i;
        if (i < body.size() && body[i] == '"') {  // a quoted subject: "gpu0 kernel"
            const size_t close = body.find('"', i + 1);
            if (close == std::string::npos) {
                *error = "a quote is not closed";
                return std::nullopt;
            }
            words.push_back(body.substr(i + 1, close - i - 1));
            i = close + 1;
            continue;
        }
        const size_t start = i;
        while (i < body.size() && body[i] != ' ') ++i;
        if (i > start) words.push_back(body.substr(start, i - start));
    }
    if (words.empty()) {
        *error = "an empty reference";
        return std::nullopt;
    }
    static const std::set<std::string> kQuantities = {
        "ms",     "us",   "gbps",  "gflops", "tflops",  "pct",  "ceiling", "speedup",
        "spread", "part", "value", "attr",   "counter", "sass", "anchor"};
    ref.quantity = words[0];
    if (!kQuantities.count(ref.quantity)) {
        *error = "unknown quantity '" + ref.quantity + "'";
        return std::nullopt;
    }
    for (size_t w = 1; w < words.size(); ++w) {
        const std::string& word = words[w];
        if (word[0] == '@') {
            if (!ref.step.empty() || word.size() == 1) {
                *error = "a reference names one step ('" + word + "')";
                return std::nullopt;
            }
            ref.step = word.substr(1);
        } else if (const size_t eq = word.find('='); eq != std::string::npos) {
            const std::string name = word.substr(0, eq), value = word.substr(eq + 1);
            if (name.empty() || value.empty()) {
                *error = "'" + word + "' is not name=value";
                return std::nullopt;
            }
            if (name == "vs") {
                if (value[0] != '@' || value.size() == 1) {
                    *error = "vs= names a step: vs=@slug";
                    return std::nullopt;
                }
                ref.vs = value.substr(1);
            } else if (name == "on") {
                ref.on = value;
            } else if (name == "kernel") {
                try {
                    ref.kernel = std::stoi(value);
                } catch (const std::exception&) {
                    *error = "kernel= takes a number";
                    return std::nullopt;
                }
            } else {
                ref.settings.push_back({name, value});
            }
        } else if (ref.subject.empty()) {
            ref.subject = word;
        } else {
            *error = "more than one subject ('" + ref.subject + "', '" + word + "')";
            return std::nullopt;
        }
    }
    const bool needs_subject = ref.quantity == "part" || ref.quantity == "value" ||
                               ref.quantity == "attr" || ref.quantity == "counter" ||
                               ref.quantity == "sass" || ref.quantity == "anchor";
    if (needs_subject && ref.subject.empty()) {
        *error = ref.quantity + " needs a subject: {{" + ref.quantity + " NAME}}";
        return std::nullopt;
    }
    if (!needs_subject && !ref.subject.empty()) {
        *error = ref.quantity + " takes no subject ('" + ref.subject + "')";
        return std::nullopt;
    }
    if (!ref.vs.empty() && ref.quantity != "speedup" && ref.quantity != "anchor") {
        *error = "vs= is for speedup and anchor";
        return std::nullopt;
    }
    return ref;
}

std::string FormatFigure(double v) {
    const double a = std::fabs(v);
    if (a >= 1000) return Printf("%.0f", v);
    if (a >= 100) return Printf("%.0f", v);
    if (a >= 10) return Printf("%.1f", v);
    if (a >= 1) return Printf("%.2f", v);
    if (a == 0) return "0";
    if (a >= 0.001) return Printf("%.3f", v);
    return Printf("%.3g", v);
}

RefValue ResolveRef(const PageRef& ref, const Lesson& page_lesson, const PageData& data,
                    TextLanguage language) {
    RefValue out;
    if (ref.quantity == "given") {
        out.ok = true;
        out.text = ref.given_text;
        out.provenance = ref.given_source;
        return out;
    }
    const Registry& registry = *data.registry;
    std::string gpu = data.gpu;
    if (!ref.on.empty()) {  // another GPU's recordings: the first name (sorted) that holds it
        std::set<std::string> names;
        for (const RunResult* r : data.recorded)
            if (r && !r->devices.empty() && r->Device().find(ref.on) != std::string::npos)
                names.insert(r->Device());
        if (names.empty()) {
            out.text = "no GPU named like '" + ref.on + "' is recorded";
            return out;
        }
        gpu = *names.begin();
    }
    const Lesson* step = FindStep(registry, page_lesson, ref.step);
    if (!step) {
        out.text = "no lesson '" + ref.step + "'";
        return out;
    }
    std::string error;
    const Wanted wanted = WantedFor(*step, ref, data, &error);
    if (!error.empty()) {
        out.text = error;
        return out;
    }
    if (ref.quantity == "anchor") return ResolveAnchor(ref, *step, wanted, data, gpu);
    if (ref.quantity == "sass") {
        const auto n = CountSass(*step, ref, &out.provenance, &out.text);
        if (!n) return out;
        out.ok = true;
        out.text = std::to_string(*n);
        return out;
    }
    if (ref.quantity == "counter") {
        const auto hit = FindCounter(*step, wanted, ref, gpu, &out.text);
        if (!hit) return out;
        out.ok = true;
        out.text = FormatCounter(hit->value, hit->unit);
        out.provenance = "counters: " + hit->provenance;
        out.file = hit->file;
        return out;
    }
    const std::string yours_word = language == TextLanguage::kChinese ? "你的：" : "yours: ";
    if (ref.quantity == "speedup") {
        const Lesson* other = nullptr;
        bool own_settings = false;
        for (const auto& [n, t] : ref.settings)
            own_settings = own_settings || n.rfind("vs.", 0) == 0;
        if (!ref.vs.empty()) {
            other = FindStep(registry, page_lesson, ref.vs);
        } else if (own_settings) {
            other = step;  // the same step at other settings: a toggle's share
        } else {
            other = step->previous ? registry.FindLesson(step->previous) : nullptr;
        }
        if (!other) {
            out.text = ref.vs.empty() ? step->Name() + " has no previous step"
                                      : "no lesson '" + ref.vs + "'";
            return out;
        }
        PageRef other_ref = ref;
        const Wanted other_wanted = WantedFor(*other, other_ref, data, &error, true);
        if (!error.empty()) {
            out.text = error;
            return out;
        }
        const auto ratio = [&](const std::vector<const RunResult*>& set, const std::string& device,
                               bool exact) -> std::optional<std::pair<double, std::string>> {
            const RunResult* a = Best(set, *step, wanted, device, registry, exact);
            const RunResult* b = Best(set, *other, other_wanted, device, registry, exact);
            if (!a || !b || a->median_ms <= 0) return std::nullopt;
            return std::pair{b->median_ms / a->median_ms, Provenance(*a)};
        };
        const auto r = ratio(data.recorded, gpu, false);
        if (!r) {
            out.text = "no recording on " + gpu + " of both " + step->Name() + " and " +
                       other->Name() + " at these settings";
            return out;
        }
        out.ok = true;
        out.text = FormatFigure(r->first) + "\xC3\x97";
        out.provenance = r->second;
        out.file = RecordingFiles(step->chapter, gpu).empty()
                       ? std::string()
                       : RecordingFiles(step->chapter, gpu).front();
        if (const auto y = ref.on.empty() ? ratio(data.live, "", true) : std::nullopt)
            out.yours = yours_word + FormatFigure(y->first) + "\xC3\x97";
        return out;
    }
    const RunResult* r = Best(data.recorded, *step, wanted, gpu, registry, false);
    if (!r) {
        out.text = NoRecording(data.recorded, *step, gpu, registry);
        return out;
    }
    const auto text = QuantityOf(*r, ref, &out.text);
    if (!text) return out;
    out.ok = true;
    out.text = *text;
    out.provenance = Provenance(*r);
    const auto files = RecordingFiles(step->chapter, r->Device());
    if (!files.empty()) out.file = files.front();
    if (const RunResult* live =
            ref.on.empty() ? Best(data.live, *step, wanted, "", registry, true) : nullptr) {
        std::string ignored;
        if (const auto y = QuantityOf(*live, ref, &ignored)) out.yours = yours_word + *y;
    }
    return out;
}

std::string ResultRow(const Lesson& lesson, const PageData& data, TextLanguage language) {
    const bool zh = language == TextLanguage::kChinese;
    const auto figure = [&](const char* written) -> std::optional<std::string> {
        std::string error;
        const auto ref = ParseRef(written, &error);
        const RefValue v = ResolveRef(*ref, lesson, data, language);
        if (!v.ok) return std::nullopt;
        if (v.yours.empty()) return v.text;
        return v.text + (zh ? "（" + v.yours + "）" : " (" + v.yours + ")");
    };
    std::vector<std::string> parts;
    if (const auto t = figure("ms")) parts.push_back(*t);
    const Lesson* previous = lesson.previous ? data.registry->FindLesson(lesson.previous) : nullptr;
    if (previous)
        if (const auto x = figure("speedup"))
            parts.push_back(zh ? "第 " + previous->label + " 课的 " + *x
                               : *x + " lesson " + previous->label);
    if (const auto pct = figure("pct")) {
        // The bound the step was held to, named, with its value.
        std::string ignored;
        const RunResult* r =
            Best(data.recorded, lesson, WantedFor(lesson, PageRef{}, data, &ignored), data.gpu,
                 *data.registry, false);
        const Bound bound = r ? r->work.bound : Bound::kNone;
        const auto ceiling = figure("ceiling");
        std::string what = zh ? CeilingDescriptionZh(bound) : CeilingDescription(bound);
        // A memory ceiling measured over the step's own footprint says over how much.
        const std::string over = r && r->ceiling_bytes ? FormatSize(*r->ceiling_bytes) : "";
        if (ceiling)
            what += zh ? "（" + *ceiling + (over.empty() ? "" : "，按 " + over + " 测得") + "）"
                       : " (" + *ceiling + (over.empty() ? "" : " over " + over) + ")";
        parts.push_back(zh ? what + "的 " + *pct : *pct + " of the " + what);
    }
    std::string row;
    for (const std::string& p : parts) row += (row.empty() ? "" : " \xC2\xB7 ") + p;
    // A CPU step measured here while other programs kept cores busy, or a GPU step timed below
    // its highest clock: said beside its figure.
    std::string ignored;
    const RunResult* live = Best(data.live, lesson, WantedFor(lesson, PageRef{}, data, &ignored),
                                 "", *data.registry, true);
    const RunResult* shown =
        live ? live
             : Best(data.recorded, lesson, WantedFor(lesson, PageRef{}, data, &ignored), data.gpu,
                    *data.registry, false);
    if (shown) {
        const std::string clock = ClockNote(*shown, language);
        if (!clock.empty()) row += (row.empty() ? "" : " \xC2\xB7 ") + clock;
    }
    if (live) {
        const std::string note = SharedCoresNote(*live, GetHostInfo().hardware_threads, language);
        if (!note.empty()) row += (row.empty() ? "" : "\n\n") + note;
    }
    return row;
}

std::string ClockNote(const RunResult& r, TextLanguage language) {
    if (r.kind != StepKind::kGpu || !r.sm_clock_mhz || !r.sm_clock_max_mhz ||
        *r.sm_clock_max_mhz <= 0)
        return {};
    // Within 3% of the highest clock: nothing to say.
    if (*r.sm_clock_mhz >= 0.97 * *r.sm_clock_max_mhz) return {};
    const bool zh = language == TextLanguage::kChinese;
    static const std::map<std::string, std::pair<const char*, const char*>> kWords = {
        {"power-cap", {"the power cap", "功耗上限"}},
        {"thermal", {"heat", "温度"}},
        {"hardware-slowdown", {"a hardware slowdown", "硬件降频"}},
        {"power-brake", {"the power brake", "功耗制动"}},
        {"application-clocks", {"the application clock setting", "应用时钟设置"}},
        {"sync-boost", {"sync boost", "同步加速"}},
        {"display", {"the display clock setting", "显示时钟设置"}},
    };
    std::string why;
    for (const std::string& id : r.clock_limits) {
        const auto w = kWords.find(id);
        if (w == kWords.end()) continue;
        why += (why.empty() ? ""
                : zh        ? "、"
                            : ", ") +
               std::string(zh ? w->second.second : w->second.first);
    }
    const std::string at = Fixed(*r.sm_clock_mhz, 0);
    const std::string top = Fixed(*r.sm_clock_max_mhz, 0);
    if (zh)
        return "计时时 SM 时钟 " + at + " MHz（最高 " + top + " MHz" +
               (why.empty() ? "" : "，受" + why + "限制") + "）";
    return "timed at " + at + " of " + top + " MHz" + (why.empty() ? "" : ", held by " + why);
}

std::string SharedCoresNote(const RunResult& r, int cores, TextLanguage language) {
    if (r.kind != StepKind::kCpu || !r.other_cores_busy || cores <= 0) return {};
    const double threads =
        double(std::min<uint64_t>(r.Number("threads").value_or(uint64_t(cores)), uint64_t(cores)));
    const double free_cores = double(cores) - *r.other_cores_busy;
    // Half a core of slack: a desktop's own background work is not a shared measurement.
    if (free_cores + 0.5 >= threads) return {};
    const std::string busy = Fixed(*r.other_cores_busy, 1);
    const std::string all = std::to_string(cores);
    const std::string used = Fixed(threads, 0);
    if (language == TextLanguage::kChinese)
        return "注意：测量期间，其他程序平均占用了本机 " + all + " 个核心中的 " + busy +
               " 个，而这一步要用 " + used + " 个线程：它没有独占所需的核心，时间偏慢。";
    return "Note: other programs kept " + busy + " of this machine's " + all +
           " cores busy while this ran, and the step uses " + used +
           " threads: it did not have the cores it uses to itself, so its time is slower.";
}

std::vector<std::string> RefsOf(std::string_view text) {
    std::vector<std::string> out;
    for (size_t at = text.find("{{"); at != std::string_view::npos; at = text.find("{{", at + 2)) {
        const size_t end = text.find("}}", at);
        if (end == std::string_view::npos) {
            out.push_back(std::string(text.substr(at, 40)));
            break;
        }
        out.push_back(std::string(text.substr(at, end + 2 - at)));
    }
    return out;
}

ResolvedPage ResolvePage(std::string_view text, const Lesson& lesson, const PageData& data,
                         TextLanguage language) {
    ResolvedPage out;
    const LessonPage page = ParsePage(text);
    out.title = page.title;
    std::set<std::string> sources, files;
    for (const PageSection& s : page.sections) {
        PageSection resolved{s.part, {}};
        size_t i = 0;
        while (i < s.text.size()) {
            const size_t at = s.text.find("{{", i);
            if (at == std::string::npos) {
                resolved.text += s.text.substr(i);
                break;
            }
            resolved.text += s.text.substr(i, at - i);
            const size_t end = s.text.find("}}", at);
            if (end == std::string::npos) {
                out.unresolved.push_back(s.text.substr(at, 40) + ": not closed with }}");
                resolved.text += s.text.substr(at);
                break;
            }
            const std::string inside = s.text.substr(at + 2, end - at - 2);
            std::string error;
            const auto ref = ParseRef(inside, &error);
            RefValue v;
            if (ref) v = ResolveRef(*ref, lesson, data, language);
            if (!ref || !v.ok) {
                out.unresolved.push_back("{{" + inside + "}}: " + (ref ? v.text : error));
                resolved.text += "{{?" + inside + "}}";
            } else {
                resolved.text += v.text;
                if (!v.yours.empty())
                    resolved.text += language == TextLanguage::kChinese ? "（" + v.yours + "）"
                                                                        : " (" + v.yours + ")";
                // A line each: an anchor's ratio names the step's recording and the anchor's.
                for (size_t from = 0; ref->quantity != "given" && from < v.provenance.size();) {
                    const size_t line =
                        std::min(v.provenance.find('\n', from), v.provenance.size());
                    sources.insert(v.provenance.substr(from, line - from));
                    from = line + 1;
                }
                if (!v.file.empty()) files.insert(v.file);
            }
            i = end + 2;
        }
        out.sections.push_back(std::move(resolved));
    }
    out.sources.assign(sources.begin(), sources.end());
    out.files.assign(files.begin(), files.end());
    // The footer: the GPU and the span of recording times, then counters and SASS.
    // Another GPU's recordings (on=) are named with their own time after the page's GPU.
    const auto minute = [](const std::string& t) {
        std::string m = t.substr(0, 16);
        if (m.size() == 16) m[10] = ' ';
        return m + " UTC";
    };
    std::string first, last;
    std::set<std::string> other;
    for (const std::string& s : out.sources) {
        const size_t comma = s.rfind(", ");
        if (s.rfind("counters: ", 0) == 0 || s.rfind("SASS ", 0) == 0 ||
            comma == std::string::npos) {
            other.insert(s);
            continue;
        }
        const std::string when = s.substr(comma + 2);
        if (s.substr(0, comma).find(data.gpu) == std::string::npos) {
            other.insert(s.substr(0, comma) + ", " + minute(when));
            continue;
        }
        if (first.empty() || when < first) first = when;
        if (last.empty() || when > last) last = when;
    }
    const bool zh = language == TextLanguage::kChinese;
    std::string footer;
    if (!first.empty()) {
        footer = (zh ? "数据：" : "Figures: ") + data.gpu + (zh ? "，录制于 " : ", recorded ") +
                 minute(first);
        if (last.substr(0, 16) != first.substr(0, 16)) footer += " \xE2\x80\x93 " + minute(last);
    }
    for (const std::string& o : other) footer += (footer.empty() ? "" : zh ? "；" : "; ") + o;
    if (footer.empty()) footer = zh ? "本页没有测量数据。" : "No measured figures on this page.";
    out.footer = footer;
    return out;
}

std::vector<std::string> PageProblems(std::string_view text, TextLanguage language) {
    std::vector<std::string> out;
    const LessonPage page = ParsePage(text);
    if (!page.in_model) out.push_back("the text declares no sections: it is not in the page model");
    for (const std::string& p : page.problems) out.push_back(p);
    const bool zh = language == TextLanguage::kChinese;
    const int length = CoreLength(page, language);
    const int limit = zh ? kCoreCharactersChinese : kCoreWordsEnglish;
    if (length > limit)
        out.push_back("the core is " + std::to_string(length) + (zh ? " characters" : " words") +
                      " (at most " + std::to_string(limit) + ")");
    for (const std::string& f : TypedFigures(text))
        out.push_back("a typed figure, '" + f + "' (write it as a reference: docs/pages.md)");
    // No dates or clock times in the prose: the footer says where the figures come from.
    std::string plain(text);
    plain = std::regex_replace(plain, std::regex(R"(\{\{[^}]*\}\})"), " ");
    static const std::regex kWhen(R"(20[0-9][0-9]-[01][0-9]-[0-3][0-9]|\b[0-2][0-9]:[0-5][0-9]\b)");
    for (auto it = std::sregex_iterator(plain.begin(), plain.end(), kWhen);
         it != std::sregex_iterator(); ++it)
        out.push_back("a date or clock time in the prose, '" + it->str() + "'");
    return out;
}

std::vector<std::string> TypedFigures(std::string_view text) {
    std::vector<std::string> out;
    // Blank out references and code spans' insides stay: a figure in code is still typed.
    std::string plain(text);
    for (size_t at = plain.find("{{"); at != std::string::npos; at = plain.find("{{", at)) {
        const size_t end = plain.find("}}", at);
        const size_t stop = end == std::string::npos ? plain.size() : end + 2;
        for (size_t i = at; i < stop; ++i) plain[i] = ' ';
    }
    static const std::vector<std::string_view> kUnits = {
        "ms",      "\xC2\xB5s", "us", "ns",       "GB/s", "TB/s",  "MB/s",
        "GFLOP/s", "TFLOP/s",   "%",  "\xC3\x97", "x",    "times", "\xE5\x80\x8D" /* 倍 */};
    for (size_t i = 0; i < plain.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(plain[i]);
        if (!std::isdigit(c)) continue;
        if (i > 0) {
            const unsigned char p = static_cast<unsigned char>(plain[i - 1]);
            if (std::isalnum(p) || p == '_' || p == '.' || p == '^') continue;  // inside a name
        }
        size_t j = i;
        while (j < plain.size() &&
               (std::isdigit(static_cast<unsigned char>(plain[j])) || plain[j] == '.' ||
                (plain[j] == ',' && j + 1 < plain.size() &&
                 std::isdigit(static_cast<unsigned char>(plain[j + 1])))))
            ++j;
        size_t number_end = j;
        while (number_end > i && plain[number_end - 1] == '.') --number_end;
        size_t k = number_end;
        if (k < plain.size() && plain[k] == ' ')
            ++k;
        else if (plain.compare(k, 2, "\xC2\xA0") == 0)
            k += 2;
        for (const std::string_view unit : kUnits) {
            const bool tight = k == number_end;  // "2x", "67%": no space
            if (unit == "x" && !tight) continue;
            if (IsUnitStart(plain, k, unit) ||
                (unit == "\xE5\x80\x8D" && plain.compare(k, unit.size(), unit) == 0) ||
                (unit == "%" && plain.compare(k, 1, "%") == 0)) {
                out.push_back(plain.substr(i, k + unit.size() - i));
                break;
            }
        }
        i = j;
    }
    return out;
}

std::vector<GlanceRow> ChapterAtAGlance(const Chapter& chapter, const PageData& data,
                                        TextLanguage language) {
    std::vector<GlanceRow> rows;
    const Registry& registry = *data.registry;
    const std::vector<const Lesson*> lessons = registry.LessonsOf(chapter);
    // Each step is held to the library step that closes its part of the chapter (the first at
    // or after it: cuBLAS SGEMM for the fp32 steps, cuBLAS TF32 for the tensor-core ones), and
    // a step after the last library step to that one: what a user would call instead.
    const auto library_for = [&](size_t at) -> const Lesson* {
        for (size_t i = at; i < lessons.size(); ++i)
            if (lessons[i]->library) return lessons[i];
        for (size_t i = at; i-- > 0;)
            if (lessons[i]->library) return lessons[i];
        return nullptr;
    };
    const bool zh = language == TextLanguage::kChinese;
    for (size_t at = 0; at < lessons.size(); ++at) {
        const Lesson* l = lessons[at];
        const Lesson* library = library_for(at);
        GlanceRow row;
        row.label = l->label;
        row.title = zh ? l->title_zh : l->title;  // a page in the model: its idea
        const auto figure = [&](const std::string& written) {
            std::string error;
            const auto ref = ParseRef(written, &error);
            if (!ref) return std::string("\xE2\x80\x94");
            const RefValue v = ResolveRef(*ref, *l, data, language);
            if (v.ok) return v.text;
            // A CPU step runs live: its own result, when this machine has one.
            return std::string("\xE2\x80\x94");
        };
        row.time = figure("ms");
        row.speedup =
            l->previous && !chapter.independent_steps ? figure("speedup") : "\xE2\x80\x94";
        row.pct = figure("pct");
        row.vs_library = library && library != l && !chapter.independent_steps
                             ? figure("speedup vs=@" + library->id)
                             : "\xE2\x80\x94";
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string GlanceMarkdown(const Chapter& chapter, const std::vector<GlanceRow>& rows,
                           TextLanguage language) {
    const bool zh = language == TextLanguage::kChinese;
    std::string out = "# " + std::to_string(chapter.number) + ". " +
                      (zh ? chapter.title_zh : chapter.title) + "\n\n";
    out += zh ? "| 课 | 思路 | 时间 | 比上一步 | 占上限 | 比库 |\n"
              : "| lesson | idea | time | \xC3\x97 previous | % of bound | \xC3\x97 library |\n";
    out += "| --- | --- | --- | --- | --- | --- |\n";
    for (const GlanceRow& r : rows)
        out += "| " + r.label + " | " + r.title + " | " + r.time + " | " + r.speedup + " | " +
               r.pct + " | " + r.vs_library + " |\n";
    return out;
}

}  // namespace lessons
