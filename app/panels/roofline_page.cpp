// The roofline on log-log axes (drawn with ImDrawList, like chart.cpp): this GPU's roofs from
// its measured ceilings (or the recorded ones, labelled so) and every result as a point at its
// arithmetic intensity, hover for the lesson, its rate and its share of the roof. The pages of
// a chapter that asks for it (Chapter::whole_roofline) draw it whole, with buttons to measure
// the ceilings again and to run any chapter's benchmark; every other GPU lesson gets a small
// inset with its own point and the previous step's.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "charts/chart.h"
#include "charts/roofline.h"
#include "model/compare.h"
#include "model/sweeps.h"
#include "panels/panels.h"
#include "probe.h"
#include "text/lesson_text.h"
#include "words/words_machine.h"
#include "words/words_student.h"

namespace lessons::app {
namespace {

const ImU32 kRoofColor = IM_COL32(235, 235, 240, 255);
const ImU32 kCopyRoofColor = IM_COL32(170, 170, 185, 255);
const ImU32 kTf32Color = IM_COL32(240, 190, 90, 255);
const ImU32 kBf16Color = IM_COL32(240, 120, 120, 255);
const ImU32 kGridColor = IM_COL32(80, 80, 90, 120);

const ImU32 kLabelBackground = IM_COL32(18, 18, 22, 215);

// A point's colour: its chapter's (ChapterColor, by the chapter's number).
ImU32 PointColor(const Registry& reg, const std::string& chapter_id) {
    const Chapter* chapter = reg.FindChapter(chapter_id);
    return chapter ? ChapterColor(chapter->number) : IM_COL32(190, 190, 190, 255);
}

// A rate with the digits that matter, without exponents: "46360", "1443", "3.25", "0.0125".
std::string RateText(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f" : "%.3g", v);
    return buf;
}

double Decade(double v, bool up) {
    return std::pow(10.0, up ? std::ceil(std::log10(v)) : std::floor(std::log10(v)));
}

struct Axes {
    double x_lo, x_hi, y_lo, y_hi;
    ImVec2 a, b;  // plot rectangle
    ImVec2 At(double x, double y) const {
        const double fx =
            (std::log10(x) - std::log10(x_lo)) / (std::log10(x_hi) - std::log10(x_lo));
        const double fy =
            (std::log10(y) - std::log10(y_lo)) / (std::log10(y_hi) - std::log10(y_lo));
        return ImVec2(a.x + static_cast<float>(fx) * (b.x - a.x),
                      b.y - static_cast<float>(fy) * (b.y - a.y));
    }
};

// A roof: the slope of `bandwidth` up to the ridge, then flat at `peak` (either may be 0).
void DrawRoof(ImDrawList* dl, const Axes& ax, double bandwidth, double peak, ImU32 color,
              float thickness) {
    std::vector<ImVec2> pts;
    const double ridge = Ridge(peak, bandwidth);
    pts.push_back(ax.At(ax.x_lo, std::max(Attainable(peak, bandwidth, ax.x_lo), ax.y_lo)));
    if (ridge > ax.x_lo && ridge < ax.x_hi) pts.push_back(ax.At(ridge, peak));
    pts.push_back(ax.At(ax.x_hi, std::min(Attainable(peak, bandwidth, ax.x_hi), ax.y_hi)));
    dl->PushClipRect(ax.a, ax.b, true);
    dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), color, 0, thickness);
    dl->PopClipRect();
}

// A roof label left out of the plot, for the key under the chart: in its roof's colour (the
// ridge's dotted).
struct RoofKeyEntry {
    ImU32 color = 0;
    std::string text;
    bool dotted = false;
};

struct ChartSpec {
    float height = 300;
    // Lays the chart out without drawing it (no item, nothing recorded): which labels it would
    // leave out at this height.
    bool dry = false;
    bool inset = false;
    int current = 0, previous = 0;  // the inset's two lessons
    // A sweep traced through its points (intensity, GFLOP/s): dashed where recorded.
    std::vector<ImVec2> trace;
    bool trace_recorded = false;
    ImU32 trace_color = IM_COL32(255, 255, 255, 200);  // its chapter's
    // Presenter mode: smaller points, the roofs a class needs first labelled first.
    bool compact = false;
    // A roof label that cannot be placed clear of the points and the other labels is left out
    // of the plot (into `dropped`: the key under the chart lists it) instead of covering them.
    std::vector<RoofKeyEntry>* dropped = nullptr;
    ImVec4* plot = nullptr;  // where the plot area was drawn (screen rectangle), when set
};

