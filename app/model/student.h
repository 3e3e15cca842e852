// The student's path through the catalogue, without drawing: the lesson list's filter, the
// progress marks and each chapter's share of them, the parameters a chapter keeps while the
// student is elsewhere, and the settings a lesson opens at where it can only show recordings.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/page_params.h"
#include "model/results_store.h"
#include "model/settings.h"
#include "registry.h"

namespace lessons::app {

// Whether a lesson matches the lesson list's filter: every word of `query` (split at spaces,
// compared without regard to ASCII case) is found in its label ("5.8"), its title as the list
// shows it, or its id ("gemm/double-buffering"). A label matches from its start ("5" finds 5.1
// to 5.12, "5.1" finds 5.1 and 5.10 to 5.12); an empty query matches every lesson.
bool MatchesFilter(std::string_view query, const std::string& label, const std::string& title,
                   const std::string& id);

// How far the student is through a chapter: its lessons, and how many were opened, run live
// here, and marked answered.
struct ChapterProgress {
    int lessons = 0;
    int visited = 0;
    int ran = 0;
    int answered = 0;
    // The bar's fill: each lesson counts a third for each of its three marks.
    float Fraction() const;
};
ChapterProgress CountProgress(const std::vector<const Lesson*>& lessons, const Settings& s);

// Drops from the progress lists the ids `registry` does not know (a lesson renamed or removed,
// or a hand-edited file), so that the file stays as small as the catalogue.
void ForgetUnknownLessons(const Registry& registry, Settings* s);

// Parameters carry over between lessons of one chapter only. Leaving chapter `from` for
// chapter `to` keeps the page's parameters in `kept` under `from` and brings back those kept
// under `to` (none: every parameter at its lesson's default). Within one chapter, nothing
// changes.
using KeptParams = std::map<std::string, std::map<std::string, ParamValue>>;
void CarryParams(const std::string& from, const std::string& to, RunSettings* run,
                 KeptParams* kept);

// How many results the step chart of `lesson`'s chapter draws at the page's settings: one per
// lesson that has a result there (ShownResult, as the chart takes them).
int ChartPoints(const ResultsStore& c, const Registry& reg, const Lesson& lesson,
                const RunSettings& run);

// The values of the chapter's parameters (and of the GPU count) a page should switch to on
// arriving at `lesson` so that it shows recorded results, or nothing to keep the page as it is.
// It switches only where recordings are what the page can show: when the lesson itself is shown
// from recordings (LessonMode::kRecorded) and has no result at the page's settings, or, on
// entering the chapter (`entering_chapter`), when the step chart would be empty. It picks the
// values recorded for this lesson that give the chart the most bars (the first such, in the
// order the recordings were loaded), else those that give it the most bars at all. With a GPU
// every lesson runs live and nothing is switched.
std::optional<std::map<std::string, ParamValue>> RecordedSettings(const ResultsStore& c,
                                                                  const Registry& reg,
                                                                  const Lesson& lesson,
                                                                  const RunSettings& run,
                                                                  bool entering_chapter);

}  // namespace lessons::app
