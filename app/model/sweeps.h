// The sweeps the page charts, without drawing: one lesson's results along one of its parameters
// (block size, data size, a tile configuration, a toggle, FMAs per element), every other
// parameter as the page runs it. Live results come from sweeps along that parameter; on a
// machine where none ran (no GPU), from the recorded results (assets/reference), which hold the
// block-size sweeps and every value of each ablation toggle of the reference GPU's run.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/page_params.h"
#include "model/results_store.h"
#include "registry.h"
#include "result.h"

namespace lessons::app {

struct SweepLine {
    const Lesson* lesson = nullptr;
    const ParamSpec* along = nullptr;  // the lesson's own spec of the parameter swept
    // One result per value (the newest), in the parameter's order: numbers ascending, choices
    // as the parameter lists them.
    std::vector<std::pair<ParamValue, const RunResult*>> points;
    bool recorded = false;  // from the recorded results: no live sweep along it at these values
    std::string device;     // where recorded: the GPU, and the day (YYYY-MM-DD)
    std::string date;
};

// The sweep of `lesson` along its parameter `name` at the page's values (`page`): its verified
// results that differ from what the page would run in `name` alone. Live: those of sweeps along
// `name` (StoredResult::swept). Where there are none, the recorded results, when they hold at
// least two values of it (a recording made before a parameter existed ran at its default). An
// empty line (no points) when there is neither, or the lesson has no such parameter.
SweepLine SweepOf(const std::vector<StoredResult>& results, const Lesson& lesson,
                  const std::string& name, const RunSettings& page);

// The lessons a sweep of `lesson` along `name` is charted for: the previous lesson (when it has
// the parameter) and this one, in that order.
std::vector<const Lesson*> SweptLessons(const Registry& reg, const Lesson& lesson,
                                        const std::string& name);

// The parameters a sweep of `lesson` may run along from the page's "Sweep over" choice: each of
// its parameters except the block size and the data size (which have their own sweeps) and the
// GPU count: its own first (a tile configuration, a toggle, FMAs per element), then its
// chapter's (the data kind), each in the lesson's order.
std::vector<const ParamSpec*> SweepableParams(const Registry& reg, const Lesson& lesson);

// The parameter the roofline page's "Sweep" button runs along: the lesson's first number that
// is not its launch shape, its data size or its GPU count (the roofline lesson's FMAs per
// element: its arithmetic intensity); null when it has none.
const ParamSpec* IntensityParam(const Lesson& lesson);

}  // namespace lessons::app
