#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "errors.h"
#include "files.h"
#include "units.h"

namespace lessons {
namespace {

template <typename T>
Json OrNull(const std::optional<T>& v) {
    return v ? Json(*v) : Json(nullptr);
}

std::optional<double> OptionalDouble(const Json& v) {
    if (v.is_null()) return std::nullopt;
    return v.get<double>();
}

}  // namespace

std::string CsvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

namespace {

// Columns are counted in code points, not bytes ("✓" is one column).
size_t DisplayWidth(const std::string& s) {
    size_t w = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) ++w;
    return w;
}

// A value that is a whole number is written as one (line breaks found, element counts).
Json NumberJson(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9007199254740992.0)
        return Json(static_cast<int64_t>(v));
    return Json(v);
}

std::string Num(const std::optional<double>& v, int digits) {
    return v ? Fixed(*v, digits) : std::string();
}

Json WorkJson(const Work& w) {
    return Json{{"bytes_read", w.bytes_read}, {"bytes_written", w.bytes_written},
                {"flops", w.flops},           {"h2d_bytes", w.h2d_bytes},
                {"d2h_bytes", w.d2h_bytes},   {"peer_bytes", w.peer_bytes},
                {"bound", ToString(w.bound)}, {"rate_part", w.rate_part}};
}

Work WorkFromJson(const Json& j) {
    Work w;
    w.bytes_read = j.value("bytes_read", uint64_t(0));
    w.bytes_written = j.value("bytes_written", uint64_t(0));
    w.flops = j.value("flops", uint64_t(0));
    w.h2d_bytes = j.value("h2d_bytes", uint64_t(0));
    w.d2h_bytes = j.value("d2h_bytes", uint64_t(0));
    w.peer_bytes = j.value("peer_bytes", uint64_t(0));
    w.bound = ParseBound(j.value("bound", std::string()));
    w.rate_part = j.value("rate_part", std::string("kernel"));
    return w;
}

// Results recorded before parameters were named carried size_bytes, block, threads, data, the
// parts as h2d_ms/kernel_ms/d2h_ms, and found/value/expected/extra.
void ReadLegacyFields(RunResult& r, const Json& j) {
    if (!j.contains("params")) {
        if (j.contains("block") && !j["block"].is_null())
            r.params.Set("block", ParamValue::Number(j["block"].get<uint64_t>()));
        if (j.contains("threads") && !j["threads"].is_null())
            r.params.Set("threads", ParamValue::Number(j["threads"].get<uint64_t>()));
        if (j.contains("size_bytes"))
            r.params.Set("size", ParamValue::Number(j["size_bytes"].get<uint64_t>()));
        if (j.contains("data") && j["data"].is_string())
            r.params.Set("data", ParamValue::Choice(j["data"].get<std::string>()));
    }
    if (!j.contains("parts"))
        for (const char* part : {"h2d", "kernel", "d2h"}) {
            const std::string key = std::string(part) + "_ms";
            if (j.contains(key) && !j[key].is_null())
                r.parts.push_back({part, j[key].get<double>()});
        }
    if (!j.contains("values")) {
        for (const char* key : {"found", "value", "expected"})
            if (j.contains(key) && !j[key].is_null())
                r.values.push_back(
                    {std::string(key) == "value" ? "sum" : key, j[key].get<double>()});
        if (j.contains("extra") && j["extra"].is_object())
            for (const auto& [name, value] : j["extra"].items())
                if (value.is_number()) r.values.push_back({name, value.get<double>()});
    }
    if (!j.contains("work") && j.contains("bytes_moved")) {
        r.work.bytes_read = j["bytes_moved"].get<uint64_t>();
        r.work.bound = r.kind == StepKind::kGpu ? Bound::kCopy : Bound::kNone;
        if (j.contains("ceiling_gbps") && !j["ceiling_gbps"].is_null())
            r.ceiling = j["ceiling_gbps"].get<double>();
    }
    if (!j.contains("devices") && j.contains("device") && j["device"].is_string())
        r.devices.push_back(j["device"].get<std::string>());
}

using F = ResultField;

