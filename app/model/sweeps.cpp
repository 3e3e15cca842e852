#include "model/sweeps.h"

#include <algorithm>
#include <map>

namespace lessons::app {
namespace {

// Whether `r` ran with each of `values` except `name`; a parameter the result does not carry
// (recorded before it existed) counts as its default.
bool SameBut(const RunResult& r, const Lesson& lesson, const ParamValues& values,
             const std::string& name) {
    for (const ParamSpec& spec : lesson.params) {
        if (spec.name == name) continue;
        const ParamValue* want = values.Find(spec.name);
        if (!want) continue;
        const ParamValue* got = r.params.Find(spec.name);
        if (got ? *got != *want : spec.Default() != *want) return false;
    }
    return true;
}

// A value's place along the parameter: numbers by size, choices by their place in the list.
uint64_t Order(const ParamSpec& spec, const ParamValue& v) {
    if (spec.type != ParamType::kChoice) return v.number;
    const auto at = std::find(spec.choices.begin(), spec.choices.end(), v.choice);
    return static_cast<uint64_t>(at - spec.choices.begin());
}

}  // namespace

SweepLine SweepOf(const std::vector<StoredResult>& results, const Lesson& lesson,
                  const std::string& name, const RunSettings& page) {
    SweepLine line;
    line.lesson = &lesson;
    for (const ParamSpec& p : lesson.params)
        if (p.name == name) line.along = &p;
    if (!line.along) return line;
    const ParamValues values = ResolveParams(lesson.params, page);
    // By the value's place: the newest live result, and the newest recorded one.
    std::map<uint64_t, const StoredResult*> live, recorded;
    for (const StoredResult& s : results) {
        const RunResult& r = s.result;
        if (r.lesson != lesson.number || !r.verified) continue;
        const ParamValue* v = r.params.Find(name);
        if (!v || !SameBut(r, lesson, values, name)) continue;
        const bool from_recording = s.origin == Origin::kRecorded;
        if (!from_recording && s.swept != name) continue;  // a single run is not a sweep's point
        auto& slot = (from_recording ? recorded : live)[Order(*line.along, *v)];
        if (!slot || s.sequence > slot->sequence) slot = &s;
    }
    if (!live.empty()) {
        for (const auto& [order, s] : live)
            line.points.emplace_back(*s->result.params.Find(name), &s->result);
        return line;
    }
    if (recorded.size() < 2) return line;
    line.recorded = true;
    for (const auto& [order, s] : recorded) {
        line.points.emplace_back(*s->result.params.Find(name), &s->result);
        // The newest recording names the GPU and the day (one chapter's file: one run).
        if (s->result.timestamp.substr(0, 10) >= line.date) {
            line.date = s->result.timestamp.substr(0, 10);
            line.device = s->result.Device();
        }
    }
    return line;
}

std::vector<const Lesson*> SweptLessons(const Registry& reg, const Lesson& lesson,
                                        const std::string& name) {
    std::vector<const Lesson*> out;
    for (const Lesson* l : {lesson.previous ? reg.FindLesson(lesson.previous) : nullptr, &lesson})
        if (l && std::any_of(l->params.begin(), l->params.end(),
                             [&](const ParamSpec& p) { return p.name == name; }))
            out.push_back(l);
    return out;
}

std::vector<const ParamSpec*> SweepableParams(const Registry& reg, const Lesson& lesson) {
    std::vector<const ParamSpec*> own, shared;
    const ParamSpec* block = BlockSizeParam(lesson);
    const ParamSpec* size = DataSizeParam(lesson);
    const Chapter& chapter = reg.ChapterOf(lesson);
    for (const ParamSpec& p : lesson.params) {
        if (&p == block || &p == size || p.gpu_count) continue;
        const bool of_chapter = std::any_of(chapter.params.begin(), chapter.params.end(),
                                            [&](const ParamSpec& c) { return c.name == p.name; });
        (of_chapter ? shared : own).push_back(&p);
    }
    own.insert(own.end(), shared.begin(), shared.end());
    return own;
}

const ParamSpec* IntensityParam(const Lesson& lesson) {
    const ParamSpec* size = DataSizeParam(lesson);
    for (const ParamSpec& p : lesson.params)
        if (p.type != ParamType::kChoice && !p.launch_shape && &p != size && !p.gpu_count)
            return &p;
    return nullptr;
}

}  // namespace lessons::app
