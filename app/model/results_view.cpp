#include "model/results_view.h"

#include <string_view>

#include "report.h"
#include "words/words.h"

namespace lessons::app {

namespace {

// Whether `r` ran with each of `values` named by `specs`.
bool RunWith(const RunResult& r, const std::vector<ParamSpec>& specs, const ParamValues& values) {
    for (const ParamSpec& spec : specs) {
        const ParamValue* want = values.Find(spec.name);
        if (!want) continue;
        const ParamValue* got = r.params.Find(spec.name);
        // A result recorded before a toggle existed ran as its default does.
        if (got ? *got != *want : spec.Default() != *want) return false;
    }
    return true;
}

}  // namespace

const RunResult* ShownResult(const ResultsStore& c, const Registry& reg, const Lesson& l,
                             const RunSettings& run, const RunResult** recorded_elsewhere) {
    const ParamValues values = ResolveParams(l.params, run);
    if (const StoredResult* s = c.Latest(l, values)) return &s->result;
    if (c.Mode(l) != LessonMode::kRecorded) return nullptr;
    // Recorded results were made at the lesson's own defaults (block size): they match on the
    // chapter's values and on every choice (the ablation toggles), with the newest first.
    const Chapter& chapter = reg.ChapterOf(l);
    std::vector<ParamSpec> specs = chapter.params;
    for (const ParamSpec& p : OwnParams(reg, l))
        if (p.type == ParamType::kChoice) specs.push_back(p);
    const StoredResult* best = nullptr;
    const StoredResult* any = nullptr;
    for (const StoredResult& s : c.results()) {
        if (s.result.lesson != l.number || s.origin != Origin::kRecorded) continue;
        if (!any || s.sequence > any->sequence) any = &s;
        if (RunWith(s.result, specs, values) && (!best || s.sequence > best->sequence)) best = &s;
    }
    if (!best && any && recorded_elsewhere) *recorded_elsewhere = &any->result;
    return best ? &best->result : nullptr;
}

std::vector<ResultColumn> ResultColumns(const Registry& reg, const Chapter& chapter,
                                        const std::string& language) {
    std::vector<ResultColumn> out;
    const bool zh = language == "zh";
    auto field_column = [&](const ResultField& f) {
        if (zh && !f.header_zh) RecordTranslationMiss(f.header_en);
        out.push_back({zh && f.header_zh ? f.header_zh : f.header_en, f.right_aligned, f.name,
                       f.text ? f.text : [](const RunResult&) { return std::string(); }});
    };
    for (const ResultField& f : ResultFields())
        if (f.header_en && f.name && std::string_view(f.name) == "lesson") {
            field_column(f);
            // The lesson as a person knows it: its label ("5.8"), never its catalogue position.
            out.back().text = [&reg](const RunResult& r) {
                const Lesson* l = reg.FindLesson(r.lesson);
                return l ? l->label : r.id;
            };
        }
    // One column per parameter of the chapter's lessons, in declaration order.
    const std::vector<const Lesson*> lessons = reg.LessonsOf(chapter);
    for (const std::string& name : ParamNamesOf(lessons)) {
        const ParamSpec* spec = nullptr;
        for (const Lesson* l : lessons)
            if (!spec) spec = l->FindParam(name);
        const ParamSpec copy = *spec;
        out.push_back({Label(copy, language), copy.type != ParamType::kChoice, "param:" + name,
                       [copy, language](const RunResult& r) {
                           const ParamValue* v = r.params.Find(copy.name);
                           if (!v) return std::string("-");
                           return copy.type == ParamType::kChoice
                                      ? SayChoice(language, copy, copy.Format(*v))
                                      : copy.Format(*v);
                       }});
    }
    for (const ResultField& f : ResultFields())
        if (f.header_en && !(f.name && std::string_view(f.name) == "lesson")) field_column(f);
    return out;
}

}  // namespace lessons::app
