#include "model/results_store.h"

#include <algorithm>
#include <utility>

#include "model/page_params.h"  // MatchesParams
#include "recordings.h"         // kReferenceGpu
#include "report.h"             // AdoptDeclaredBound

namespace lessons::app {

namespace {

// Names the result's lesson as this catalogue does: `id` the lesson's current id and `lesson`
// its number here, found by the id the result carries (recorded results carry the ids of their
// time, "reduce/23-v3-unrolled-last-warp"). A result of a lesson this catalogue does not have keeps
// its id and gets number 0: it is listed in its chapter's table and drawn for no lesson.
void AdoptLesson(const Registry& registry, RunResult& r) {
    const Lesson* lesson = registry.FindLesson(r.id);
    r.lesson = lesson ? lesson->number : 0;
    if (lesson) r.id = lesson->id;
}

}  // namespace

ResultsStore::ResultsStore(const Registry& registry, std::vector<RunResult> recorded)
    : m_registry(registry) {
    std::map<std::string, int> per_gpu;
    for (RunResult& r : recorded) {
        AdoptLesson(m_registry, r);
        AdoptDeclaredBound(m_registry, r);  // tensor-core steps recorded before the TF32 ceiling
        if (r.devices.size() == 1) ++per_gpu[r.devices.front()];
        m_recorded.push_back({std::move(r), Origin::kRecorded, m_sequence++, {}});
    }
    for (const auto& [name, count] : per_gpu) m_reference_gpus.push_back(name);
    // The project's reference GPU first (kReferenceGpu), then by how many results each has.
    std::stable_sort(m_reference_gpus.begin(), m_reference_gpus.end(),
                     [&per_gpu](const std::string& a, const std::string& b) {
                         if ((a == lessons::kReferenceGpu) != (b == lessons::kReferenceGpu))
                             return a == lessons::kReferenceGpu;
                         return per_gpu.at(a) > per_gpu.at(b);
                     });
    SetReferenceGpu("");
}

bool ResultsStore::SetReferenceGpu(const std::string& name) {
    const bool known =
        std::find(m_reference_gpus.begin(), m_reference_gpus.end(), name) != m_reference_gpus.end();
    m_reference_gpu = known                      ? name
                      : m_reference_gpus.empty() ? std::string()
                                                 : m_reference_gpus.front();
    // Recordings arrived before anything live (lower sequence numbers): they go first again.
    std::vector<StoredResult> results;
    for (const StoredResult& s : m_recorded)
        if (s.result.devices.size() != 1 || s.result.devices.front() == m_reference_gpu)
            results.push_back(s);
    for (StoredResult& s : m_results)
        if (s.origin != Origin::kRecorded) results.push_back(std::move(s));
    m_results = std::move(results);
    return known;
}

StoredResult ResultsStore::Stored(RunResult result, Origin origin, std::string swept) {
    StoredResult s{std::move(result), origin, m_sequence++, std::move(swept)};
    AdoptLesson(m_registry, s.result);
    return s;
}

const StoredResult& ResultsStore::AddLive(RunResult result, Origin origin, std::string swept) {
    m_results.push_back(Stored(std::move(result), origin, std::move(swept)));
    return m_results.back();
}

const StoredResult& ResultsStore::AddYours(RunResult result, Origin origin, std::string swept) {
    result.yours = true;  // a student's kernel: never a lesson's own result
    m_yours.push_back(Stored(std::move(result), origin, std::move(swept)));
    return m_yours.back();
}

const StoredResult* ResultsStore::Latest(const Lesson& lesson,
                                         const ParamValues& chapter_values) const {
    const StoredResult* best = nullptr;
    for (const StoredResult& s : m_results) {
        if (s.result.lesson != lesson.number || s.origin == Origin::kRecorded) continue;
        if (!MatchesParams(s.result, chapter_values)) continue;
        if (!best || s.sequence > best->sequence) best = &s;
    }
    return best;
}

const StoredResult* ResultsStore::LatestAnySize(const Lesson& lesson) const {
    const StoredResult* best = nullptr;
    for (const StoredResult& s : m_results)
        if (s.result.lesson == lesson.number && (!best || s.sequence > best->sequence)) best = &s;
    return best;
}

void ResultsStore::SetAvailable(const Lesson& lesson, bool available, Message why_not) {
    m_available[lesson.number] = {available, std::move(why_not)};
}

LessonMode ResultsStore::Mode(const Lesson& lesson) const {
    auto it = m_available.find(lesson.number);
    if (it != m_available.end() && it->second.first) return LessonMode::kLive;
    if (lesson.kind == StepKind::kGpu)
        for (const StoredResult& s : m_results)
            if (s.origin == Origin::kRecorded && s.result.lesson == lesson.number)
                return LessonMode::kRecorded;
    return it == m_available.end() ? LessonMode::kUnknown : LessonMode::kUnavailable;
}

const Message* ResultsStore::WhyUnavailable(const Lesson& lesson) const {
    auto it = m_available.find(lesson.number);
    return it == m_available.end() ? nullptr : &it->second.second;
}

}  // namespace lessons::app
