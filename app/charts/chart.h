// The one chart widget of the GUI, drawn with ImDrawList (ImPlot is not packaged for Debian
// 12): bars with min-max whiskers and stacked parts, and line charts (with each point's spread);
// linear or log axes
// with ticks, a legend, and exact values on hover.
#pragma once

#include <imgui.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lessons::app::chart {

struct Bar {
    std::string label;          // under the bar
    double value = 0;           // the bar's height (total of `parts` when stacked)
    double lo = -1, hi = -1;    // whiskers (min, max); negative: none
    std::vector<double> parts;  // stacked segments, bottom first; empty: one segment
    ImU32 color = 0;            // single-segment colour
    bool highlight = false;     // the current lesson
    bool hatched = false;       // recorded, not live
    bool invalid = false;       // a wrong result: drawn as a red marker, never as a bar
    std::string annotation;     // above the bar, e.g. "2.3x faster than lesson 1.2"
    std::string tooltip;
};

// Where a bar chart drew what (screen coordinates, x0, y0, x1, y1): tests check the layout.
struct BarLayout {
    ImVec4 chart;                     // the whole widget
    std::vector<ImVec4> bars;         // each bar with its whisker; an empty one at the axis
    std::vector<ImVec4> annotations;  // each annotation drawn
    ImVec4 unit;                      // the unit over the axis, all its lines
    std::vector<float> y_ticks;       // the y of each tick label drawn
};

struct BarOptions {
    const char* unit = "ms";
    bool log_scale = false;
    float height = 220;
    std::vector<std::string> part_names;
    std::vector<ImU32> part_colors;
    BarLayout* layout = nullptr;                    // filled when given
    const char* wrong_text = "\xE2\x9C\x97 wrong";  // in place of a wrong result's bar
};

// The unit over a chart's axis ("ms (median, confidence interval)") in at most `max_lines` lines
// each at most `room` wide as `width` measures them: whole where it fits, else broken before
// its parenthesis ("(" or the full-width "（"), else each line shortened with "…" (at a
// character's boundary). Never wider than `room`, so never cut at the chart's left edge.
std::vector<std::string> UnitLines(const std::string& unit, float room, int max_lines,
                                   const std::function<float(const std::string&)>& width);

// The top-left corner of a `w` x `h` annotation of bar `index` (`bars` as in BarLayout): above
// the bar and its whisker, centred on it and kept within [left, right]; where that would cover
// another bar or whisker, on the free band at `band_y` above the plot.
ImVec2 PlaceAnnotation(const std::vector<ImVec4>& bars, int index, float w, float h, float left,
                       float right, float band_y);

// Returns the index of the hovered bar, or -1.
int BarChart(const char* id, const std::vector<Bar>& bars, const BarOptions& options);

struct Series {
    std::string name;
    ImU32 color = 0;
    std::vector<double> x, y;
    std::vector<std::string> tooltips;  // one per point, optional
    // Each point's spread (the median's confidence interval), drawn as a bar through it;
    // optional, and a negative end: none.
    std::vector<double> lo, hi;
    int best = -1;  // index of the point to mark as best
    // The best point's interval meets another point's (review row 2: "best" circled noise): it
    // is marked "best" with `best_noise_text` beside it.
    bool best_within_noise = false;
    bool dashed = false;  // recorded, not live: a dashed line and hollow points
};

struct LineOptions {
    const char* x_label = "";
    const char* y_label = "";
    bool log_x = false, log_y = false;
    bool x_bytes = false;  // format x ticks as sizes (on a log axis: at powers of two)
    // Ticks of the x axis at these values (the block sizes that were run), linear or log;
    // empty: 1-2-5 steps or decades (Ticks).
    std::vector<double> x_ticks;
    float height = 220;
    const char* empty_text = "no data yet";
    const char* best_text = "best";  // beside the best point
    std::string best_noise_text;     // ... where it is within noise of another point (if set)
    std::vector<std::string>* x_tick_labels = nullptr;  // filled with the x labels drawn
};

// A line from `a` to `b` in dashes of `dash` pixels with gaps as long (recorded series).
void DashedLine(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color, float thickness, float dash);

// Point i of `s` has a spread to draw (on a log axis: above 0).
bool HasSpread(const Series& s, size_t i, bool log_y);
void LineChart(const char* id, const std::vector<Series>& series, const LineOptions& options);

// Tick positions for [lo, hi]: 1-2-5 steps on a linear axis, decades (and 2, 5) on a log one.
std::vector<double> Ticks(double lo, double hi, bool log_scale, int max_ticks);
// The ticks of an axis over [lo, hi]: `explicit_ticks` inside the range, sorted, once each,
// when there are any; else Ticks().
std::vector<double> AxisTicks(double lo, double hi, bool log_scale, int max_ticks,
                              const std::vector<double>& explicit_ticks);
// Short labels: "0.25", "12", "1.5k"; FormatBytes: "64 KiB", "1 GiB".
std::string FormatTick(double v);
std::string FormatBytesTick(double v);
// The ticks of a byte axis over [lo, hi] on a log scale: powers of two, every 1, 2, 5 or 10th
// (1 KiB, 32 KiB, 1 MiB, ...: aligned so that KiB, MiB and GiB fall on ticks), at most
// `max_ticks` of them.
std::vector<double> BytesTicks(double lo, double hi, int max_ticks);

// The index of the best point of a sweep: the highest rate (GB/s or GFLOP/s), not the
// shortest time (in a size sweep the shortest time is simply the smallest size). Points with
// no rate (0 or less) are never best; -1 when none has one.
int BestRateIndex(const std::vector<double>& rates);

// The span past which a chart is drawn on a log axis by itself: its largest value is more than
// this many times its smallest.
constexpr double kLogSpan = 20;
// True when the positive values span more than kLogSpan (zeros and negatives are ignored).
bool SpansLogRange(const std::vector<double>& values);
// The same against another span (the largest over the smallest positive value above `span`).
bool SpansMoreThan(const std::vector<double>& values, double span);

// The log-scale choice of the step charts: the student's explicit choice per chapter, else
// each chart's own rule (SpansLogRange). The GUI's Log checkbox is bound to one bool; a value
// that differs from what the chart last set it to is the student's click.
struct LogChoice {
    std::map<std::string, bool> by_chapter;  // chapters the student chose for
    std::string chapter;                     // the chapter the checkbox showed last
    bool shown = false;                      // the value the chart last set
    // The scale each chapter's chart took by itself: log stays log until its values span less
    // than half the range that turned it on (10x), so that runs a little apart do not flip
    // the axis back and forth (and the chart's height with its note).
    std::map<std::string, bool> automatic;
    // Takes the checkbox's value (a click when it differs from `shown` in the same chapter),
    // and returns the scale for `chapter`'s chart with `values`; the checkbox is then set to it.
    bool Resolve(const std::string& chapter_id, bool checkbox, const std::vector<double>& values);
    // The student's choice for the chapter, if any.
    std::optional<bool> Chosen(const std::string& chapter_id) const;
};

}  // namespace lessons::app::chart
