// What the lesson page's charts show of a result (charts_panel.cpp, sweep_charts.cpp): its rate
// in a chapter's unit, the time a sweep plots, its tooltip, and a bar's value and whiskers.
#pragma once

#include <string>

#include "charts/chart.h"
#include "panels/ui_state.h"
#include "registry.h"
#include "result.h"

namespace lessons::app {

// The result's rate in `unit` ("GB/s" or "GFLOP/s"), so that a chapter's bars share one axis.
double RateIn(const RunResult& r, const std::string& unit);
// The time a sweep plots: the part the rates are taken over (the kernel), else the whole run.
double RateMs(const RunResult& r);
// The lesson, its parameters, timings, rates and share of its ceiling, whether it was verified,
// and where it was recorded, in the page's language.
std::string ResultTooltip(const UiState& ui, const Registry& reg, const RunResult& r);
// The bar's value and whiskers, in ms or in `unit` (the page's axis choice).
void SetBarValues(const UiState& ui, const RunResult& r, const std::string& unit, chart::Bar* b);

}  // namespace lessons::app