// Draws the chart; returns how many points it drew.
int DrawChart(UiState& ui, const Registry& reg, const Roof& roof,
              const std::vector<RooflinePoint>& all, const ChartSpec& spec) {
    std::vector<const RooflinePoint*> points;
    for (const RooflinePoint& p : all)
        if (!spec.inset || p.lesson == spec.current || p.lesson == spec.previous)
            points.push_back(&p);
    const double bw = roof.Bandwidth();
    const double ridge = Ridge(roof.fp32_gflops, bw);
    double x_lo = 1.0 / 16, x_hi = 256, y_hi = 1, y_lo = 1e30;
    for (const RooflinePoint* p : points) {
        x_lo = std::min(x_lo, p->intensity / 2);
        x_hi = std::max(x_hi, p->intensity * 2);
        y_hi = std::max(y_hi, p->gflops * 2);
        y_lo = std::min(y_lo, p->gflops / 2);
    }
    if (ridge > 0) x_hi = std::max(x_hi, ridge * 8);
    y_hi = std::max({y_hi, roof.fp32_gflops * 2, roof.tf32_gflops * 2, roof.bf16_gflops * 2,
                     Attainable(roof.fp32_gflops, bw, x_hi) * 2});
    if (bw > 0) y_lo = std::min(y_lo, bw * x_lo);
    if (y_lo > 1e29) y_lo = y_hi / 1e4;
    y_lo = std::min(y_lo, y_hi / 100);
    Axes ax{Decade(x_lo, false),
            Decade(x_hi, true),
            Decade(std::max(y_lo, 1e-3), false),
            Decade(y_hi, true),
            {},
            {}};

    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const float left = font * (spec.inset ? 3.2f : 4.2f), bottom = font * 2.4f;
    ax.a = ImVec2(origin.x + left, origin.y + font * 0.6f);
    ax.b = ImVec2(origin.x + width - font * 1.4f, origin.y + spec.height - bottom);
    if (spec.plot) *spec.plot = ImVec4(ax.a.x, ax.a.y, ax.b.x, ax.b.y);
    // A dry run draws into a list of its own, thrown away.
    ImDrawList scratch(ImGui::GetDrawListSharedData());
    bool hovered = false;
    ImDrawList* dl = &scratch;
    Probe* probe = spec.dry ? nullptr : ui.probe;
    if (spec.dry) {
        scratch._ResetForNewFrame();
        scratch.PushTextureID(ImGui::GetIO().Fonts->TexID);
        scratch.PushClipRectFullScreen();
    } else {
        ImGui::InvisibleButton(spec.inset ? "roofline_inset" : "roofline_chart",
                               ImVec2(std::max(width, 10.0f), spec.height));
        Remember(ui, spec.inset ? "roofline_inset" : "roofline_chart");
        hovered = ImGui::IsItemHovered();
        dl = ImGui::GetWindowDrawList();
    }
    dl->AddRect(ax.a, ax.b, kGridColor);

    // Decade grid and tick labels.
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    // A tick label that would touch the one before it is left out (every other decade where
    // the chart is short, as in presenter mode).
    float label_end = -1e30f;
    for (double x = ax.x_lo; x <= ax.x_hi * 1.001; x *= 10) {
        const ImVec2 p = ax.At(x, ax.y_lo);
        dl->AddLine(ImVec2(p.x, ax.a.y), ImVec2(p.x, ax.b.y), kGridColor);
        const std::string label = chart::FormatTick(x);
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        if (p.x - w / 2 < label_end + font * 0.5f) continue;
        dl->AddText(ImVec2(p.x - w / 2, ax.b.y + 2), text, label.c_str());
        label_end = p.x + w / 2;
    }
    float label_top = 1e30f;
    for (double y = ax.y_lo; y <= ax.y_hi * 1.001; y *= 10) {
        const ImVec2 p = ax.At(ax.x_lo, y);
        dl->AddLine(ImVec2(ax.a.x, p.y), ImVec2(ax.b.x, p.y), kGridColor);
        // Not the bottom one where it would meet the x axis's first label.
        if (p.y + font / 2 > label_top - font * 0.15f || p.y + font / 2 > ax.b.y + 1) continue;
        const std::string label = chart::FormatTick(y);
        dl->AddText(ImVec2(ax.a.x - ImGui::CalcTextSize(label.c_str()).x - 4, p.y - font / 2), text,
                    label.c_str());
        label_top = p.y - font / 2;
    }
    const char* x_label = Tr(ui, kIntensityAxis);
    dl->AddText(
        ImVec2((ax.a.x + ax.b.x - ImGui::CalcTextSize(x_label).x) / 2, ax.b.y + font * 1.1f), text,
        x_label);
    dl->AddText(ImVec2(origin.x, ax.b.y + font * 1.1f), text, Tr(ui, kGflopsAxis));

    // The roofs: read (bright) and copy (grey) slopes under the fp32 peak, TF32 and bf16 above.
    if (roof.copy_gbps > 0 && roof.read_gbps > 0)
        DrawRoof(dl, ax, roof.copy_gbps, roof.fp32_gflops, kCopyRoofColor, 1.5f);
    if (bw > 0 || roof.fp32_gflops > 0) DrawRoof(dl, ax, bw, roof.fp32_gflops, kRoofColor, 2.5f);
    if (roof.tf32_gflops > 0) DrawRoof(dl, ax, bw, roof.tf32_gflops, kTf32Color, 1.5f);
    if (roof.bf16_gflops > 0) DrawRoof(dl, ax, bw, roof.bf16_gflops, kBf16Color, 1.5f);
    // The points: filled when measured now, hollow when recorded; the nearest under the mouse
    // gets the tooltip. Their places first: the roof labels are put where no point is.
    const float r = font * (spec.inset ? 0.32f : spec.compact ? 0.2f : 0.38f);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const RooflinePoint* near = nullptr;
    float near_d2 = font * font;
    std::vector<std::pair<const RooflinePoint*, ImVec2>> placed;
    std::vector<ImVec4> taken;  // what a label must not cover: the points, the labels placed
    for (const RooflinePoint* p : points) {
        if (p->intensity <= 0 || p->gflops <= 0) continue;
        const ImVec2 c = ax.At(p->intensity, p->gflops);
        placed.emplace_back(p, c);
        taken.push_back(ImVec4(c.x - r - 2, c.y - r - 2, c.x + r + 2, c.y + r + 2));
    }
    if (!spec.inset) {
        if (probe) {
            probe->rects["roofline_plot"] = ImVec4(ax.a.x, ax.a.y, ax.b.x, ax.b.y);
            probe->roof_label_rects.clear();
        }
        const ImVec4 bounds(ax.a.x + 2, ax.a.y + 2, ax.b.x - 2, ax.b.y - 2);
        int overlapping = 0;
        // A label at the first place, of those along its roof, that covers no point and no
        // other label, on a dark band so that it reads over the grid.
        auto put = [&](const std::vector<ImVec2>& candidates, ImU32 color, const std::string& s,
                       const std::string& whole, bool dotted = false) {
            const ImVec2 size = ImGui::CalcTextSize(s.c_str());
            bool clear = false;
            // Placed with its band (2 px each side, 1 above and below), so that no two bands
            // touch, whatever the font's metrics.
            std::vector<ImVec2> banded;
            for (const ImVec2& c : candidates) banded.push_back(ImVec2(c.x - 2, c.y - 1));
            const ImVec2 band =
                candidates.empty()
                    ? ImVec2()
                    : PlaceLabel(banded, ImVec2(size.x + 4, size.y + 2), taken, bounds, &clear);
            const ImVec2 at(band.x + 2, band.y + 1);
            if (!clear && spec.dropped) {  // said in the key under the chart instead
                spec.dropped->push_back({color, whole, dotted});
                return;
            }
            if (candidates.empty()) return;
            overlapping += !clear;
            taken.push_back(ImVec4(at.x - 2, at.y - 1, at.x + size.x + 2, at.y + size.y + 1));
            if (probe) probe->roof_label_rects.push_back(taken.back());
            dl->AddRectFilled(ImVec2(at.x - 2, at.y - 1),
                              ImVec2(at.x + size.x + 2, at.y + size.y + 1), kLabelBackground, 3);
            dl->AddText(at, color, s.c_str());
        };
        // A label wider than 40% of the plot (a large scale, a narrow page) loses its note in
        // brackets, then its unit.
        auto fit = [&](std::string s) {
            const float room = (ax.b.x - ax.a.x) * 0.4f;
            for (const char* cut : {" (", "\xEF\xBC\x88", " GFLOP/s", " GB/s"}) {
                if (ImGui::CalcTextSize(s.c_str()).x <= room) break;
                const size_t at = s.find(cut);
                if (at != std::string::npos) s.erase(at);
            }
            return s;
        };
        // Along a flat roof at `y`: above it, then under it, from the right edge leftwards (past
        // the ridge, where the space above the slope is empty).
        auto flat = [&](double peak, ImU32 color, const std::string& whole) {
            const std::string s = fit(whole);
            const float w = ImGui::CalcTextSize(s.c_str()).x;
            const float y = ax.At(ax.x_lo, peak).y;
            // Left of the ridge too: nothing is drawn above the slope there.
            const float stop = ax.a.x + font;
            std::vector<ImVec2> candidates;
            for (const float dy : {-font * 1.3f, font * 0.3f, -font * 2.6f}) {
                float x = ax.b.x - w - 6;
                do {
                    candidates.push_back(ImVec2(x, y + dy));
                    x -= font * 2;
                } while (x >= stop - w * 0.5f);
            }
            put(candidates, color, s, whole);
        };
        // Along a slope of `bandwidth`, from the left edge rightwards: above it and ending where
        // it is anchored (nothing lies above a rising roof), then under it.
        auto slope = [&](double bandwidth, ImU32 color, const std::string& whole) {
            const std::string s = fit(whole);
            const float w = ImGui::CalcTextSize(s.c_str()).x;
            std::vector<ImVec2> candidates;
            // Higher above the slope last: no measured point lies above a roof, so with every
            // chapter's points near the slope a label still finds a clear place there.
            for (const float dy : {-font * 1.3f, -font * 2.6f, font * 0.3f, -font * 3.9f,
                                   -font * 5.2f, -font * 6.5f})
                for (double x = ax.x_lo * 1.5; x < ax.x_hi; x *= 1.6) {
                    const double y = Attainable(roof.fp32_gflops, bandwidth, x);
                    if (y <= ax.y_lo) continue;
                    const ImVec2 p = ax.At(x, y);
                    candidates.push_back(dy < 0 ? ImVec2(p.x - w, p.y + dy)
                                                : ImVec2(p.x + 4, p.y + dy));
                }
            put(candidates, color, s, whole);
        };
        // In presenter mode the roofs a class needs first (fp32, the bandwidth) are placed first.
        auto bf16 = [&] {
            if (roof.bf16_gflops > 0)
                flat(roof.bf16_gflops, kBf16Color, Fmt(Tr(ui, kRoofBf16), roof.bf16_gflops));
        };
        auto tf32 = [&] {
            if (roof.tf32_gflops > 0)
                flat(roof.tf32_gflops, kTf32Color,
                     Fmt(Tr(ui, roof.tf32_from_rates ? kRoofTf32Rates : kRoofTf32),
                         roof.tf32_gflops));
        };
        auto fp32 = [&] {
            if (roof.fp32_gflops > 0)
                flat(roof.fp32_gflops, kRoofColor, Fmt(Tr(ui, kRoofFp32), roof.fp32_gflops));
        };
        auto bandwidth = [&] {
            if (bw > 0)
                slope(bw, kRoofColor, Fmt(Tr(ui, roof.read_gbps > 0 ? kRoofRead : kRoofCopy), bw));
        };
        auto copy = [&] {
            if (roof.copy_gbps > 0 && roof.read_gbps > 0)
                slope(roof.copy_gbps, kCopyRoofColor, Fmt(Tr(ui, kRoofCopy), roof.copy_gbps));
        };
        if (spec.compact) {
            fp32();
            bandwidth();
            tf32();
            bf16();
            copy();
        } else {
            bf16();
            tf32();
            fp32();
            bandwidth();
            copy();
        }
        if (ridge > ax.x_lo && ridge < ax.x_hi) {
            const ImVec2 p = ax.At(ridge, roof.fp32_gflops);
            for (float y = p.y; y < ax.b.y; y += 6)
                dl->AddLine(ImVec2(p.x, y), ImVec2(p.x, y + 3), text);
            const std::string s = Fmt(Tr(ui, kRidge), ridge);
            std::vector<ImVec2> candidates;
            for (float y = ax.b.y - font * 1.3f; y > p.y; y -= font * 1.2f)
                candidates.push_back(ImVec2(p.x + 4, y));
            put(candidates, text, s, s, true);
        }
        if (probe) probe->roof_label_overlaps = overlapping;
    }

    int drawn = 0;
    dl->PushClipRect(ax.a, ax.b, true);
    // The sweep's trace under the points: it follows the roof it measures.
    for (size_t i = 1; i < spec.trace.size(); ++i) {
        const ImVec2 a = ax.At(spec.trace[i - 1].x, spec.trace[i - 1].y);
        const ImVec2 b = ax.At(spec.trace[i].x, spec.trace[i].y);
        if (spec.trace_recorded)
            chart::DashedLine(dl, a, b, spec.trace_color, 2.0f, font * 0.45f);
        else
            dl->AddLine(a, b, spec.trace_color, 2.5f);
    }
    for (const auto& [p, c] : placed) {
        const ImU32 color = spec.inset
                                ? (p->lesson == spec.current ? kCurrentColor : kPreviousColor)
                                : PointColor(reg, p->chapter);
        if (p->recorded)
            dl->AddCircle(c, r, color, 0, spec.compact ? 1.5f : 2.0f);
        else
            dl->AddCircleFilled(c, r, color);
        ++drawn;
        const float dx = c.x - mouse.x, dy = c.y - mouse.y;
        if (hovered && dx * dx + dy * dy < near_d2) {
            near_d2 = dx * dx + dy * dy;
            near = p;
        }
    }

    dl->PopClipRect();
    if (near && !spec.dry) {
        const std::string origin_text = near->recorded
                                            ? Fmt(Tr(ui, kRecordedPoint), near->device.c_str(),
                                                  near->timestamp.substr(0, 10).c_str())
                                            : std::string(Tr(ui, kLivePoint));
        const Lesson* of = reg.FindLesson(near->lesson);
        Tooltip(Fmt(Tr(ui, kPointTip), of ? of->label.c_str() : near->id.c_str(),
                    (of ? LessonTitle(ui, *of) : near->title).c_str(), origin_text.c_str(),
                    near->intensity, RateText(near->gflops).c_str(), RateText(near->gbps).c_str(),
                    near->pct_of_roof, RateText(near->roof_gflops).c_str()));
    }
    return drawn;
}