// The result's fields, in the order of JSON objects, CSV columns and the GUI's table: what ran,
// how long it took, the rates and ceilings, and what the check found.
void AddIdentityFields(std::vector<ResultField>& f) {
    auto add = [&f](F field) { f.push_back(std::move(field)); };
    // "5.8"; results recorded before chapters numbered their own lessons carry the old global
    // number here (AdoptCatalogIdentity finds their lesson by id).
    add({"lesson", [](const RunResult& r) { return Json(r.label); },
         [](RunResult& r, const Json& v) {
             if (v.is_string())
                 r.label = v.get<std::string>();
             else
                 r.lesson = v.get<int>();
         },
         true, "lesson", "课", true, [](const RunResult& r) { return r.label; }});
    add({"id", [](const RunResult& r) { return Json(r.id); },
         [](RunResult& r, const Json& v) { r.id = v.get<std::string>(); }, true, nullptr, nullptr,
         false, [](const RunResult& r) { return r.id; }});
    add({"title", [](const RunResult& r) { return Json(r.title); },
         [](RunResult& r, const Json& v) { r.title = v.get<std::string>(); }, false, nullptr,
         nullptr, false, nullptr});
    add({"chapter", [](const RunResult& r) { return Json(r.chapter); },
         [](RunResult& r, const Json& v) { r.chapter = v.get<std::string>(); }, false, nullptr,
         nullptr, false, nullptr});
    add({"kind", [](const RunResult& r) { return Json(ToString(r.kind)); },
         [](RunResult& r, const Json& v) {
             r.kind = v.get<std::string>() == "gpu" ? StepKind::kGpu : StepKind::kCpu;
         },
         true, nullptr, nullptr, false, [](const RunResult& r) { return ToString(r.kind); }});
    add({"params", [](const RunResult& r) { return ToJson(r.params); },
         [](RunResult& r, const Json& v) { r.params = ParamsFromJson(v); }, false, nullptr, nullptr,
         false, nullptr});
    add({"input",
         [](const RunResult& r) { return r.input.empty() ? Json(nullptr) : Json(r.input); },
         [](RunResult& r, const Json& v) { r.input = v.get<std::string>(); }, true, nullptr,
         nullptr, false, [](const RunResult& r) { return r.input; }});
    add({"seed", [](const RunResult& r) { return Json(r.seed); },
         [](RunResult& r, const Json& v) { r.seed = v.get<uint64_t>(); }, true, nullptr, nullptr,
         false, [](const RunResult& r) { return std::to_string(r.seed); }});
    add({"cold_l2", [](const RunResult& r) { return Json(r.cold_l2); },
         [](RunResult& r, const Json& v) { r.cold_l2 = v.get<bool>(); }, true, nullptr, nullptr,
         false, [](const RunResult& r) { return r.cold_l2 ? "true" : "false"; }});
}

