// What the lesson page shows of the results, without drawing: the result a lesson's bar, summary
// row and prediction show at the page's settings, and the columns of the results table.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "model/page_params.h"
#include "model/results_store.h"
#include "registry.h"
#include "result.h"

namespace lessons::app {

// The result a lesson's bar, summary row and prediction show at the page's settings: the newest
// live result run with every parameter of the lesson as the page would run it, else (a lesson
// shown from recordings) the newest recorded one with the same chapter values and toggles.
// When a recording exists only at other values, `recorded_elsewhere` is set to it.
const RunResult* ShownResult(const ResultsStore& c, const Registry& reg, const Lesson& lesson,
                             const RunSettings& run,
                             const RunResult** recorded_elsewhere = nullptr);

// A column of the results table: a field of the engine's field table that has a header, or a
// parameter of the chapter's lessons.
struct ResultColumn {
    std::string header;  // in the page's language
    bool right_aligned = false;
    std::string key;  // the field's name ("median_ms"), or "param:NAME"
    std::function<std::string(const RunResult&)> text;
};
// "lesson" (its label), one column per parameter of the chapter's lessons, then every other field
// with a header, in the field table's order. (The table adds a last column: live or recorded.)
// The columns refer to `reg`, which must outlive them.
std::vector<ResultColumn> ResultColumns(const Registry& reg, const Chapter& chapter,
                                        const std::string& language);

}  // namespace lessons::app
