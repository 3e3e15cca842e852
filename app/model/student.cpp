#include "model/student.h"

#include <algorithm>
#include <cctype>

#include "model/results_view.h"

namespace lessons::app {
namespace {

std::string Lower(std::string_view text) {
    std::string out(text);
    for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
}

bool WordMatches(const std::string& word, const std::string& label, const std::string& title,
                 const std::string& id) {
    if (label.compare(0, word.size(), word) == 0) return true;
    return Lower(title).find(word) != std::string::npos ||
           Lower(id).find(word) != std::string::npos;
}

}  // namespace

bool MatchesFilter(std::string_view query, const std::string& label, const std::string& title,
                   const std::string& id) {
    const std::string q = Lower(query);
    size_t at = 0;
    while (at < q.size()) {
        const size_t start = q.find_first_not_of(" \t", at);
        if (start == std::string::npos) break;
        const size_t end = std::min(q.find_first_of(" \t", start), q.size());
        if (!WordMatches(q.substr(start, end - start), label, title, id)) return false;
        at = end;
    }
    return true;
}

float ChapterProgress::Fraction() const {
    return lessons == 0 ? 0.0f : float(visited + ran + answered) / float(3 * lessons);
}

ChapterProgress CountProgress(const std::vector<const Lesson*>& lessons, const Settings& s) {
    ChapterProgress p;
    for (const Lesson* l : lessons) {
        ++p.lessons;
        p.visited += s.visited.count(l->id) > 0;
        p.ran += s.ran.count(l->id) > 0;
        p.answered += s.answered.count(l->id) > 0;
    }
    return p;
}

void ForgetUnknownLessons(const Registry& registry, Settings* s) {
    for (std::set<std::string>* ids : {&s->visited, &s->ran, &s->answered})
        for (auto it = ids->begin(); it != ids->end();) {
            const Lesson* l = registry.FindLesson(*it);
            it = l && l->id == *it ? std::next(it) : ids->erase(it);
        }
}

void CarryParams(const std::string& from, const std::string& to, RunSettings* run,
                 KeptParams* kept) {
    if (from == to) return;
    if (!from.empty()) (*kept)[from] = run->params;
    const auto it = kept->find(to);
    if (it == kept->end())
        run->params.clear();
    else
        run->params = it->second;
}

int ChartPoints(const ResultsStore& c, const Registry& reg, const Lesson& lesson,
                const RunSettings& run) {
    int points = 0;
    for (const Lesson* l : reg.LessonsOf(reg.ChapterOf(lesson)))
        points += ShownResult(c, reg, *l, run) != nullptr;
    return points;
}

std::optional<std::map<std::string, ParamValue>> RecordedSettings(const ResultsStore& c,
                                                                  const Registry& reg,
                                                                  const Lesson& lesson,
                                                                  const RunSettings& run,
                                                                  bool entering_chapter) {
    const bool recorded_here = c.Mode(lesson) == LessonMode::kRecorded;
    const bool own_shown = ShownResult(c, reg, lesson, run) != nullptr;
    if (recorded_here && own_shown) return std::nullopt;
    if (!recorded_here && !(entering_chapter && ChartPoints(c, reg, lesson, run) == 0))
        return std::nullopt;
    const Chapter& chapter = reg.ChapterOf(lesson);
    const std::vector<const Lesson*> lessons = reg.LessonsOf(chapter);
    // The parameters a recording sets: the chapter's, and the GPU count of multi-GPU steps.
    std::vector<std::string> names;
    for (const ParamSpec& p : chapter.params) names.push_back(p.name);
    for (const Lesson* l : lessons)
        if (const ParamSpec* gpus = GpuCountParam(*l);
            gpus && std::find(names.begin(), names.end(), gpus->name) == names.end())
            names.push_back(gpus->name);
    std::optional<std::map<std::string, ParamValue>> best;
    int best_score = 0;
    std::vector<std::map<std::string, ParamValue>> tried;
    for (const StoredResult& s : c.results()) {
        if (s.origin != Origin::kRecorded) continue;
        const auto of = std::find_if(lessons.begin(), lessons.end(), [&](const Lesson* l) {
            return l->number == s.result.lesson && c.Mode(*l) == LessonMode::kRecorded;
        });
        if (of == lessons.end()) continue;
        std::map<std::string, ParamValue> values;
        for (const std::string& name : names)
            if (const ParamValue* v = s.result.params.Find(name)) values[name] = *v;
        if (std::find(tried.begin(), tried.end(), values) != tried.end()) continue;
        tried.push_back(values);
        RunSettings trial = run;
        for (const auto& [name, v] : values) trial.params[name] = v;
        // This lesson's own bar counts for more than all the others together.
        const int score =
            (ShownResult(c, reg, lesson, trial) ? 1000 : 0) + ChartPoints(c, reg, lesson, trial);
        if (score > best_score) {
            best_score = score;
            best = values;
        }
    }
    return best;
}

}  // namespace lessons::app
