#include "params.h"

#include <algorithm>
#include <iterator>
#include <limits>

#include "errors.h"
#include "files.h"
#include "host.h"
#include "number_param.h"
#include "units.h"

namespace lessons {
namespace {

bool IsPowerOfTwo(uint64_t v) {
    return v && (v & (v - 1)) == 0;
}

std::string JoinChoices(const std::vector<std::string>& choices) {
    std::string out;
    for (size_t i = 0; i < choices.size(); ++i) {
        if (i) out += i + 1 == choices.size() ? " or " : ", ";
        out += choices[i];
    }
    return out;
}

// "Threads per block (block)": the label, with the name unless the label already shows it.
std::string LabelAndName(const ParamSpec& spec) {
    const std::string named = "(" + spec.name + ")";
    if (spec.label_en.find(named) != std::string::npos) return spec.label_en;
    return spec.label_en + " " + named;
}

}  // namespace

const char* ToString(ParamType type) {
    constexpr const char* kNames[] = {"int", "bytes", "count", "choice"};  // the enum's order
    const auto i = static_cast<size_t>(type);
    return i < std::size(kNames) ? kNames[i] : "?";
}

std::string ParamSpec::Format(const ParamValue& value) const {
    if (type == ParamType::kChoice) return value.choice;
    if (type == ParamType::kBytes) return FormatSize(value.number);
    return std::to_string(value.number);
}

std::string ParamSpec::ChoiceLabel(std::string_view language, const std::string& choice) const {
    if (language != "zh") return choice;
    if (choice == kFileChoice) return std::string(kFileChoiceZh);
    for (size_t i = 0; i < choices.size() && i < choice_labels_zh.size(); ++i)
        if (choices[i] == choice && !choice_labels_zh[i].empty()) return choice_labels_zh[i];
    return choice;
}

std::string ParamSpec::Describe() const {
    if (type == ParamType::kChoice) return JoinChoices(choices);
    auto show = [this](uint64_t v) { return Format(ParamValue::Number(v)); };
    // No upper bound to name when only memory limits it (data sizes).
    const std::string range = max == std::numeric_limits<uint64_t>::max()
                                  ? "from " + show(min)
                                  : "from " + show(min) + " to " + show(max);
    std::string out;
    if (step > 1 && type != ParamType::kBytes)
        out = "a multiple of " + std::to_string(step) + " " + range;
    else if (step > 1)
        out = "a whole number of " + std::to_string(step) + "-byte elements " + range;
    else
        out = range;
    if (power_of_two) out += " that is a power of two";
    const std::vector<ParamValue> values = Values(64);
    if (!values.empty() && values.size() <= 32) {
        out += " (";
        for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + Format(values[i]);
        out += ")";
    }
    return out;
}

std::string ParamSpec::Reject(const ParamValue& value) const {
    bool ok = false;
    std::string shown;
    if (type == ParamType::kChoice) {
        ok = std::find(choices.begin(), choices.end(), value.choice) != choices.end();
        shown = "'" + Excerpt(value.choice, 40) + "'";
    } else {
        const uint64_t v = value.number;
        ok = value.choice.empty() && v >= min && v <= max && (step <= 1 || v % step == 0) &&
             (!power_of_two || IsPowerOfTwo(v));
        shown = type == ParamType::kBytes ? std::to_string(v) + " B" : std::to_string(v);
    }
    if (ok) return {};
    std::string msg = LabelAndName(*this) + " " + shown + " is not accepted: use " + Describe();
    if (!why.empty()) msg += "; " + why;
    return msg;
}

ParamValue ParamSpec::Parse(std::string_view text) const {
    if (type == ParamType::kChoice) {
        const ParamValue v = ParamValue::Choice(std::string(text));
        const std::string why_not = Reject(v);
        if (!why_not.empty()) throw UsageError(why_not);
        return v;
    }
    ParamValue v;
    try {
        v.number = type == ParamType::kBytes ? ParseSize(text) : ParseCount(text);
    } catch (const UsageError& e) {
        throw UsageError(LabelAndName(*this) + ": " + e.what());
    }
    const std::string why_not = Reject(v);
    if (!why_not.empty()) throw UsageError(why_not);
    return v;
}

ParamValue ParamSpec::Default() const {
    if (dynamic_default) {
        const uint64_t d = dynamic_default();
        return ParamValue::Number(std::clamp(d, min, max));
    }
    return default_value;
}

ParamValue ParamSpec::Fit(const ParamValue& value) const {
    if ((type == ParamType::kChoice) != !value.choice.empty()) return Default();  // another kind
    if (Reject(value).empty()) return value;
    if (type != ParamType::kChoice && value.choice.empty() && step > 1) {
        const ParamValue whole = ParamValue::Number(value.number / step * step);
        if (Reject(whole).empty()) return whole;
    }
    return Default();
}

ParamValues ResolveParams(const std::vector<ParamSpec>& specs,
                          const std::map<std::string, ParamValue>& given, Unaccepted unaccepted) {
    ParamValues values;
    for (const ParamSpec& spec : specs) {
        auto it = given.find(spec.name);
        if (it == given.end()) {
            values.Set(spec.name, spec.Default());
        } else if (unaccepted == Unaccepted::kFit) {
            values.Set(spec.name, spec.Fit(it->second));
        } else {
            const std::string why_not = spec.Reject(it->second);
            if (!why_not.empty()) throw UsageError(why_not);
            values.Set(spec.name, it->second);
        }
    }
    return values;
}

std::vector<ParamValue> ParamSpec::Values(size_t limit) const {
    std::vector<ParamValue> out;
    if (type == ParamType::kChoice) {
        for (const std::string& c : choices) out.push_back(ParamValue::Choice(c));
        return out;
    }
    if (power_of_two) {
        for (uint64_t v = 1; v <= max && v != 0; v *= 2) {
            if (v >= min && (step <= 1 || v % step == 0)) out.push_back(ParamValue::Number(v));
            if (out.size() > limit) return {};
            if (v > max / 2) break;
        }
        return out;
    }
    const uint64_t s = std::max<uint64_t>(step, 1);
    const uint64_t first = (min + s - 1) / s * s;
    if (max < first) return out;
    if ((max - first) / s >= limit) return {};  // more than `limit` values
    for (uint64_t v = first; v <= max; v += s) {
        out.push_back(ParamValue::Number(v));
        if (max - v < s) break;
    }
    return out;
}

void ParamValues::Set(const std::string& name, ParamValue value) {
    for (auto& [n, v] : m_entries) {
        if (n == name) {
            v = std::move(value);
            return;
        }
    }
    m_entries.emplace_back(name, std::move(value));
}

const ParamValue* ParamValues::Find(std::string_view name) const {
    for (const auto& [n, v] : m_entries)
        if (n == name) return &v;
    return nullptr;
}

bool ParamValues::Has(std::string_view name) const {
    return Find(name) != nullptr;
}

uint64_t ParamValues::Number(std::string_view name) const {
    const ParamValue* v = Find(name);
    if (!v || !v->choice.empty())
        throw UsageError("parameter '" + std::string(name) + "' is not set to a number");
    return v->number;
}

const std::string& ParamValues::Choice(std::string_view name) const {
    const ParamValue* v = Find(name);
    if (!v || v->choice.empty())
        throw UsageError("parameter '" + std::string(name) + "' is not set to a choice");
    return v->choice;
}

ParamValues ParamValues::Subset(const std::vector<std::string>& names) const {
    ParamValues out;
    for (const auto& [n, v] : m_entries)
        if (std::find(names.begin(), names.end(), n) != names.end()) out.Set(n, v);
    return out;
}

ParamSpec NumberParam(ParamType type, std::string name, std::string label_en, std::string label_zh,
                      uint64_t min, uint64_t max, uint64_t default_value, std::string unit,
                      bool power_of_two, std::string why) {
    ParamSpec p;
    p.name = std::move(name);
    p.label_en = std::move(label_en);
    p.label_zh = std::move(label_zh);
    p.type = type;
    p.min = min;
    p.max = max;
    p.power_of_two = power_of_two;
    p.default_value = ParamValue::Number(default_value);
    p.unit = std::move(unit);
    p.why = std::move(why);
    return p;
}

ParamSpec BlockParam(uint64_t min, uint64_t max, uint64_t default_block, bool power_of_two,
                     std::string why) {
    ParamSpec p = NumberParam(ParamType::kInt, "block", "Block size", "线程块大小", min, max,
                              default_block, "threads", power_of_two, std::move(why));
    p.step = 32;
    p.launch_shape = true;
    return p;
}

ParamSpec MatrixDimension(std::string name, std::string label_en, std::string label_zh,
                          uint64_t default_value, uint64_t max, std::string why) {
    // max: memory is checked before anything is allocated
    ParamSpec p =
        NumberParam(ParamType::kCount, std::move(name), std::move(label_en), std::move(label_zh), 1,
                    max, default_value, "", false, std::move(why));
    p.log_scale = true;
    return p;
}

ParamSpec ThreadsParam() {
    ParamSpec p = NumberParam(ParamType::kInt, "threads", "Host threads", "CPU 线程数", 1, 1024, 1,
                              "threads", false, "");
    p.dynamic_default = [] { return static_cast<uint64_t>(GetHostInfo().hardware_threads); };
    return p;
}

ParamSpec GpusParam() {
    ParamSpec p = NumberParam(
        ParamType::kInt, "gpus", "GPUs", "GPU 数量", 1, kMaxGpus, 1, "GPUs", false,
        "no more than the GPUs present: a run with more is refused, naming how many there are");
    p.gpu_count = true;
    return p;
}

ParamSpec SizeParam(uint64_t default_bytes, uint64_t element_bytes) {
    // max: memory is checked before allocating
    ParamSpec p = NumberParam(ParamType::kBytes, "size", "Data size", "数据规模", 0,
                              std::numeric_limits<uint64_t>::max(), default_bytes, "", false, "");
    p.step = element_bytes;
    p.log_scale = true;
    return p;
}

ParamSpec ChoiceParam(std::string name, std::string label_en, std::string label_zh,
                      std::vector<std::string> choices, std::vector<std::string> notes,
                      std::vector<std::string> notes_zh, std::vector<std::string> labels_zh) {
    ParamSpec p;
    p.name = std::move(name);
    p.label_en = std::move(label_en);
    p.label_zh = std::move(label_zh);
    p.type = ParamType::kChoice;
    p.default_value = ParamValue::Choice(choices.empty() ? std::string() : choices.front());
    p.choices = std::move(choices);
    p.choice_notes = std::move(notes);
    p.choice_notes_zh = std::move(notes_zh);
    p.choice_labels_zh = std::move(labels_zh);
    return p;
}

}  // namespace lessons