// The first lesson of the first chapter whose pages draw the whole roofline; null when none does.
const Lesson* WholeRooflineLesson(const Registry& reg) {
    for (const Chapter& chapter : reg.chapters()) {
        if (!chapter.whole_roofline) continue;
        const std::vector<const Lesson*> of = reg.LessonsOf(chapter);
        if (!of.empty()) return of.front();
    }
    return nullptr;
}

void DrawRoofNote(UiState& ui, const Roof& roof) {
    if (ui.presenter && roof.recorded) {  // wrapped, never cut: a class cannot hover
        DrawWrappedText(Fmt(Tr(ui, kRecordedCeilings), roof.device.c_str()), &kAmber);
        return;
    }
    ImGui::PushTextWrapPos(0);
    if (!roof.Any())
        ImGui::TextColored(kAmber, "%s", Tr(ui, kNoCeilings));
    else if (roof.recorded)
        ImGui::TextColored(kAmber, Tr(ui, kRecordedCeilings), roof.device.c_str());
    else
        ImGui::TextDisabled(Tr(ui, kMeasuredCeilings), roof.device.c_str());
    ImGui::PopTextWrapPos();
}

// The whole roofline's buttons: measure the ceilings again, and any chapter's benchmark.
void DrawRoofButtons(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    // Only where this page's step runs: without a GPU there is nothing to measure, and the
    // button says why instead of doing nothing.
    const std::string cannot = CannotRunWhy(ui.settings.language, c, reg, lesson);
    ImGui::BeginDisabled(!cannot.empty());
    if (ImGui::Button(Tr(ui, kMeasureCeilings))) c.RestartWorker(true);  // TF32 too
    ImGui::EndDisabled();
    Remember(ui, "measure_ceilings");
    if (!cannot.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        Tooltip(cannot);
    }
    // The sweep of the lesson's intensity (FMAs per element): live where it runs, else the
    // recorded one is traced.
    if (const ParamSpec* intensity = IntensityParam(lesson)) {
        const std::string label = Fmt(Tr(ui, kSweepRoof), Label(*intensity, ui.settings.language));
        const SweepLine recorded = SweepOf(c.results(), lesson, intensity->name, ui.run);
        const bool can_show = cannot.empty() || !recorded.points.empty();
        SameLineIfFits(ButtonWidth(label.c_str()));
        ImGui::BeginDisabled(!can_show || c.Busy());
        if (ImGui::Button(label.c_str())) {
            ui.roof_trace = true;
            if (cannot.empty()) c.SweepOver(lesson, ui.run, intensity->name);
        }
        ImGui::EndDisabled();
        Remember(ui, "roof_sweep");
        if (!cannot.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            Tooltip(can_show ? Fmt(Tr(ui, kRoofTraceWhy), cannot.c_str(), recorded.device.c_str(),
                                   recorded.date.c_str())
                             : cannot);
    }
    // Any chapter's benchmark: every lesson of it that runs here, at this page's settings.
    std::vector<const Chapter*> chapters;
    for (const Chapter& ch : reg.chapters())
        if (ch.id != lesson.chapter) chapters.push_back(&ch);
    if (!chapters.empty()) {
        ui.bench_chapter = std::clamp(ui.bench_chapter, 0, static_cast<int>(chapters.size()) - 1);
        const Chapter& chosen = *chapters[static_cast<size_t>(ui.bench_chapter)];
        // Chapter titles in the page's language, as the lesson list shows them.
        auto title = [&](const Chapter& ch) {
            return std::to_string(ch.number) + ". " + ChapterTitle(ui, ch);
        };
        const std::string label = title(chosen);
        if (ui.probe) ui.probe->bench_chapter = label;
        SameLineIfFits(ImGui::GetFontSize() * 16);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
        if (ImGui::BeginCombo("##bench_chapter", label.c_str())) {
            for (size_t i = 0; i < chapters.size(); ++i)
                if (ImGui::Selectable(title(*chapters[i]).c_str(),
                                      static_cast<int>(i) == ui.bench_chapter))
                    ui.bench_chapter = static_cast<int>(i);
            ImGui::EndCombo();
        }
        if (ImGui::IsItemHovered()) Tooltip(label);
        Remember(ui, "bench_chapter");
        SameLineIfFits(ButtonWidth(Tr(ui, kRunBenchmark)));
        const std::vector<const Lesson*> of = reg.LessonsOf(chosen);
        ImGui::BeginDisabled(of.empty());
        if (ImGui::Button(Tr(ui, kRunBenchmark)) && !of.empty()) c.RunChapter(*of.front(), ui.run);
        ImGui::EndDisabled();
        Remember(ui, "run_benchmark");
    }
}

// Under the inset: each roof drawn, a short line in its colour and its name and figure (the
// inset has no room for labels on its lines).
void DrawInsetKey(UiState& ui, const Roof& roof) {
    const double bw = roof.Bandwidth();
    std::vector<std::pair<ImU32, std::string>> entries;
    if (bw > 0 || roof.fp32_gflops > 0) {
        std::string main;
        if (bw > 0) main = Fmt(Tr(ui, roof.read_gbps > 0 ? kRoofRead : kRoofCopy), bw);
        if (roof.fp32_gflops > 0)
            main += (main.empty() ? "" : ", ") + Fmt(Tr(ui, kRoofFp32), roof.fp32_gflops);
        entries.emplace_back(kRoofColor, main);
    }
    if (roof.copy_gbps > 0 && roof.read_gbps > 0)
        entries.emplace_back(kCopyRoofColor, Fmt(Tr(ui, kRoofCopy), roof.copy_gbps));
    if (roof.tf32_gflops > 0)
        entries.emplace_back(
            kTf32Color,
            Fmt(Tr(ui, roof.tf32_from_rates ? kRoofTf32Rates : kRoofTf32), roof.tf32_gflops));
    if (roof.bf16_gflops > 0)
        entries.emplace_back(kBf16Color, Fmt(Tr(ui, kRoofBf16), roof.bf16_gflops));
    const float font = ImGui::GetFontSize(), swatch = font * 1.2f;
    bool first = true;
    for (const auto& [color, label] : entries) {
        const float w =
            swatch + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label.c_str()).x;
        if (!first) SameLineIfFits(w + font);
        if (!first && ImGui::GetCursorPosX() > ImGui::GetStyle().WindowPadding.x + 1)
            ImGui::SetCursorPosX(ImGui::GetCursorPosX() + font * 0.5f);
        first = false;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddLine(ImVec2(p.x, p.y + font * 0.55f),
                                            ImVec2(p.x + swatch, p.y + font * 0.55f), color, 2.5f);
        ImGui::Dummy(ImVec2(swatch, font));
        ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
        ImGui::TextDisabled("%s", label.c_str());
    }
    if (ui.probe) ui.probe->roof_key = static_cast<int>(entries.size());
    if (!entries.empty()) Remember(ui, "roofline_inset_key");
}

}  // namespace

