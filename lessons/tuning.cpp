#include "tuning.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "errors.h"
#include "files.h"
#include "out_of_memory.h"
#include "report.h"
#include "resources.h"

namespace lessons {

using Json = nlohmann::ordered_json;

namespace {

constexpr uint64_t kMaxTuningsBytes = 4ull << 20;

double NonNegative(const Json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number() || !(it->get<double>() >= 0))
        throw UsageError(std::string(key) + " is not a number of milliseconds");
    return it->get<double>();
}

}  // namespace

std::vector<std::string> TunedParams(const Lesson& lesson) {
    std::vector<std::string> out;
    if (lesson.library) return out;
    for (const ParamSpec& spec : lesson.params) {
        if (lesson.kind == StepKind::kGpu && spec.launch_shape) out.push_back(spec.name);
        if (lesson.kind == StepKind::kCpu && spec.name == "threads") out.push_back(spec.name);
    }
    return out;
}

std::vector<std::string> TuningCandidates(const ParamSpec& spec, const ParamValue& largest) {
    std::vector<std::string> out;
    if (spec.type == ParamType::kChoice) {
        for (const std::string& c : spec.choices) out.push_back(c);
        return out;
    }
    std::vector<uint64_t> numbers;
    const uint64_t top = std::min(spec.max, std::max(largest.number, spec.min));
    for (uint64_t v = std::max<uint64_t>(spec.min, 1); v <= top; v *= 2) {
        const ParamValue candidate = ParamValue::Number(v);
        if (spec.Reject(candidate).empty()) numbers.push_back(v);
        if (v > top / 2) break;
    }
    for (const ParamValue& extra : {spec.Fit(ParamValue::Number(top)), spec.Default()})
        if (spec.Reject(extra).empty() && extra.number <= top) numbers.push_back(extra.number);
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    for (uint64_t v : numbers) out.push_back(std::to_string(v));
    return out;
}

std::string TuningsPath(const std::function<const char*(const char*)>& getenv_fn) {
    return UserDataPath("tunings.json", getenv_fn);
}

Json TuningToJson(const Tuning& t) {
    return Json{{"id", t.id},         {"machine", t.machine}, {"values", ToJson(t.values)},
                {"at", ToJson(t.at)}, {"best_ms", t.best_ms}, {"default_ms", t.default_ms},
                {"when", t.when}};
}

std::vector<Tuning> TuningsFromJson(const Json& list, size_t* skipped) {
    std::vector<Tuning> out;
    size_t bad = 0;
    if (list.is_array()) {
        for (const Json& j : list) {
            if (out.size() >= kMaxTunings) break;  // SaveTuning keeps the newest kMaxTunings
            try {
                if (!j.is_object()) throw UsageError("not an object");
                Tuning t;
                t.id = j.at("id").get<std::string>();
                t.machine = j.at("machine").get<std::string>();
                t.values = ParamsFromJson(j.at("values"));
                t.at = ParamsFromJson(j.value("at", Json::object()));
                t.best_ms = NonNegative(j, "best_ms");
                t.default_ms = NonNegative(j, "default_ms");
                t.when = j.value("when", std::string());
                if (t.id.empty() || t.machine.empty() || t.values.empty())
                    throw UsageError("empty id, machine or values");
                out.push_back(std::move(t));
            } catch (const std::exception& e) {
                RethrowIfOutOfMemory(e, "load the tunings");  // not an entry of a wrong shape
                ++bad;
            }
        }
    }
    if (skipped) *skipped = bad;
    return out;
}

std::vector<Tuning> ReadTunings(const std::string& path, std::string* problem) {
    struct stat st {};
    if (path.empty() || stat(path.c_str(), &st) != 0) return {};  // none yet
    auto refuse = [&](const std::string& why) {
        if (problem) *problem = path + ": " + why + "; its tunings are not used";
        return std::vector<Tuning>{};
    };
    if (!S_ISREG(st.st_mode)) return refuse("not a regular file");
    if (uint64_t(st.st_size) > kMaxTuningsBytes)
        return refuse(std::to_string(st.st_size) + " bytes, more than this program writes");
    std::string text;
    try {
        text.resize(RegularFileSize(path));
        ReadRegularFile(path, text.data(), text.size());
    } catch (const std::exception& e) {
        RethrowIfOutOfMemory(e, "load the tunings");
        return refuse(e.what());
    }
    const Json list = Json::parse(text, nullptr, false);
    if (list.is_discarded() || !list.is_array()) return refuse("not a JSON list of tunings");
    size_t skipped = 0;
    std::vector<Tuning> out = TuningsFromJson(list, &skipped);
    if (skipped && problem)
        *problem = path + ": " + std::to_string(skipped) + " entr" + (skipped == 1 ? "y" : "ies") +
                   " of the wrong shape skipped";
    for (Tuning& t : out) t.origin = "this machine";
    return out;
}

void SaveTuning(const std::string& path, const Tuning& tuning) {
    if (path.empty()) throw UsageError("no folder to keep tunings in: set HOME or XDG_DATA_HOME");
    std::string problem;
    std::vector<Tuning> all = ReadTunings(path, &problem);
    if (!problem.empty())
        throw UsageError("not saving the tuning: " + problem +
                         " (move it away to start a new one; nothing else is lost)");
    all.erase(std::remove_if(all.begin(), all.end(),
                             [&](const Tuning& t) {
                                 return t.id == tuning.id && t.machine == tuning.machine &&
                                        t.at == tuning.at;
                             }),
              all.end());
    all.push_back(tuning);
    // A full file keeps the newest: the oldest tunings make room (by when they were taken).
    if (all.size() > kMaxTunings) {
        std::stable_sort(all.begin(), all.end() - 1,
                         [](const Tuning& a, const Tuning& b) { return a.when > b.when; });
        all.erase(all.begin() + static_cast<std::ptrdiff_t>(kMaxTunings) - 1, all.end() - 1);
    }
    Json list = Json::array();
    for (const Tuning& t : all) list.push_back(TuningToJson(t));
    const std::string dir = path.substr(0, path.rfind('/'));
    for (size_t at = 1; at <= dir.size(); ++at)
        if (at == dir.size() || dir[at] == '/') mkdir(dir.substr(0, at).c_str(), 0755);
    WriteFileReplacing(path, list.dump(1) + "\n");
}

const std::vector<Tuning>& ShippedTunings() {
    static const std::vector<Tuning> kShipped = [] {
        std::vector<Tuning> out;
        for (const auto& [path, text] : EmbeddedFiles()) {
            if (path.rfind("assets/tunings/", 0) != 0) continue;
            const Json list = Json::parse(text, nullptr, false);
            for (Tuning& t : TuningsFromJson(list, nullptr)) {
                t.origin = "shipped";
                out.push_back(std::move(t));
            }
        }
        return out;
    }();
    return kShipped;
}

std::optional<Tuning> FindTuning(const Lesson& lesson, const std::string& machine,
                                 const std::vector<Tuning>& user) {
    for (const std::vector<Tuning>* list : {&user, &ShippedTunings()}) {
        const Tuning* best = nullptr;
        for (const Tuning& t : *list)
            if (t.id == lesson.id && t.machine == machine && (!best || t.when >= best->when))
                best = &t;
        if (best) return *best;
    }
    return std::nullopt;
}

}  // namespace lessons