void AddTimingFields(std::vector<ResultField>& f) {
    auto add = [&f](F field) { f.push_back(std::move(field)); };
    add({"reps", [](const RunResult& r) { return Json(r.reps); },
         [](RunResult& r, const Json& v) { r.reps = v.get<int>(); }, true, "runs", "次数", true,
         [](const RunResult& r) { return std::to_string(r.reps); }});
    add({"median_ms", [](const RunResult& r) { return Json(r.median_ms); },
         [](RunResult& r, const Json& v) { r.median_ms = v.get<double>(); }, true, "median ms",
         "中位数 ms", true, [](const RunResult& r) { return Fixed(r.median_ms, 6); }});
    add({"min_ms", [](const RunResult& r) { return Json(r.min_ms); },
         [](RunResult& r, const Json& v) { r.min_ms = v.get<double>(); }, true, "min ms", "最小 ms",
         true, [](const RunResult& r) { return Fixed(r.min_ms, 6); }});
    add({"max_ms", [](const RunResult& r) { return Json(r.max_ms); },
         [](RunResult& r, const Json& v) { r.max_ms = v.get<double>(); }, true, "max ms", "最大 ms",
         true, [](const RunResult& r) { return Fixed(r.max_ms, 6); }});
    // The median's confidence interval (MedianIntervalOf) and its level; a result recorded
    // without them has them computed from its samples when read.
    add({"median_lo_ms", [](const RunResult& r) { return Json(r.median_lo_ms); },
         [](RunResult& r, const Json& v) { r.median_lo_ms = v.get<double>(); }, true, nullptr,
         nullptr, true, [](const RunResult& r) { return Fixed(r.median_lo_ms, 6); }});
    add({"median_hi_ms", [](const RunResult& r) { return Json(r.median_hi_ms); },
         [](RunResult& r, const Json& v) { r.median_hi_ms = v.get<double>(); }, true, nullptr,
         nullptr, true, [](const RunResult& r) { return Fixed(r.median_hi_ms, 6); }});
    add({"median_level", [](const RunResult& r) { return Json(r.median_level); },
         [](RunResult& r, const Json& v) { r.median_level = v.get<double>(); }, true, nullptr,
         nullptr, true, [](const RunResult& r) { return Fixed(r.median_level, 4); }});
    // The tables' one column of the interval ("0.121-0.130 (95.8%)"); JSON and CSV have the
    // three fields above.
    add({"median_ci", nullptr, nullptr, false, "median CI ms", "中位数置信区间 ms", true,
         [](const RunResult& r) { return MedianIntervalText(r); }});
    // The runs the samples were pooled from (PoolTrials); 1 for one run.
    add({"trials", [](const RunResult& r) { return Json(r.trials); },
         [](RunResult& r, const Json& v) { r.trials = std::max(v.get<int>(), 1); }, false, nullptr,
         nullptr, false, nullptr});
    add({"samples_ms", [](const RunResult& r) { return Json(r.samples_ms); },
         [](RunResult& r, const Json& v) { r.samples_ms = v.get<std::vector<double>>(); }, false,
         nullptr, nullptr, false, nullptr});
    add({"parts",
         [](const RunResult& r) {
             Json j = Json::object();
             for (const TimedPart& p : r.parts) j[p.name] = p.ms;
             return j;
         },
         [](RunResult& r, const Json& v) {
             for (const auto& [name, ms] : v.items()) r.parts.push_back({name, ms.get<double>()});
         },
         false, nullptr, nullptr, false, nullptr});
    for (const char* part : {"h2d", "kernel", "d2h"}) {
        const std::string name = part;
        // Flat columns of the usual parts, for CSV readers; JSON has them under "parts".
        add({nullptr, nullptr, nullptr, true, nullptr, nullptr, true,
             [name](const RunResult& r) { return Num(r.Part(name), 6); }});
    }
}