void DrawRoofline(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    if (lesson.kind != StepKind::kGpu) return;
    const Roof roof = CurrentRoof(c.devices(), c.results());
    // Worked out again only when a result comes or the roof changes: the walk over every
    // result's parameters was most of a frame's time (the page draws the inset in every frame).
    const std::vector<StoredResult>& results = c.results();
    char figures[256];
    std::snprintf(figures, sizeof figures, "%zu|%d|%d|%a|%a|%a|%a|%a|%a|%a", results.size(),
                  results.empty() ? -1 : results.back().sequence, roof.recorded ? 1 : 0,
                  roof.read_gbps, roof.copy_gbps, roof.fp32_gflops, roof.h2d_gbps, roof.d2h_gbps,
                  roof.tf32_gflops, roof.bf16_gflops);
    // The reference GPU too: choosing another one changes the recordings held.
    const std::string points_key =
        std::string(figures) + "|" + roof.device + "|" + c.ReferenceGpu();
    if (points_key != ui.roof_points_key) {
        ui.roof_points_none = 0;
        ui.roof_points_none_chapters.clear();
        ui.roof_points =
            RooflinePoints(results, roof, &ui.roof_points_none, &ui.roof_points_none_chapters);
        ui.roof_points_key = points_key;
    }
    const int none = ui.roof_points_none;
    const std::string none_chapters = ui.roof_points_none_chapters;
    std::vector<RooflinePoint> points = ui.roof_points;
    const bool page = reg.ChapterOf(lesson).whole_roofline;
    if (!page) {
        // Before its run with Hide answers on, the step's own points are not drawn.
        const bool hidden = MeasuredHidden(ui, c, lesson);
        if (hidden)
            points.erase(
                std::remove_if(points.begin(), points.end(),
                               [&](const RooflinePoint& p) { return p.lesson == lesson.number; }),
                points.end());
        // The inset: this step and the previous one under the roof.
        const bool open =
            ImGui::CollapsingHeader(Tr(ui, kRoofline), ImGuiTreeNodeFlags_DefaultOpen);
        Remember(ui, "roofline_section");
        if (!open) return;
        ChartSpec spec;
        spec.inset = true;
        spec.height = ImGui::GetFontSize() * 10;
        spec.current = lesson.number;
        spec.previous = lesson.previous;
        const bool has = std::any_of(points.begin(), points.end(), [&](const RooflinePoint& p) {
            return p.lesson == lesson.number;
        });
        // A step whose results count no flops (splitting lines) has no place on the chart.
        const bool flopless =
            !has && std::any_of(c.results().begin(), c.results().end(), [&](const StoredResult& s) {
                return s.result.lesson == lesson.number && s.result.work.flops == 0;
            });
        if (flopless && !hidden) {
            ImGui::PushTextWrapPos(0);
            ImGui::TextDisabled("%s", Tr(ui, kInsetNoFlops));
            ImGui::PopTextWrapPos();
            if (ui.probe) ui.probe->roof_points = 0;
            return;
        }
        const int drawn = DrawChart(ui, reg, roof, points, spec);
        if (ui.probe) ui.probe->roof_points = drawn;
        DrawInsetKey(ui, roof);
        // "the previous one (green)" only where the previous step has a point.
        const bool previous_drawn =
            lesson.previous &&
            std::any_of(points.begin(), points.end(), [&](const RooflinePoint& p) {
                return p.lesson == lesson.previous && p.intensity > 0 && p.gflops > 0;
            });
        std::string note = Tr(ui, hidden            ? kMeasuredHiddenNote
                                  : !has            ? kInsetNone
                                  : previous_drawn  ? kInsetNote
                                  : lesson.previous ? kInsetNoteAlone
                                                    : kInsetNoteFirst);
        if (has)
            if (const Lesson* whole = WholeRooflineLesson(reg))
                note += Fmt(Tr(ui, kInsetFullChart), whole->label.c_str());
        // Wrapped at spaces only: ImGui's own wrapping would break a label ("6.1") at its dot.
        DrawWrappedText(note, &kGrey);
        if (ui.probe) ui.probe->roof_note = note;
        return;
    }

    // A page of the chapter that draws the whole roofline (in presenter mode without its
    // header: the note under it names the GPU).
    if (!ui.presenter &&
        !ImGui::CollapsingHeader(
            Fmt(Tr(ui, kRooflineOf), roof.device.empty() ? "GPU" : roof.device.c_str())
                .append("###roofline")
                .c_str(),
            ImGuiTreeNodeFlags_DefaultOpen))
        return;
    // In presenter mode the page's subtitle says "recorded on <GPU>, not live" already where the
    // ceilings are that GPU's recorded ones: the note's two rows go to the chart (at 1280 x 720
    // and scale 2 they are what lets the roof labels stand in the plot).
    const bool said = ui.presenter && roof.recorded && c.Mode(lesson) == LessonMode::kRecorded &&
                      WithoutVendor(roof.device) == WithoutVendor(c.ReferenceGpu());
    if (!said) DrawRoofNote(ui, roof);
    // Presenter mode: the chart and its legend only.
    if (!ui.presenter) DrawRoofButtons(ui, c, reg, lesson);
    // The chapters whose points are drawn, in the catalogue's order, each with its colour and
    // its title in the page's language; their rows are known before the chart is drawn, so
    // that the chart takes all the height they leave (at least 18 font heights).
    const float f = ImGui::GetFontSize();
    std::vector<const Chapter*> seen;
    for (const Chapter& ch : reg.chapters())
        if (std::any_of(points.begin(), points.end(),
                        [&](const RooflinePoint& p) { return p.chapter == ch.id; }))
            seen.push_back(&ch);
    // The key under the chart: first the roof labels that found no place in the plot (each
    // with a stroke of its roof's colour; the ridge's dotted), then each chapter (a dot of its
    // points' colour). A chapter's entry takes a column of 15 font heights; in presenter mode
    // the short form of its title ("5. GEMM tiling"), as wide as it needs, flowing after the
    // roofs' entries on their rows. Never drawn over the plot: nothing there is covered.
    struct Entry {
        std::string title, shown, whole;
        ImU32 color = 0;
        int kind = 0;  // 0 a chapter (dot), 1 a roof (stroke), 2 the ridge (dotted stroke)
        float w = 0, x = 0;
        int row = 0;
    };
    const float avail_w = std::max(ImGui::GetContentRegionAvail().x, f * 8);
    const float swatch = f * 1.2f, inner = ImGui::GetStyle().ItemInnerSpacing.x;
    std::vector<Entry> chapters;
    for (const Chapter* ch : seen) {
        Entry e;
        e.whole = std::to_string(ch->number) + ". " + ChapterTitle(ui, *ch);
        const std::string title = ChapterTitle(ui, *ch);
        e.title = ui.presenter
                      ? std::to_string(ch->number) + ". " +
                            title.substr(0, std::min(title.find(": "), title.find("\xEF\xBC\x9A")))
                      : e.whole;
        // In presenter mode the short title whole (a class cannot hover), else cut to its column.
        const float text_w = ui.presenter ? avail_w - f * 1.6f : f * 15 - f * 1.6f;
        e.shown = Elide(e.title, text_w);
        e.color = ChapterColor(ch->number);
        e.w = ui.presenter ? f * 1.6f + ImGui::CalcTextSize(e.shown.c_str()).x : f * 15;
        chapters.push_back(e);
    }
    // The entries in order with their places (x, row); returns the rows they take.
    // `terse` 1: the roofs' entries without their notes in brackets; 2: without their units too
    // (presenter mode, where the whole entries would take the chart's height: the axis names
    // GFLOP/s, the whole entry shows on hover).
    int terse = 0;
    auto shorten = [&](std::string s) {
        const char* cuts[] = {" (", "\xEF\xBC\x88", " GFLOP/s", " GB/s", " flop/B"};
        for (int i = 0; i < (terse >= 2 ? 5 : terse >= 1 ? 2 : 0); ++i) {
            const size_t at = s.find(cuts[i]);
            if (at != std::string::npos) s.erase(at, i < 2 ? std::string::npos : strlen(cuts[i]));
        }
        return s;
    };
    auto lay_out = [&](const std::vector<RoofKeyEntry>& key, std::vector<Entry>* out) {
        out->clear();
        for (const RoofKeyEntry& k : key) {
            Entry e;
            e.title = e.whole = k.text;
            e.shown = Elide(shorten(k.text), avail_w - swatch - inner - f);
            e.color = k.color;
            e.kind = k.dotted ? 2 : 1;
            e.w = swatch + inner + ImGui::CalcTextSize(e.shown.c_str()).x + f;
            out->push_back(e);
        }
        const size_t roofs = out->size();
        out->insert(out->end(), chapters.begin(), chapters.end());
        float x = 0;
        int row = 0;
        for (size_t i = 0; i < out->size(); ++i) {
            Entry& e = (*out)[i];
            // Outside presenter mode the chapters' grid starts a row of its own.
            const bool grid_starts = !ui.presenter && i == roofs && i > 0;
            if (x > 0 && (x + e.w > avail_w || grid_starts)) {
                x = 0;
                ++row;
            }
            e.x = x;
            e.row = row;
            x += e.w;
        }
        return out->empty() ? 0 : row + 1;
    };
    // Under the chart: the key, then the count of points and those without arithmetic (not in
    // presenter mode). In presenter mode the key's rows are packed (no spacing between them):
    // with ten chapters it takes five rows at 1280 x 720 and scale 2, and the chart keeps the
    // height.
    const float legend_row_h =
        ui.presenter ? ImGui::GetFontSize() : ImGui::GetTextLineHeightWithSpacing();
    auto footer = [&](int legend_rows) {
        return legend_row_h * static_cast<float>(legend_rows) +
               (ui.presenter && legend_rows > 0 ? ImGui::GetStyle().ItemSpacing.y : 0) +
               ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(ui.presenter ? 0
                                                                          : none > 0   ? 3
                                                                                       : 2);
    };
    ChartSpec spec;
    spec.compact = ui.presenter;
    ImVec4 plot;
    // The sweep of the intensity, traced once asked for (or once one ran here).
    SweepLine trace;
    if (const ParamSpec* intensity = IntensityParam(lesson)) {
        trace = SweepOf(c.results(), lesson, intensity->name, ui.run);
        // Not before it was asked for (a recorded one), nor with the lesson's answers hidden.
        if ((!ui.roof_trace && trace.recorded) || MeasuredHidden(ui, c, lesson))
            trace.points.clear();
        for (const auto& [v, r] : trace.points) {
            double px = 0, py = 0;
            if (RooflineXY(*r, &px, &py)) spec.trace.push_back(ImVec2(float(px), float(py)));
        }
        spec.trace_recorded = trace.recorded;
        spec.trace_color = PointColor(reg, lesson.chapter);
    }
    const float trace_rows = spec.trace.size() > 1 ? 1.0f : 0.0f;
    const float room =
        ImGui::GetContentRegionAvail().y - trace_rows * ImGui::GetTextLineHeightWithSpacing();
    // The chart's height and the labels it leaves to the key decide each other: the labels the
    // chart leaves out at a height take rows of the key, which the chart gives up. From the
    // tallest chart (no key rows) down, laid out without drawing, until the two agree (fewer
    // labels in a shorter chart never: it settles in a few steps, at the tallest chart that
    // holds its key).
    // In presenter mode the key's entries are made terser (notes, then units) while the chart
    // would keep less than half the room with them whole.
    std::vector<Entry> entries;
    std::vector<RoofKeyEntry> dropped;
    spec.dropped = &dropped;
    const float lowest = f * (ui.presenter ? 7 : 18);
    for (terse = 0; terse <= (ui.presenter ? 2 : 0); ++terse) {
        spec.height = std::max(lowest, room - footer(lay_out({}, &entries)));
        for (int i = 0; i < 8; ++i) {
            ChartSpec dry = spec;
            dry.dry = true;
            dropped.clear();
            DrawChart(ui, reg, roof, points, dry);
            const float height = std::max(lowest, room - footer(lay_out(dropped, &entries)));
            if (height >= spec.height - 0.5f) break;
            spec.height = height;
        }
        if (spec.height >= std::max(lowest, room * 0.5f) - 0.5f) break;
    }
    terse = std::min(terse, ui.presenter ? 2 : 0);
    dropped.clear();
    spec.plot = &plot;
    const int drawn = DrawChart(ui, reg, roof, points, spec);
    lay_out(dropped, &entries);
    if (ui.probe) {
        ui.probe->roof_trace_points = spec.trace.size() > 1 ? int(spec.trace.size()) : 0;
        ui.probe->roof_trace_recorded = spec.trace_recorded && spec.trace.size() > 1;
    }
    if (spec.trace.size() > 1) {
        const std::string origin = trace.recorded ? Fmt(Tr(ui, kRoofTraceRecorded),
                                                        trace.device.c_str(), trace.date.c_str())
                                                  : std::string(Tr(ui, kLivePoint));
        const std::string note =
            Fmt(Tr(ui, kRoofTraceNote), Label(*trace.along, ui.settings.language),
                int(spec.trace.size()), double(spec.trace.front().x), double(spec.trace.back().x),
                origin.c_str());
        ImGui::TextDisabled("%s", Elide(note, ImGui::GetContentRegionAvail().x).c_str());
        if (ImGui::IsItemHovered()) Tooltip(note);
    }
    if (ui.probe) {
        ui.probe->roof_points = drawn;
        ui.probe->roof_legend.clear();
        ui.probe->roof_dropped.clear();
        ui.probe->roof_key_rects.clear();
    }
    if (ui.presenter)
        ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing,
                            ImVec2(ImGui::GetStyle().ItemSpacing.x, 0.0f));
    ImVec4 key_rect(1e30f, 1e30f, -1e30f, -1e30f);  // the roofs' entries, together
    for (size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        if (i > 0 && e.row == entries[i - 1].row) ImGui::SameLine(e.x);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        ImDrawList* dl = ImGui::GetWindowDrawList();
        if (e.kind == 0) {
            dl->AddCircleFilled(ImVec2(at.x + f * 0.4f, at.y + f * 0.55f), f * 0.3f, e.color);
            ImGui::Dummy(ImVec2(f * 0.9f, f));
            ImGui::SameLine();
            ImGui::TextUnformatted(e.shown.c_str());
        } else {
            const float y = at.y + f * 0.55f;
            if (e.kind == 1)
                dl->AddLine(ImVec2(at.x, y), ImVec2(at.x + swatch, y), e.color, 2.5f);
            else
                for (float x = at.x; x < at.x + swatch; x += f * 0.4f)
                    dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + f * 0.2f, at.x + swatch), y),
                                e.color, 2.0f);
            ImGui::Dummy(ImVec2(swatch, f));
            ImGui::SameLine(0, inner);
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(e.color));
            ImGui::TextUnformatted(e.shown.c_str());
            ImGui::PopStyleColor();
        }
        if (e.shown != e.whole && ImGui::IsItemHovered()) Tooltip(e.whole);
        if (!ui.probe) continue;
        if (e.kind == 0) {
            ui.probe->roof_legend.push_back(e.title);
            continue;
        }
        const ImVec4 r(at.x, at.y, ImGui::GetItemRectMax().x, ImGui::GetItemRectMax().y);
        ui.probe->roof_dropped.push_back(e.whole);
        ui.probe->roof_key_rects.push_back(r);
        key_rect = ImVec4(std::min(key_rect.x, r.x), std::min(key_rect.y, r.y),
                          std::max(key_rect.z, r.z), std::max(key_rect.w, r.w));
    }
    if (!chapters.empty()) Remember(ui, "roof_legend_end");  // its last entry
    if (ui.probe && key_rect.x < key_rect.z) ui.probe->rects["roof_dropped_list"] = key_rect;
    if (ui.presenter) ImGui::PopStyleVar();
    if (ui.presenter) return;
    const int recorded = static_cast<int>(std::count_if(
        points.begin(), points.end(), [](const RooflinePoint& p) { return p.recorded; }));
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled(Tr(ui, kPointsCount), static_cast<int>(points.size()),
                        static_cast<int>(points.size()) - recorded, recorded);
    if (none > 0) {
        // The chapters named by their titles in the page's language (the points name their ids).
        std::string named;
        for (size_t at = 0; at <= none_chapters.size();) {
            size_t end = none_chapters.find(',', at);
            if (end == std::string::npos) end = none_chapters.size();
            std::string id = none_chapters.substr(at, end - at);
            id.erase(0, id.find_first_not_of(' '));
            if (!id.empty()) {
                const Chapter* ch = reg.FindChapter(id);
                named += (named.empty()                  ? ""
                          : ui.settings.language == "zh" ? "、"
                                                         : ", ") +
                         (ch ? ChapterTitle(ui, *ch) : id);
            }
            at = end + 1;
        }
        ImGui::TextDisabled(Tr(ui, kNoArithmetic), none, named.c_str());
    }
    ImGui::PopTextWrapPos();
}

}  // namespace lessons::app
