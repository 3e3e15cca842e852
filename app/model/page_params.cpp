#include "model/page_params.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>

#include "exercise.h"
#include "units.h"
#include "words/words.h"

namespace lessons::app {
namespace {

uint64_t FloorPowerOfTwo(uint64_t v) {
    uint64_t p = 1;
    while (p <= v / 2) p *= 2;
    return p;
}

}  // namespace

void SetParam(RunSettings* settings, const std::string& name, const ParamValue& value) {
    settings->params[name] = value;
}

RunSettings AtExerciseChoices(const Lesson& lesson, RunSettings settings) {
    if (const Exercise* e = FindExercise(lesson.id))
        for (const ExerciseParam& f : e->fixed)
            SetParam(&settings, f.name, ParamValue::Choice(f.value));
    return settings;
}

ParamValue ResolveParam(const ParamSpec& spec, const RunSettings& settings) {
    auto it = settings.params.find(spec.name);
    return it == settings.params.end() ? spec.Default() : spec.Fit(it->second);
}

ParamValues ResolveParams(const std::vector<ParamSpec>& specs, const RunSettings& settings) {
    return lessons::ResolveParams(specs, settings.params, Unaccepted::kFit);
}

ParamValues ChapterValues(const Chapter& chapter, const RunSettings& settings) {
    return ResolveParams(chapter.params, settings);
}

void KeepParams(const Lesson& lesson, RunSettings* settings) {
    for (const ParamSpec& spec : lesson.params)
        SetParam(settings, spec.name, ResolveParam(spec, *settings));
}

std::vector<ParamSpec> OwnParams(const Registry& registry, const Lesson& lesson) {
    const Chapter& chapter = registry.ChapterOf(lesson);
    std::vector<ParamSpec> out;
    for (const ParamSpec& p : lesson.params) {
        const bool of_chapter = std::any_of(chapter.params.begin(), chapter.params.end(),
                                            [&](const ParamSpec& c) { return c.name == p.name; });
        if (!of_chapter) out.push_back(p);
    }
    return out;
}

const ParamSpec* LaunchShapeParam(const Lesson& lesson) {
    for (const ParamSpec& p : lesson.params)
        if (p.launch_shape) return &p;
    return nullptr;
}

const ParamSpec* BlockSizeParam(const Lesson& lesson) {
    const ParamSpec* shape = LaunchShapeParam(lesson);
    return shape && shape->type != ParamType::kChoice ? shape : nullptr;
}

const ParamSpec* GpuCountParam(const Lesson& lesson) {
    for (const ParamSpec& p : lesson.params)
        if (p.gpu_count) return &p;
    return nullptr;
}

const ParamSpec* DataSizeParam(const Lesson& lesson) {
    for (const ParamSpec& p : lesson.params)
        if (p.type == ParamType::kBytes) return &p;
    return nullptr;
}

bool MatchesParams(const RunResult& result, const ParamValues& values) {
    for (const auto& [name, value] : values.entries()) {
        const ParamValue* v = result.params.Find(name);
        if (!v || *v != value) return false;
    }
    return true;
}

std::string DescribeParams(const std::vector<ParamSpec>& specs, const ParamValues& values,
                           const std::string& language) {
    std::string out;
    for (const ParamSpec& spec : specs) {
        const ParamValue* v = values.Find(spec.name);
        if (!v) continue;
        if (!out.empty()) out += language == "zh" ? "，" : ", ";
        const std::string value = spec.type == ParamType::kChoice
                                      ? SayChoice(language, spec, spec.Format(*v))
                                      : spec.Format(*v);
        // In Chinese a Chinese value follows its label after "：" ("数据：随机"), a number after a
        // space ("线程块大小 256"); never a space between two Chinese words.
        if (spec.type != ParamType::kBytes)
            out += language == "zh"
                       ? std::string(Label(spec, language)) +
                             (!value.empty() && static_cast<unsigned char>(value[0]) >= 0x80 ? "："
                                                                                             : " ")
                       : spec.name + " ";
        out += value;
    }
    return out;
}

const char* Label(const ParamSpec& spec, const std::string& language) {
    if (language == "zh" && !spec.label_zh.empty()) return spec.label_zh.c_str();
    if (language == "zh") RecordTranslationMiss(spec.label_en.empty() ? spec.name : spec.label_en);
    return spec.label_en.empty() ? spec.name.c_str() : spec.label_en.c_str();
}

ControlKind ControlFor(const ParamSpec& spec) {
    if (spec.type == ParamType::kChoice) return ControlKind::kCombo;
    if (spec.log_scale) return ControlKind::kLog;
    if (!spec.Values(64).empty()) return ControlKind::kValues;
    const auto [lo, hi] = IntRange(spec);
    return hi - lo > (uint64_t(1) << 24) ? ControlKind::kLog : ControlKind::kInt;
}

std::pair<uint64_t, uint64_t> IntRange(const ParamSpec& spec) {
    uint64_t hi = spec.max;
    if (spec.dynamic_default)
        hi = std::min(spec.max, std::max(2 * spec.Default().number, spec.min + 1));
    return {spec.min, std::min<uint64_t>(hi, INT_MAX)};
}

uint64_t LogMin(const ParamSpec& spec) {
    const uint64_t floor = spec.type == ParamType::kBytes ? 1024 : 1;
    return std::max<uint64_t>(spec.min, floor);
}

uint64_t SnapLog(const ParamSpec& spec, double log2_value, uint64_t cap) {
    // Whole powers of two and the halves between them keep the values readable.
    const double snapped = std::round(log2_value * 2) / 2;
    uint64_t v = static_cast<uint64_t>(std::pow(2.0, std::clamp(snapped, 0.0, 63.0)));
    if (spec.power_of_two) v = FloorPowerOfTwo(v);
    if (spec.step > 1) v = v / spec.step * spec.step;
    return std::clamp(v, LogMin(spec), std::max(cap, LogMin(spec)));
}

uint64_t LogCap(const Registry& registry, const Lesson& lesson, const ParamSpec& spec,
                const RunSettings& settings, uint64_t host_bytes, uint64_t device_bytes,
                std::string* why) {
    const Chapter& chapter = registry.ChapterOf(lesson);
    const uint64_t slider_end = uint64_t(1) << 36;  // 64 GiB
    const bool bytes = spec.type == ParamType::kBytes;
    uint64_t cap = FloorPowerOfTwo(bytes ? std::min(spec.max, slider_end) : spec.max);
    *why = bytes && spec.max >= slider_end ? "64 GiB, the slider's end" : "the largest accepted";
    while (cap > LogMin(spec)) {
        RunSettings trial = settings;
        SetParam(&trial, spec.name, ParamValue::Number(cap));
        bool host_ok = false, device_ok = true;
        try {
            const ParamValues p = ResolveParams(lesson.params, trial);
            const MemoryNeeds n = lesson.needs ? lesson.needs(p) : MemoryNeeds{};
            const uint64_t workload =
                chapter.workload_host_bytes ? chapter.workload_host_bytes(p) : 0;
            host_ok = workload <= host_bytes && n.host_bytes <= host_bytes - workload;
            device_ok = lesson.kind != StepKind::kGpu || device_bytes == 0 ||
                        n.device_bytes <= device_bytes;
        } catch (const std::exception&) {  // a figure that would overflow
            host_ok = false;
        }
        if (host_ok && device_ok) break;
        *why = host_ok ? "free GPU memory" : "available host memory";
        cap /= 2;
    }
    return cap;
}

}  // namespace lessons::app