void AddRateFields(std::vector<ResultField>& f) {
    auto add = [&f](F field) { f.push_back(std::move(field)); };
    add({"work", [](const RunResult& r) { return WorkJson(r.work); },
         [](RunResult& r, const Json& v) { r.work = WorkFromJson(v); }, false, nullptr, nullptr,
         false, nullptr});
    add({"rate_ms", [](const RunResult& r) { return Json(r.rate_ms); },
         [](RunResult& r, const Json& v) { r.rate_ms = v.get<double>(); }, true, nullptr, nullptr,
         true, [](const RunResult& r) { return Fixed(r.rate_ms, 6); }});
    add({"gbps", [](const RunResult& r) { return Json(r.gbps); },
         [](RunResult& r, const Json& v) { r.gbps = v.get<double>(); }, true, "GB/s", "GB/s", true,
         [](const RunResult& r) { return Fixed(r.gbps, 3); }});
    add({"gflops", [](const RunResult& r) { return OrNull(r.gflops); },
         [](RunResult& r, const Json& v) { r.gflops = OptionalDouble(v); }, true, "GFLOP/s",
         "GFLOP/s", true, [](const RunResult& r) { return Num(r.gflops, 3); }});
    add({"bound", [](const RunResult& r) { return Json(ToString(r.work.bound)); }, nullptr, true,
         nullptr, nullptr, false, [](const RunResult& r) { return ToString(r.work.bound); }});
    add({"ceiling", [](const RunResult& r) { return OrNull(r.ceiling); },
         [](RunResult& r, const Json& v) { r.ceiling = OptionalDouble(v); }, true, nullptr, nullptr,
         true, [](const RunResult& r) { return Num(r.ceiling, 3); }});
    add({"other_cores_busy", [](const RunResult& r) { return OrNull(r.other_cores_busy); },
         [](RunResult& r, const Json& v) { r.other_cores_busy = OptionalDouble(v); }, true, nullptr,
         nullptr, true, [](const RunResult& r) { return Num(r.other_cores_busy, 3); }});
    add({"sm_clock_mhz", [](const RunResult& r) { return OrNull(r.sm_clock_mhz); },
         [](RunResult& r, const Json& v) { r.sm_clock_mhz = OptionalDouble(v); }, true, nullptr,
         nullptr, true, [](const RunResult& r) { return Num(r.sm_clock_mhz, 0); }});
    add({"sm_clock_max_mhz", [](const RunResult& r) { return OrNull(r.sm_clock_max_mhz); },
         [](RunResult& r, const Json& v) { r.sm_clock_max_mhz = OptionalDouble(v); }, true, nullptr,
         nullptr, true, [](const RunResult& r) { return Num(r.sm_clock_max_mhz, 0); }});
    add({"clock_limits",
         [](const RunResult& r) {
             return r.clock_limits.empty() ? Json(nullptr) : Json(r.clock_limits);
         },
         [](RunResult& r, const Json& v) {
             r.clock_limits.clear();
             if (!v.is_array()) return;
             for (const Json& id : v)
                 if (id.is_string() && id.get<std::string>().size() <= 32 &&
                     r.clock_limits.size() < 8)
                     r.clock_limits.push_back(id.get<std::string>());
         },
         true, nullptr, nullptr, true,
         [](const RunResult& r) {
             std::string s;
             for (const std::string& id : r.clock_limits) s += (s.empty() ? "" : " ") + id;
             return s;
         }});
    add({"ceiling_bytes",
         [](const RunResult& r) {
             return r.ceiling_bytes ? Json(*r.ceiling_bytes) : Json(nullptr);
         },
         [](RunResult& r, const Json& v) {
             if (v.is_number_unsigned()) r.ceiling_bytes = v.get<uint64_t>();
         },
         true, nullptr, nullptr, true,
         [](const RunResult& r) {
             return r.ceiling_bytes ? std::to_string(*r.ceiling_bytes) : std::string();
         }});
    add({"pct_of_ceiling", [](const RunResult& r) { return OrNull(r.pct_of_ceiling); },
         [](RunResult& r, const Json& v) { r.pct_of_ceiling = OptionalDouble(v); }, true,
         "% ceiling", "占上限 %", true,
         [](const RunResult& r) { return Num(r.pct_of_ceiling, 3); }});
    add({"ceiling_note",
         [](const RunResult& r) {
             return r.ceiling_note.empty() ? Json(nullptr) : Json(r.ceiling_note);
         },
         [](RunResult& r, const Json& v) { r.ceiling_note = v.get<std::string>(); }, true, nullptr,
         nullptr, false, [](const RunResult& r) { return r.ceiling_note; }});
    add({"intensity", [](const RunResult& r) { return OrNull(r.intensity); },
         [](RunResult& r, const Json& v) { r.intensity = OptionalDouble(v); }, true, nullptr,
         nullptr, true, [](const RunResult& r) { return Num(r.intensity, 4); }});
    add({"attainable_gflops", [](const RunResult& r) { return OrNull(r.attainable_gflops); },
         [](RunResult& r, const Json& v) { r.attainable_gflops = OptionalDouble(v); }, true,
         nullptr, nullptr, true, [](const RunResult& r) { return Num(r.attainable_gflops, 3); }});
}

