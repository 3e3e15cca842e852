// The charts of the lesson page: every step of the chapter side by side (min-max whiskers,
// the speedup over the previous lesson), the host-to-device / kernel / device-to-host
// breakdown of GPU steps, and the block-size and data-size sweeps.
#include <cstdio>
#include <map>

#include "chart.h"
#include "panels.h"
#include "report.h"
#include "units.h"

namespace lessons::app {
namespace {

std::string ResultTooltip(const RunResult& r) {
    char buf[512];
    std::snprintf(
        buf, sizeof buf,
        "lesson %d  %s\n%s, %s%s\nmedian %s ms (min %s, max %s, %d runs)\n%.1f GB/s%s\n%s%s",
        r.lesson, r.id.c_str(), FormatSize(r.size_bytes).c_str(), r.data.c_str(),
        r.block ? (", block " + std::to_string(*r.block)).c_str() : "", Ms(r.median_ms).c_str(),
        Ms(r.min_ms).c_str(), Ms(r.max_ms).c_str(), r.reps, r.gbps,
        r.pct_of_ceiling ? (", " + Fixed(*r.pct_of_ceiling, 1) + "% of the copy ceiling").c_str()
                         : "",
        r.verified ? "verified" : ("WRONG: " + r.check_message).c_str(),
        r.recorded
            ? ("\nrecorded on " + r.device + ", " + r.timestamp.substr(0, 10) + " - not live")
                  .c_str()
            : "");
    return buf;
}

}  // namespace

void DrawStepChart(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    const uint64_t size = EffectiveSize(chapter, ui.run.size_bytes);
    const DataKind data = EffectiveData(chapter, ui.run.data);
    // One size only: a recorded result appears at the size it was recorded at.
    std::vector<chart::Bar> bars;
    std::map<int, const RunResult*> shown;
    const RunResult* any_recorded = nullptr;  // shown here
    const RunResult* other_size = nullptr;    // recorded at another size
    for (const Lesson* l : reg.LessonsOf(chapter)) {
        const StoredResult* s = c.Latest(l->number, size, data);
        if (!s && c.Mode(*l) == LessonMode::kRecorded) {
            s = c.LatestAnySize(l->number);
            if (s && s->origin != Origin::kRecorded) s = nullptr;
            if (s && (s->result.size_bytes != size || s->result.data != ToString(data))) {
                other_size = &s->result;
                s = nullptr;
            }
        }
        chart::Bar b;
        b.label = "#" + std::to_string(l->number);
        b.highlight = l->number == lesson.number;
        b.color = b.highlight                    ? kCurrentColor
                  : l->number == lesson.previous ? kPreviousColor
                                                 : kOtherColor;
        if (s) {
            const RunResult& r = s->result;
            shown[l->number] = &r;
            b.value = r.median_ms;
            b.lo = r.min_ms;
            b.hi = r.max_ms;
            b.invalid = !r.verified;
            b.hatched = r.recorded;
            if (r.recorded) any_recorded = &r;
            b.tooltip = ResultTooltip(r);
        } else if (c.Mode(*l) == LessonMode::kRecorded && other_size) {
            b.tooltip = "lesson " + std::to_string(l->number) + ": recorded at " +
                        FormatSize(other_size->size_bytes) + " (" + other_size->data +
                        " data) only";
        } else {
            b.tooltip = "lesson " + std::to_string(l->number) + ": not measured at this size yet";
        }
        bars.push_back(b);
    }
    auto cur = shown.find(lesson.number), prev = shown.find(lesson.previous);
    if (cur != shown.end() && prev != shown.end() && cur->second->verified &&
        prev->second->verified) {
        const double speedup = prev->second->median_ms / cur->second->median_ms;
        char buf[96];
        std::snprintf(buf, sizeof buf,
                      speedup >= 1 ? "%.2f\xC3\x97 faster than lesson %d"
                                   : "%.2f\xC3\x97 slower than lesson %d",
                      speedup >= 1 ? speedup : 1 / speedup, lesson.previous);
        for (chart::Bar& b : bars)
            if (b.highlight) b.annotation = buf;
    }
    ui.step_bars = bars;
    chart::BarOptions o;
    o.unit = "ms (median, min-max)";
    o.log_scale = ui.log_scale;
    o.height = ImGui::GetFontSize() * 14;
    chart::BarChart("steps", bars, o);
    Remember(ui, "step_chart");
    if (any_recorded)
        ImGui::TextDisabled(
            "Hatched: recorded on %s, %s, %s data, %s - not live.", any_recorded->device.c_str(),
            FormatSize(any_recorded->size_bytes).c_str(), any_recorded->data.c_str(),
            any_recorded->timestamp.substr(0, 10).c_str());
    if (other_size) {
        ImGui::TextDisabled("GPU lessons were recorded on %s at %s of %s data.",
                            other_size->device.c_str(), FormatSize(other_size->size_bytes).c_str(),
                            other_size->data.c_str());
        const std::string label = "Compare at " + FormatSize(other_size->size_bytes);
        if (ImGui::SmallButton(label.c_str())) {
            ui.run.size_bytes = other_size->size_bytes;
            ui.run.data = ParseDataKind(other_size->data);
            Changed(ui);
        }
        Remember(ui, "compare_recorded");
    }
}

void DrawBreakdown(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    std::vector<chart::Bar> bars;
    for (const Lesson* l : reg.LessonsOf(chapter)) {
        const StoredResult* s = c.Latest(l->number, EffectiveSize(chapter, ui.run.size_bytes),
                                         EffectiveData(chapter, ui.run.data));
        if (!s && c.Mode(*l) == LessonMode::kRecorded) s = c.LatestAnySize(l->number);
        if (!s || !s->result.h2d_ms || !s->result.kernel_ms || !s->result.d2h_ms) continue;
        chart::Bar b;
        b.label = "#" + std::to_string(l->number);
        b.parts = {*s->result.h2d_ms, *s->result.kernel_ms, *s->result.d2h_ms};
        b.value = b.parts[0] + b.parts[1] + b.parts[2];
        b.highlight = l->number == lesson.number;
        b.hatched = s->result.recorded;
        b.invalid = !s->result.verified;
        b.tooltip = "H2D " + Ms(b.parts[0]) + " ms\nkernel " + Ms(b.parts[1]) + " ms\nD2H " +
                    Ms(b.parts[2]) + " ms";
        bars.push_back(b);
    }
    if (bars.empty()) {
        ImGui::TextDisabled(
            "No step of this chapter copies data between host and GPU, or none has run yet.");
        return;
    }
    chart::BarOptions o;
    o.unit = "ms";
    o.log_scale = ui.log_scale;
    o.height = ImGui::GetFontSize() * 12;
    o.part_names = {"host to device", "kernel", "device to host"};
    o.part_colors = {IM_COL32(230, 150, 60, 255), IM_COL32(80, 160, 255, 255),
                     IM_COL32(170, 110, 230, 255)};
    chart::BarChart("breakdown", bars, o);
}

void DrawSweeps(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson,
                bool by_block) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    std::vector<chart::Series> time_series, rate_series;
    for (const Lesson* l : {lesson.previous ? reg.FindLesson(lesson.previous) : nullptr, &lesson}) {
        if (!l) continue;
        std::map<double, const RunResult*> points;  // newest result per x
        for (const StoredResult& s : c.results()) {
            const RunResult& r = s.result;
            if (r.lesson != l->number ||
                s.origin != (by_block ? Origin::kBlockSweep : Origin::kSizeSweep) || !r.verified)
                continue;
            if (r.data != ToString(EffectiveData(chapter, ui.run.data))) continue;
            if (by_block && r.size_bytes != EffectiveSize(chapter, ui.run.size_bytes)) continue;
            points[by_block ? double(r.block.value_or(0)) : double(r.size_bytes)] = &r;
        }
        if (points.empty()) continue;
        chart::Series t, g;
        t.name = g.name = "lesson " + std::to_string(l->number);
        t.color = g.color = l == &lesson ? kCurrentColor : kPreviousColor;
        double best = 1e300;
        for (const auto& [x, r] : points) {
            const double ms = r->kernel_ms.value_or(r->median_ms);
            if (ms < best) {
                best = ms;
                t.best = g.best = static_cast<int>(t.x.size());
            }
            t.x.push_back(x);
            g.x.push_back(x);
            t.y.push_back(ms);
            g.y.push_back(r->gbps);
            t.tooltips.push_back(ResultTooltip(*r));
            g.tooltips.push_back(ResultTooltip(*r));
        }
        time_series.push_back(t);
        rate_series.push_back(g);
    }
    if (time_series.empty()) {
        ImGui::TextDisabled(
            by_block
                ? "Press \"Sweep block sizes\" (S) to measure this lesson and the previous one at "
                  "every block size."
                : "Press \"Sweep data sizes\" to measure GB/s from 1 KiB up to the current size.");
        return;
    }
    chart::LineOptions o;
    o.height = ImGui::GetFontSize() * 12;
    if (by_block) {
        o.x_label = "threads per block";
        o.log_x = true;
        o.y_label = "kernel ms (or whole run)";
        chart::LineChart("block_time", time_series, o);
        o.y_label = "GB/s";
        chart::LineChart("block_rate", rate_series, o);
    } else {
        o.x_label = "data size";
        o.x_bytes = o.log_x = o.log_y = true;
        o.y_label = "GB/s (log-log)";
        chart::LineChart("size_rate", rate_series, o);
    }
}

}  // namespace lessons::app
