// The sweep charts of the lesson page: the block-size sweep, the size sweep and the sweep over
// any other parameter (model/sweeps.h finds their points): numbers as time and rate lines on a
// log axis, choices as bars, each lesson's best rate marked; a sweep recorded on the reference
// GPU, where none ran here, dashed and labelled with its GPU and date.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "charts/chart.h"
#include "model/sweeps.h"
#include "panels/panels.h"
#include "panels/result_bars.h"
#include "probe.h"
#include "text/lesson_text.h"
#include "words/words_student.h"

namespace lessons::app {
namespace {

// The sweeps charted for `lesson` along the parameter `along` gives each lesson (this one and the
// previous one): live where a sweep ran here, else recorded; none for a lesson whose measured
// figures are hidden.
std::vector<SweepLine> GatherSweeps(const UiState& ui, const Controller& c, const Registry& reg,
                                    const Lesson& lesson,
                                    const std::function<const ParamSpec*(const Lesson&)>& along) {
    std::vector<SweepLine> out;
    const bool hidden = MeasuredHidden(ui, c, lesson);
    for (const Lesson* l : {lesson.previous ? reg.FindLesson(lesson.previous) : nullptr, &lesson}) {
        if (!l || (l == &lesson && hidden)) continue;
        const ParamSpec* spec = along(*l);
        if (!spec) continue;
        SweepLine line = SweepOf(c.results(), *l, spec->name, ui.run);
        if (!line.points.empty()) out.push_back(std::move(line));
    }
    return out;
}

// A series' name in the legend: "lesson 1.4", "lesson 1.4 (recorded)".
std::string SeriesName(const UiState& ui, const SweepLine& line) {
    const std::string name = Fmt(Tr(ui, kLessonN), line.lesson->label.c_str());
    return line.recorded ? Fmt(Tr(ui, kRecordedSeries), name.c_str()) : name;
}

// Under the chart: where and when the recorded lines (or, in a bar chart, bars) were measured.
void DrawRecordedSweepNote(UiState& ui, const std::vector<SweepLine>& lines, Probe::Sweep* probe,
                           bool bars = false) {
    for (const SweepLine& line : lines) {
        if (!line.recorded) continue;
        const std::string note = Fmt(Tr(ui, bars ? kSweepRecordedBarsNote : kSweepRecordedNote),
                                     line.device.c_str(), line.date.c_str());
        DrawWrappedText(note, &kAmber);
        if (probe) probe->note = note;
        return;
    }
}

// Where nothing is charted: how to sweep, or why nothing can be shown here.
void DrawNoSweep(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson,
                 const ParamSpec* spec, const char* how, Probe::Sweep* probe) {
    std::string text;
    const std::string cannot =
        spec ? CannotSweepWhy(ui.settings.language, c, reg, lesson, spec->name) : std::string();
    if (cannot.empty()) {
        text = how;
    } else {
        const Chapter& chapter = reg.ChapterOf(lesson);
        text =
            Fmt(Tr(ui, kSweepNoneHere), Label(*spec, ui.settings.language),
                DescribeParams(chapter.params, ChapterValues(chapter, ui.run), ui.settings.language)
                    .c_str(),
                cannot.c_str());
    }
    DrawWrappedText(text, &kGrey);
    if (probe) probe->note = text;
}

// The time and rate series of sweeps along a number, and the rate's unit.
void SweepSeries(const UiState& ui, const Registry& reg, const Lesson& lesson,
                 const std::vector<SweepLine>& lines, std::vector<chart::Series>* time_series,
                 std::vector<chart::Series>* rate_series, std::string* unit) {
    for (const SweepLine& line : lines)
        if (unit->empty() || line.lesson == &lesson) *unit = line.points.front().second->RateUnit();
    for (const SweepLine& line : lines) {
        chart::Series t, g;
        t.name = g.name = SeriesName(ui, line);
        t.color = g.color = line.lesson == &lesson ? kCurrentColor : kPreviousColor;
        t.dashed = g.dashed = line.recorded;
        for (const auto& [x, r] : line.points) {
            t.x.push_back(double(x.number));
            g.x.push_back(double(x.number));
            t.y.push_back(RateMs(*r));
            g.y.push_back(RateIn(*r, *unit));
            // The median's interval, scaled to the time (and the rate) the point plots.
            const bool spread = r->median_level > 0 && r->median_lo_ms > 0 && r->median_ms > 0;
            const double scale = spread ? RateMs(*r) / r->median_ms : 0;
            t.lo.push_back(spread ? r->median_lo_ms * scale : -1);
            t.hi.push_back(spread ? r->median_hi_ms * scale : -1);
            g.lo.push_back(spread ? g.y.back() * r->median_ms / r->median_hi_ms : -1);
            g.hi.push_back(spread ? g.y.back() * r->median_ms / r->median_lo_ms : -1);
            t.tooltips.push_back(ResultTooltip(ui, reg, *r));
            g.tooltips.push_back(t.tooltips.back());
        }
        // The best point is the highest rate: in a size sweep the shortest time is only the
        // smallest size.
        t.best = g.best = chart::BestRateIndex(g.y);
        // Within noise where another point's interval reaches the best one's (rates: the best's
        // lower end at or below another's upper end); only where both have an interval.
        if (g.best >= 0 && g.lo[size_t(g.best)] > 0)
            for (size_t i = 0; i < g.y.size(); ++i)
                if (int(i) != g.best && g.hi[i] > 0 && g.hi[i] >= g.lo[size_t(g.best)])
                    t.best_within_noise = g.best_within_noise = true;
        time_series->push_back(t);
        rate_series->push_back(g);
    }
}

// Each chart on a log axis where its values span more than 20x.
bool Spans(const std::vector<chart::Series>& series) {
    std::vector<double> ys;
    for (const chart::Series& s : series) ys.insert(ys.end(), s.y.begin(), s.y.end());
    return chart::SpansLogRange(ys);
}

// The time and rate series of sweeps, and the options both their charts share (height, empty
// and best labels; the probe's tick labels and each series' best point).
chart::LineOptions SweepChartOptions(UiState& ui, const Registry& reg, const Lesson& lesson,
                                     const std::vector<SweepLine>& lines,
                                     std::vector<chart::Series>* time_series,
                                     std::vector<chart::Series>* rate_series, std::string* unit) {
    SweepSeries(ui, reg, lesson, lines, time_series, rate_series, unit);
    chart::LineOptions o;
    o.height = ImGui::GetFontSize() * 12;
    o.empty_text = Tr(ui, kNoDataYet);
    o.best_text = Tr(ui, kBest);
    o.best_noise_text = std::string(Tr(ui, kBest)) + " \xC2\xB7 " + Tr(ui, kNoiseCell);
    if (ui.probe) {
        o.x_tick_labels = &ui.probe->sweep_x_labels;
        ui.probe->sweep_best_x.clear();
        ui.probe->sweep_best_within_noise.clear();
        for (const chart::Series& s : *rate_series)
            if (s.best >= 0) {
                ui.probe->sweep_best_x.push_back(s.x[size_t(s.best)]);
                ui.probe->sweep_best_within_noise.push_back(s.best_within_noise);
            }
    }
    return o;
}

// A time chart and a rate chart of sweeps along a number (a block size, FMAs per element, a
// matrix dimension) on a log x axis ticked at the values that were run.
void DrawNumberSweep(UiState& ui, const Registry& reg, const Lesson& lesson,
                     const std::vector<SweepLine>& lines, const char* x_label, const char* id) {
    std::vector<chart::Series> time_series, rate_series;
    std::string unit;
    chart::LineOptions o =
        SweepChartOptions(ui, reg, lesson, lines, &time_series, &rate_series, &unit);
    o.x_label = x_label;
    o.log_x = true;
    for (const chart::Series& s : time_series)  // tick at the values that were run
        o.x_ticks.insert(o.x_ticks.end(), s.x.begin(), s.x.end());
    o.y_label = Tr(ui, kKernelMs);
    o.log_y = Spans(time_series);
    ImGui::PushID(id);
    chart::LineChart("time", time_series, o);
    o.y_label = unit.c_str();
    o.log_y = Spans(rate_series);
    chart::LineChart("rate", rate_series, o);
    ImGui::PopID();
}

// Bars of sweeps along a choice (a tile configuration, a toggle): one per lesson and value, in
// ms or in the rate, the best rate of each lesson marked.
void DrawChoiceSweep(UiState& ui, const Registry& reg, const Lesson& lesson,
                     const std::vector<SweepLine>& lines) {
    std::string unit;
    for (const SweepLine& line : lines)
        if (unit.empty() || line.lesson == &lesson) unit = line.points.front().second->RateUnit();
    // Values too long for their bar (a tile configuration) are numbered, with a key under the
    // chart; short ones (a toggle's) are the bars' labels.
    size_t count = 0;
    float widest = 0;
    for (const SweepLine& line : lines)
        for (const auto& [v, r] : line.points) {
            ++count;
            const std::string value = SayChoice(ui.settings.language, *line.along, v.choice);
            widest = std::max(widest, ImGui::CalcTextSize(value.c_str()).x +
                                          (lines.size() > 1 ? ImGui::GetFontSize() * 2.5f : 0));
        }
    const float slot = (ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 4.7f) /
                       static_cast<float>(std::max<size_t>(count, 1));
    const bool numbered = widest > slot * 2 - 2;
    std::string key;  // "5.5: 1 = 256t-32x32x8-4x1, 2 = ..."
    std::vector<chart::Bar> bars;
    for (const SweepLine& line : lines) {
        if (numbered) key += (key.empty() ? "" : "\n") + line.lesson->label + ":";
        size_t best = 0;
        for (size_t i = 0; i < line.points.size(); ++i)
            if (RateIn(*line.points[i].second, unit) > RateIn(*line.points[best].second, unit))
                best = i;
        for (size_t i = 0; i < line.points.size(); ++i) {
            const auto& [v, r] = line.points[i];
            chart::Bar b;
            const std::string value = SayChoice(ui.settings.language, *line.along, v.choice);
            const std::string shown = numbered ? std::to_string(i + 1) : value;
            if (numbered) key += (i ? ", " : " ") + shown + " = " + value;
            b.label =
                lines.size() > 1 ? line.lesson->label + (numbered ? "." : " ") + shown : shown;
            b.color = line.lesson == &lesson ? kCurrentColor : kPreviousColor;
            b.hatched = line.recorded;
            b.highlight = i == best && line.points.size() > 1;
            if (b.highlight) b.annotation = Tr(ui, kBest);
            SetBarValues(ui, *r, unit, &b);
            b.tooltip = SeriesName(ui, line) + "\n" + ResultTooltip(ui, reg, *r);
            bars.push_back(b);
        }
    }
    std::vector<double> values;
    for (const chart::Bar& b : bars) values.push_back(b.value);
    const std::string axis =
        ui.rate_axis ? Fmt(Tr(ui, kAxisRate), unit.c_str()) : std::string(Tr(ui, kAxisMs));
    chart::BarOptions o;
    o.unit = axis.c_str();
    o.log_scale = chart::SpansLogRange(values);
    o.height = ImGui::GetFontSize() * 12;
    o.wrong_text = Tr(ui, kWrongResult);
    chart::BarChart("choice_sweep", bars, o);
    if (numbered) DrawWrappedText(key, &kGrey);
}

// What a sweep section records for the tests.
Probe::Sweep* SweepProbe(UiState& ui, const char* key, const std::vector<SweepLine>& lines,
                         const std::string& param) {
    if (!ui.probe) return nullptr;
    Probe::Sweep& p = ui.probe->sweeps[key];
    p = Probe::Sweep{};
    p.param = param;
    p.series = static_cast<int>(lines.size());
    for (const SweepLine& line : lines) {
        p.points += static_cast<int>(line.points.size());
        for (const auto& point : line.points) p.spreads += point.second->median_level > 0;
        p.recorded = p.recorded || line.recorded;
    }
    return &p;
}

}  // namespace

void DrawSweeps(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson,
                bool by_block) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    const ParamSpec* spec = by_block ? BlockSizeParam(lesson) : DataSizeParam(lesson);
    // Each lesson along its own parameter of that kind (the block size or the data size).
    const std::vector<SweepLine> lines = GatherSweeps(ui, c, reg, lesson, [&](const Lesson& l) {
        return by_block ? BlockSizeParam(l) : DataSizeParam(l);
    });
    Probe::Sweep* probe =
        SweepProbe(ui, by_block ? "block" : "size", lines, spec ? spec->name : std::string());
    if (lines.empty()) {
        DrawNoSweep(ui, c, reg, lesson, spec, Tr(ui, by_block ? kSweepBlocksHint : kSweepSizesHint),
                    probe);
        return;
    }
    if (by_block) {
        DrawNumberSweep(ui, reg, lesson, lines, Tr(ui, kThreadsPerBlock), "block");
        if (ui.probe)
            ui.probe->block_ticks = chart::AxisTicks(0, 1e300, true, 8, [&] {
                std::vector<double> ticks;
                for (const SweepLine& line : lines)
                    for (const auto& [x, r] : line.points) ticks.push_back(double(x.number));
                return ticks;
            }());
        DrawRecordedSweepNote(ui, lines, probe);
        return;
    }
    std::vector<chart::Series> time_series, rate_series;
    std::string unit;
    chart::LineOptions o =
        SweepChartOptions(ui, reg, lesson, lines, &time_series, &rate_series, &unit);
    const std::string rate_label = unit + Tr(ui, kLogLog);
    o.x_label = spec ? Label(*spec, ui.settings.language) : Tr(ui, kDataSize);
    o.x_bytes = !spec || spec->type == ParamType::kBytes;
    o.log_x = o.log_y = true;
    o.y_label = rate_label.c_str();
    chart::LineChart("size_rate", rate_series, o);
    DrawRecordedSweepNote(ui, lines, probe);
    // The chapter's model fitted to this lesson's sizes (chapter 7: alpha and beta).
    for (const SweepLine& line : lines) {
        if (line.lesson != &lesson || !chapter.size_fit) continue;
        std::vector<std::pair<uint64_t, double>> fit_points;
        for (const auto& [x, r] : line.points) fit_points.push_back({x.number, r->median_ms});
        try {
            const Chapter::Fit fit =
                chapter.size_fit(fit_points, line.points.front().second->params);
            const std::string& text = ui.settings.language == "zh" ? fit.zh : fit.en;
            DrawWrappedText(text, &kGrey);
            if (ui.probe) ui.probe->size_fit = text;
        } catch (const std::exception& e) {
            DrawWrappedText(e.what(), &kGrey);  // a bad CUDA_LESSONS_HOSTS
            if (ui.probe) ui.probe->size_fit = e.what();
        }
    }
}