void AddCheckFields(std::vector<ResultField>& f) {
    auto add = [&f](F field) { f.push_back(std::move(field)); };
    add({"verified", [](const RunResult& r) { return Json(r.verified); },
         [](RunResult& r, const Json& v) { r.verified = v.get<bool>(); }, true, "check", "校验",
         false, [](const RunResult& r) { return r.verified ? "true" : "false"; }});
    add({"check", [](const RunResult& r) { return Json(r.check_message); },
         [](RunResult& r, const Json& v) { r.check_message = v.get<std::string>(); }, true, nullptr,
         nullptr, false, [](const RunResult& r) { return r.check_message; }});
    // The check's message as an id and its arguments ({"id", "args"}), null for free text.
    add({"check_message", [](const RunResult& r) { return MessageIdJson(r.CheckMessage()); },
         [](RunResult& r, const Json& v) {
             const Message m = MessageFromJson(v, r.check_message);
             r.check_message_id = m.id;
             r.check_message_args = m.args;
         },
         false, nullptr, nullptr, false, nullptr});
    add({"values",
         [](const RunResult& r) {
             Json j = Json::object();
             for (const NamedValue& v : r.values) j[v.name] = NumberJson(v.value);
             return j;
         },
         [](RunResult& r, const Json& v) {
             for (const auto& [name, value] : v.items())
                 if (value.is_number()) r.values.push_back({name, value.get<double>()});
         },
         true, nullptr, nullptr, false,
         [](const RunResult& r) {
             std::string out;
             for (const NamedValue& v : r.values)
                 out += (out.empty() ? "" : ";") + v.name + "=" + NumberJson(v.value).dump();
             return out;
         }});
    add({"devices", [](const RunResult& r) { return Json(r.devices); },
         [](RunResult& r, const Json& v) { r.devices = v.get<std::vector<std::string>>(); }, true,
         nullptr, nullptr, false,
         [](const RunResult& r) {
             std::string out;
             for (const std::string& d : r.devices) out += (out.empty() ? "" : "; ") + d;
             return out;
         }});
    add({"attributes",
         [](const RunResult& r) { return r.attributes ? ToJson(*r.attributes) : Json(nullptr); },
         [](RunResult& r, const Json& v) { r.attributes = KernelAttributesFromJson(v); }, false,
         nullptr, nullptr, false, nullptr});
    add({"timestamp", [](const RunResult& r) { return Json(r.timestamp); },
         [](RunResult& r, const Json& v) { r.timestamp = v.get<std::string>(); }, true, nullptr,
         nullptr, false, [](const RunResult& r) { return r.timestamp; }});
    add({"source_key",
         [](const RunResult& r) {
             return r.source_key.empty() ? Json(nullptr) : Json(r.source_key);
         },
         [](RunResult& r, const Json& v) {
             if (v.is_string()) r.source_key = v.get<std::string>();
         },
         false, nullptr, nullptr, false, nullptr});
    add({"recorded", [](const RunResult& r) { return Json(r.recorded); },
         [](RunResult& r, const Json& v) { r.recorded = v.get<bool>(); }, false, nullptr, nullptr,
         false, nullptr});
    add({"yours", [](const RunResult& r) { return Json(r.yours); },
         [](RunResult& r, const Json& v) { r.yours = v.get<bool>(); }, true, nullptr, nullptr,
         false, [](const RunResult& r) { return r.yours ? "true" : "false"; }});
}

std::vector<ResultField> MakeFields() {
    std::vector<ResultField> f;
    AddIdentityFields(f);
    AddTimingFields(f);
    AddRateFields(f);
    AddCheckFields(f);
    return f;
}

// CSV header names of the flat part columns (their fields have no JSON key).
const char* const kPartColumns[] = {"h2d_ms", "kernel_ms", "d2h_ms"};

}  // namespace

ParamValues ParamsFromJson(const Json& j) {
    ParamValues out;
    if (!j.is_object()) throw UsageError("the parameters are not an object");
    for (const auto& [name, value] : j.items()) {
        if (value.is_string())
            out.Set(name, ParamValue::Choice(value.get<std::string>()));
        else if (value.is_number_unsigned() ||
                 (value.is_number_integer() && value.get<int64_t>() >= 0))
            out.Set(name, ParamValue::Number(value.get<uint64_t>()));
        else
            throw UsageError("parameter '" + Excerpt(name, 40) + "' is neither a name nor a count");
    }
    return out;
}

const std::vector<ResultField>& ResultFields() {
    static const std::vector<ResultField> fields = MakeFields();
    return fields;
}

const ResultField* FindResultField(std::string_view name) {
    for (const ResultField& f : ResultFields())
        if (f.name && name == f.name) return &f;
    return nullptr;
}

std::string Fixed(double value, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, value);
    return buf;
}

std::string Fixed(const std::optional<double>& value, int digits) {
    return value ? Fixed(*value, digits) : "-";
}

std::string MedianIntervalText(const RunResult& r) {
    if (!(r.median_level > 0)) return "-";
    // The level rounded down: never claimed higher than it is.
    const double percent = std::floor(r.median_level * 1000) / 10;
    // Each end with four significant digits: a microsecond kernel's interval still shows.
    auto text = [](double ms) {
        const double size = std::max(std::fabs(ms), 1e-9);
        return Fixed(ms, std::clamp(3 - int(std::floor(std::log10(size))), 0, 9));
    };
    return text(r.median_lo_ms) + "-" + text(r.median_hi_ms) + " (" + Fixed(percent, 1) + "%)";
}

std::string Ms(double ms) {
    return Fixed(ms, ms < 10 ? 3 : (ms < 1000 ? 2 : 1));
}
std::string Ms(const std::optional<double>& ms) {
    return ms ? Ms(*ms) : "-";
}

