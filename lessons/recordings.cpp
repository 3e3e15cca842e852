#include "recordings.h"

#include <exception>
#include <map>
#include <set>

#include "out_of_memory.h"
#include "report.h"
#include "resources.h"

namespace lessons {
namespace {

constexpr std::string_view kReferenceFolder = "assets/reference/";
constexpr const char* kLoading = "load the recorded results";

bool IsReferenceFile(std::string_view path) {
    return path.rfind(kReferenceFolder, 0) == 0 && path.size() > 5 &&
           path.substr(path.size() - 5) == ".json";
}

// Which devices and chapters each reference file holds, read once.
struct FileIndex {
    std::map<std::string, std::set<std::pair<std::string, std::string>>>
        of_file;  // chapter, device
};

const FileIndex& Index() {
    static const FileIndex index = [] {
        FileIndex out;
        for (const auto& [path, text] : EmbeddedFiles()) {
            if (!IsReferenceFile(path)) continue;
            const Json array = Json::parse(text.begin(), text.end(), nullptr, false);
            if (!array.is_array()) continue;
            for (const Json& j : array) {
                if (!j.is_object()) continue;
                const auto chapter = j.find("chapter");
                const auto devices = j.find("devices");
                if (chapter == j.end() || !chapter->is_string() || devices == j.end() ||
                    !devices->is_array())
                    continue;
                for (const Json& d : *devices)
                    if (d.is_string())
                        out.of_file[path].insert(
                            {chapter->get<std::string>(), d.get<std::string>()});
            }
        }
        return out;
    }();
    return index;
}

}  // namespace

std::vector<RunResult> LoadRecordedResults(std::string* problems) {
    return OutOfMemoryAs(kLoading, [problems] {
        std::vector<RunResult> out;
        for (const auto& [path, text] : EmbeddedFiles()) {
            if (!IsReferenceFile(path)) continue;
            const Json array = Json::parse(text.begin(), text.end(), nullptr, false);
            if (!array.is_array()) {
                if (problems) *problems += path + " is not a JSON array; ";
                continue;
            }
            for (const Json& j : array) {
                try {
                    RunResult r = RunResultFromJson(j);
                    if (r.kind != StepKind::kGpu) continue;  // CPU lessons always run live
                    r.recorded = true;
                    out.push_back(std::move(r));
                } catch (const std::exception& e) {
                    RethrowIfOutOfMemory(e, kLoading);  // not a bad entry
                    if (problems) *problems += path + ": " + e.what() + "; ";
                }
            }
        }
        return out;
    });
}

const std::vector<RunResult>& RecordedCpuResults() {
    static const std::vector<RunResult> all = OutOfMemoryAs(kLoading, [] {
        std::vector<RunResult> out;
        for (const auto& [path, text] : EmbeddedFiles()) {
            if (!IsReferenceFile(path)) continue;
            const Json array = Json::parse(text.begin(), text.end(), nullptr, false);
            if (!array.is_array()) continue;
            // The file's GPU: the first device of its GPU results (one machine per file).
            std::string gpu;
            for (const Json& j : array)
                if (gpu.empty() && j.is_object() && j.value("kind", "") == "gpu" &&
                    j.contains("devices") && j["devices"].is_array() && !j["devices"].empty() &&
                    j["devices"][0].is_string())
                    gpu = j["devices"][0].get<std::string>();
            for (const Json& j : array) {
                try {
                    RunResult r = RunResultFromJson(j);
                    if (r.kind != StepKind::kCpu) continue;
                    r.recorded = true;
                    r.recorded_with = gpu;
                    out.push_back(std::move(r));
                } catch (const std::exception& e) {
                    RethrowIfOutOfMemory(e, kLoading);
                    // a bad entry: LoadRecordedResults names it
                }
            }
        }
        return out;
    });
    return all;
}

std::vector<std::string> RecordingFiles(std::string_view chapter, std::string_view device) {
    std::vector<std::string> out;
    for (const auto& [path, pairs] : Index().of_file)
        for (const auto& [c, d] : pairs)
            if (c == chapter && d == device) {
                out.push_back(path);
                break;
            }
    return out;
}

Json RecordedDeviceInfo(std::string_view device) {
    for (const auto& [path, text] : EmbeddedFiles()) {
        if (path.rfind("assets/info/", 0) != 0) continue;
        Json j = Json::parse(text, nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j.contains("devices") ||
            !j["devices"].is_array() || j["devices"].empty() || !j["devices"][0].is_object())
            continue;
        const Json& name = j["devices"][0]["name"];
        if (name.is_string() && name.get<std::string>() == device) return j;
    }
    return nullptr;
}

std::string CurrentSourceKey(const Lesson& lesson) {
    return lesson.source_key;
}

bool IsStale(const RunResult& recorded, const Registry& registry) {
    if (recorded.source_key.empty()) return false;
    const Lesson* lesson = registry.FindLesson(recorded.id);
    if (!lesson || lesson->source_key.empty()) return false;
    return lesson->source_key != recorded.source_key;
}

}  // namespace lessons