void DrawParamSweep(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    const std::vector<const ParamSpec*> params = SweepableParams(reg, lesson);
    if (params.empty()) return;
    // The parameter chosen: the student's, where this lesson has it; else the first one that a
    // recording or a sweep here holds; else the lesson's first (its own before its chapter's).
    const ParamSpec* chosen = nullptr;
    for (const ParamSpec* p : params)
        if (p->name == ui.sweep_param) chosen = p;
    for (const ParamSpec* p : params)
        if (!chosen && !SweepOf(c.results(), lesson, p->name, ui.run).points.empty()) chosen = p;
    if (!chosen) chosen = params.front();
    const std::string& language = ui.settings.language;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(Tr(ui, kSweepOver));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(
        std::min(ImGui::GetFontSize() * 16, ImGui::GetContentRegionAvail().x * 0.6f));
    if (ImGui::BeginCombo("##sweep_param", Label(*chosen, language))) {
        for (const ParamSpec* p : params) {
            if (ImGui::Selectable(Label(*p, language), p == chosen)) ui.sweep_param = p->name;
            Remember(ui, ("sweep_param_" + p->name).c_str());
        }
        ImGui::EndCombo();
    }
    Remember(ui, "sweep_param");
    const std::string cannot = CannotSweepWhy(language, c, reg, lesson, chosen->name);
    SameLineIfFits(ButtonWidth(Tr(ui, kSweepButton)));
    ImGui::BeginDisabled(!cannot.empty() || c.Busy());
    if (ImGui::Button(Tr(ui, kSweepButton))) c.SweepOver(lesson, ui.run, chosen->name);
    ImGui::EndDisabled();
    Remember(ui, "sweep_param_run");
    if (!cannot.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        Tooltip(cannot);
    const std::string name = chosen->name;
    const std::vector<SweepLine> lines =
        GatherSweeps(ui, c, reg, lesson, [&](const Lesson& l) -> const ParamSpec* {
            for (const ParamSpec& p : l.params)
                if (p.name == name) return &p;
            return nullptr;
        });
    Probe::Sweep* probe = SweepProbe(ui, "param", lines, name);
    if (lines.empty()) {
        DrawNoSweep(ui, c, reg, lesson, chosen,
                    Fmt(Tr(ui, kSweepParamHint), Label(*chosen, language)).c_str(), probe);
        return;
    }
    if (chosen->type == ParamType::kChoice)
        DrawChoiceSweep(ui, reg, lesson, lines);
    else
        DrawNumberSweep(ui, reg, lesson, lines, Label(*chosen, language), "param");
    DrawRecordedSweepNote(ui, lines, probe, chosen->type == ParamType::kChoice);
}

}  // namespace lessons::app