Json ToJson(const KernelAttributes& a) {
    return Json{{"kernel", a.kernel},
                {"registers", a.registers},
                {"static_smem_bytes", a.static_smem_bytes},
                {"dynamic_smem_bytes", a.dynamic_smem_bytes},
                {"max_threads_per_block", a.max_threads_per_block},
                {"active_blocks_per_sm", a.active_blocks_per_sm},
                {"occupancy", a.occupancy}};
}

KernelAttributes KernelAttributesFromJson(const Json& a) {
    KernelAttributes k;
    k.kernel = a.value("kernel", "");
    k.registers = a.value("registers", 0);
    k.static_smem_bytes = a.value("static_smem_bytes", 0);
    k.dynamic_smem_bytes = a.value("dynamic_smem_bytes", 0);
    k.max_threads_per_block = a.value("max_threads_per_block", 0);
    k.active_blocks_per_sm = a.value("active_blocks_per_sm", 0);
    k.occupancy = a.value("occupancy", 0.0);
    return k;
}

Json ToJson(const ParamValues& values) {
    Json j = Json::object();
    for (const auto& [name, v] : values.entries())
        j[name] = v.choice.empty() ? Json(v.number) : Json(v.choice);
    return j;
}

Json ToJson(const RunResult& r) {
    Json j;
    for (const ResultField& f : ResultFields())
        if (f.name && f.to_json) j[f.name] = f.to_json(r);
    return j;
}

RunResult RunResultFromJson(const Json& j) {
    if (!j.is_object()) throw UsageError("a result must be a JSON object");
    RunResult r;
    for (const char* required : {"lesson", "id", "kind", "median_ms"})
        if (!j.contains(required))
            throw UsageError(std::string("result without '") + required + "'");
    for (const ResultField& f : ResultFields()) {
        if (!f.name || !f.from_json) continue;
        auto it = j.find(f.name);
        if (it != j.end() && !it->is_null()) f.from_json(r, *it);
    }
    ReadLegacyFields(r, j);
    // Recorded before results carried the median's interval: computed from the samples.
    if (!j.contains("median_level") && !r.samples_ms.empty()) SetMedianInterval(r);
    return r;
}

bool AdoptCatalogIdentity(const Registry& registry, RunResult& r) {
    const Lesson* lesson = registry.FindLesson(r.id);
    if (!lesson) {
        r.lesson = 0;  // no lesson of this catalogue: matched by nothing
        return false;
    }
    r.lesson = lesson->number;
    r.label = lesson->label;
    r.id = lesson->id;
    r.chapter = lesson->chapter;
    return true;
}

bool AdoptDeclaredBound(const Registry& registry, RunResult& r) {
    if (r.work.bound != Bound::kFp32) return false;
    const Lesson* lesson = registry.FindLesson(r.id);
    if (!lesson || lesson->kind != StepKind::kGpu) return false;
    std::optional<Work> declared;
    try {
        declared = EstimateWork(*lesson, registry.ChapterOf(*lesson), r.params);
    } catch (const std::exception&) {
        return false;  // parameters the catalogue no longer takes
    }
    if (!declared || declared->bound != Bound::kTf32) return false;
    r.work.bound = Bound::kTf32;
    r.ceiling.reset();
    r.pct_of_ceiling.reset();
    r.attainable_gflops.reset();
    r.ceiling_note =
        "recorded before the TF32 ceiling was measured: its comparison with the fp32 "
        "FMA peak is not shown";
    return true;
}

Json ToJson(const HostInfo& h) {
    return Json{{"cpu", h.cpu_name},
                {"hardware_threads", h.hardware_threads},
                {"total_memory_bytes", h.total_memory},
                {"available_memory_bytes", HostAvailableMemory()}};
}

Json ToJson(const ParamSpec& p) {
    Json j;
    j["name"] = p.name;
    j["label"] = Json{{"en", p.label_en}, {"zh", p.label_zh}};
    j["type"] = ToString(p.type);
    const ParamValue d = p.Default();
    j["default"] = p.type == ParamType::kChoice ? Json(d.choice) : Json(d.number);
    if (p.type == ParamType::kChoice) {
        j["choices"] = p.choices;
        if (!p.choice_notes.empty()) j["choice_notes"] = p.choice_notes;
        if (!p.choice_notes_zh.empty()) j["choice_notes_zh"] = p.choice_notes_zh;
        if (!p.choice_labels_zh.empty()) j["choice_labels_zh"] = p.choice_labels_zh;
    } else {
        j["min"] = p.min;
        j["max"] = p.max;
        j["step"] = p.step;
        j["power_of_two"] = p.power_of_two;
        const std::vector<ParamValue> values = p.Values();
        if (!values.empty()) {
            Json list = Json::array();
            for (const ParamValue& v : values) list.push_back(v.number);
            j["values"] = list;
        }
    }
    j["unit"] = p.type == ParamType::kBytes ? std::string("bytes") : p.unit;
    j["log_scale"] = p.log_scale;
    j["why"] = p.why;
    return j;
}

Json LessonToJson(const Registry& registry, const Lesson& l, const std::string& unavailable) {
    return LessonToJson(registry, l, Message::Plain(unavailable));
}

Json LessonToJson(const Registry& registry, const Lesson& l, const Message& unavailable) {
    Json j;
    j["lesson"] = l.label;
    j["id"] = l.id;
    j["was"] = l.was ? Json(l.was) : Json(nullptr);
    j["chapter"] = registry.ChapterOf(l).number;
    j["chapter_id"] = l.chapter;
    j["title"] = l.title;
    j["title_zh"] = l.title_zh;
    j["kind"] = ToString(l.kind);
    j["available"] = unavailable.empty();
    j["unavailable_reason"] = unavailable.empty() ? Json(nullptr) : Json(unavailable.text);
    j["unavailable_message"] = MessageIdJson(unavailable);
    const Lesson* previous = registry.FindLesson(l.previous);
    j["previous"] = previous ? Json(previous->id) : Json(nullptr);
    j["source"] = l.source_path;
    j["library"] = l.library;
    Json params = Json::array();
    for (const ParamSpec& p : l.params) params.push_back(ToJson(p));
    j["params"] = params;
    return j;
}

std::vector<std::string> ParamNamesOf(const std::vector<const Lesson*>& lessons) {
    std::vector<std::string> out;
    for (const Lesson* l : lessons)
        for (const ParamSpec& p : l->params)
            if (std::find(out.begin(), out.end(), p.name) == out.end()) out.push_back(p.name);
    return out;
}

std::string CsvHeader(const std::vector<std::string>& param_names) {
    std::string out;
    size_t part = 0;
    for (const ResultField& f : ResultFields()) {
        if (!f.csv || !f.text) continue;
        if (!out.empty()) out += ',';
        out += f.name ? f.name : kPartColumns[part++];
        if (f.name && std::string_view(f.name) == "kind")
            for (const std::string& p : param_names) out += "," + CsvField(p);
    }
    return out;
}

std::string CsvRow(const RunResult& r, const std::vector<std::string>& param_names) {
    std::string out;
    bool first = true;
    for (const ResultField& f : ResultFields()) {
        if (!f.csv || !f.text) continue;
        if (!first) out += ',';
        first = false;
        out += CsvField(f.text(r));
        if (f.name && std::string_view(f.name) == "kind")
            for (const std::string& p : param_names) {
                const ParamValue* v = r.params.Find(p);
                out += ",";
                if (v) out += CsvField(v->choice.empty() ? std::to_string(v->number) : v->choice);
            }
    }
    return out;
}

TextTable::TextTable(std::vector<std::string> header, std::vector<bool> right)
    : m_header(std::move(header)), m_right(std::move(right)) {
    m_right.resize(m_header.size(), false);
}

void TextTable::AddRow(std::vector<std::string> row) {
    row.resize(m_header.size());
    m_rows.push_back(std::move(row));
}

std::string TextTable::Render() const {
    std::vector<size_t> widths(m_header.size(), 0);
    auto measure = [&](const std::vector<std::string>& row) {
        for (size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], DisplayWidth(row[c]));
    };
    measure(m_header);
    for (const auto& row : m_rows) measure(row);
    std::string out;
    auto emit = [&](const std::vector<std::string>& row) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
            const std::string pad(widths[c] - DisplayWidth(row[c]), ' ');
            if (c) line += "  ";
            line += m_right[c] ? pad + row[c] : row[c] + (c + 1 < row.size() ? pad : "");
        }
        out += line + "\n";
    };
    emit(m_header);
    std::vector<std::string> rule;
    for (size_t w : widths) rule.push_back(std::string(w, '-'));
    emit(rule);
    for (const auto& row : m_rows) emit(row);
    return out;
}

}  // namespace lessons
