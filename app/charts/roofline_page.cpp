// The roofline on log-log axes (drawn with ImDrawList, like chart.cpp): this GPU's roofs from
// its measured ceilings (or the recorded ones, labelled so) and every result as a point at its
// arithmetic intensity, hover for the lesson, its rate and its share of the roof. The pages of
// a chapter that asks for it (Chapter::whole_roofline) draw it whole, with buttons to measure
// the ceilings again and to run any chapter's benchmark; every other GPU lesson gets a small
// inset with its own point and the previous step's.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "charts/chart.h"
#include "charts/roofline.h"
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

ImU32 ChapterColor(const std::string& chapter) {
    static const ImU32 kPalette[] = {IM_COL32(80, 160, 255, 255),  IM_COL32(250, 140, 60, 255),
                                     IM_COL32(120, 210, 110, 255), IM_COL32(220, 100, 200, 255),
                                     IM_COL32(240, 220, 80, 255),  IM_COL32(90, 220, 220, 255)};
    size_t h = 0;
    for (char ch : chapter) h = h * 31 + static_cast<unsigned char>(ch);
    return kPalette[h % (sizeof kPalette / sizeof kPalette[0])];
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

struct ChartSpec {
    float height = 300;
    bool inset = false;
    int current = 0, previous = 0;  // the inset's two lessons
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
    ImGui::InvisibleButton(spec.inset ? "roofline_inset" : "roofline_chart",
                           ImVec2(std::max(width, 10.0f), spec.height));
    Remember(ui, spec.inset ? "roofline_inset" : "roofline_chart");
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRect(ax.a, ax.b, kGridColor);

    // Decade grid and tick labels.
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    for (double x = ax.x_lo; x <= ax.x_hi * 1.001; x *= 10) {
        const ImVec2 p = ax.At(x, ax.y_lo);
        dl->AddLine(ImVec2(p.x, ax.a.y), ImVec2(p.x, ax.b.y), kGridColor);
        const std::string label = chart::FormatTick(x);
        dl->AddText(ImVec2(p.x - ImGui::CalcTextSize(label.c_str()).x / 2, ax.b.y + 2), text,
                    label.c_str());
    }
    for (double y = ax.y_lo; y <= ax.y_hi * 1.001; y *= 10) {
        const ImVec2 p = ax.At(ax.x_lo, y);
        dl->AddLine(ImVec2(ax.a.x, p.y), ImVec2(ax.b.x, p.y), kGridColor);
        const std::string label = chart::FormatTick(y);
        dl->AddText(ImVec2(ax.a.x - ImGui::CalcTextSize(label.c_str()).x - 4, p.y - font / 2), text,
                    label.c_str());
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
    if (!spec.inset) {
        auto label_at = [&](double x, double y, ImU32 color, const std::string& s, float dy) {
            const ImVec2 p = ax.At(x, y);
            dl->AddText(
                ImVec2(std::min(p.x, ax.b.x - ImGui::CalcTextSize(s.c_str()).x - 4), p.y + dy),
                color, s.c_str());
        };
        if (roof.fp32_gflops > 0)
            label_at(ax.x_hi / 200, roof.fp32_gflops, kRoofColor,
                     Fmt(Tr(ui, kRoofFp32), roof.fp32_gflops), -font * 1.3f);
        if (roof.tf32_gflops > 0)
            label_at(
                ax.x_hi / 200, roof.tf32_gflops, kTf32Color,
                Fmt(Tr(ui, roof.tf32_from_rates ? kRoofTf32Rates : kRoofTf32), roof.tf32_gflops),
                -font * 1.3f);
        if (roof.bf16_gflops > 0)
            label_at(ax.x_hi / 200, roof.bf16_gflops, kBf16Color,
                     Fmt(Tr(ui, kRoofBf16), roof.bf16_gflops), -font * 1.3f);
        if (bw > 0) {
            const double x = ax.x_lo * 2;
            label_at(x, Attainable(roof.fp32_gflops, bw, x), kRoofColor,
                     Fmt(Tr(ui, roof.read_gbps > 0 ? kRoofRead : kRoofCopy), bw), -font * 1.4f);
        }
        if (roof.copy_gbps > 0 && roof.read_gbps > 0) {
            const double x = ax.x_lo * 2;
            label_at(x, Attainable(roof.fp32_gflops, roof.copy_gbps, x), kCopyRoofColor,
                     Fmt(Tr(ui, kRoofCopy), roof.copy_gbps), font * 0.3f);
        }
        if (ridge > ax.x_lo && ridge < ax.x_hi) {
            const ImVec2 p = ax.At(ridge, roof.fp32_gflops);
            for (float y = p.y; y < ax.b.y; y += 6)
                dl->AddLine(ImVec2(p.x, y), ImVec2(p.x, y + 3), text);
            const std::string s = Fmt(Tr(ui, kRidge), ridge);
            dl->AddText(ImVec2(p.x + 4, ax.b.y - font * 1.3f), text, s.c_str());
        }
    }

    // The points: filled when measured now, hollow when recorded; the nearest under the mouse
    // gets the tooltip.
    const float r = font * (spec.inset ? 0.32f : 0.38f);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const RooflinePoint* near = nullptr;
    float near_d2 = font * font;
    int drawn = 0;
    dl->PushClipRect(ax.a, ax.b, true);
    for (const RooflinePoint* p : points) {
        if (p->intensity <= 0 || p->gflops <= 0) continue;
        const ImVec2 c = ax.At(p->intensity, p->gflops);
        const ImU32 color = spec.inset
                                ? (p->lesson == spec.current ? kCurrentColor : kPreviousColor)
                                : ChapterColor(p->chapter);
        if (p->recorded)
            dl->AddCircle(c, r, color, 0, 2);
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
    if (near) {
        const std::string origin_text = near->recorded
                                            ? Fmt(Tr(ui, kRecordedPoint), near->device.c_str(),
                                                  near->timestamp.substr(0, 10).c_str())
                                            : std::string(Tr(ui, kLivePoint));
        const Lesson* of = reg.FindLesson(near->lesson);
        Tooltip(Fmt(Tr(ui, kPointTip), of ? of->label.c_str() : near->id.c_str(),
                    near->title.c_str(), origin_text.c_str(), near->intensity,
                    RateText(near->gflops).c_str(), RateText(near->gbps).c_str(), near->pct_of_roof,
                    RateText(near->roof_gflops).c_str()));
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
    ImGui::PushTextWrapPos(0);
    if (!roof.Any())
        ImGui::TextColored(kAmber, "%s", Tr(ui, kNoCeilings));
    else if (roof.recorded)
        ImGui::TextColored(kAmber, Tr(ui, kRecordedCeilings), roof.device.c_str());
    else
        ImGui::TextDisabled(Tr(ui, kMeasuredCeilings), roof.device.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace

void DrawRoofline(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    if (lesson.kind != StepKind::kGpu) return;
    const Roof roof = CurrentRoof(c.devices(), c.results());
    int none = 0;
    std::string none_chapters;
    std::vector<RooflinePoint> points = RooflinePoints(c.results(), roof, &none, &none_chapters);
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
        std::string note = Tr(ui, hidden ? kMeasuredHiddenNote : has ? kInsetNote : kInsetNone);
        if (has)
            if (const Lesson* whole = WholeRooflineLesson(reg))
                note += Fmt(Tr(ui, kInsetFullChart), whole->label.c_str());
        // Wrapped at spaces only: ImGui's own wrapping would break a label ("6.1") at its dot.
        DrawWrappedText(note, &kGrey);
        return;
    }

    // A page of the chapter that draws the whole roofline.
    if (!ImGui::CollapsingHeader(
            Fmt(Tr(ui, kRooflineOf), roof.device.empty() ? "GPU" : roof.device.c_str())
                .append("###roofline")
                .c_str(),
            ImGuiTreeNodeFlags_DefaultOpen))
        return;
    DrawRoofNote(ui, roof);
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
    // Any chapter's benchmark: every lesson of it that runs here, at this page's settings.
    std::vector<const Chapter*> chapters;
    for (const Chapter& ch : reg.chapters())
        if (ch.id != lesson.chapter) chapters.push_back(&ch);
    if (!chapters.empty()) {
        ui.bench_chapter = std::clamp(ui.bench_chapter, 0, static_cast<int>(chapters.size()) - 1);
        const Chapter& chosen = *chapters[static_cast<size_t>(ui.bench_chapter)];
        // Chapter titles in English, as the lesson list shows them.
        const std::string label = std::to_string(chosen.number) + ". " + chosen.title;
        SameLineIfFits(ImGui::GetFontSize() * 12);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
        if (ImGui::BeginCombo("##bench_chapter", label.c_str())) {
            for (size_t i = 0; i < chapters.size(); ++i) {
                const std::string item =
                    std::to_string(chapters[i]->number) + ". " + chapters[i]->title;
                if (ImGui::Selectable(item.c_str(), static_cast<int>(i) == ui.bench_chapter))
                    ui.bench_chapter = static_cast<int>(i);
            }
            ImGui::EndCombo();
        }
        Remember(ui, "bench_chapter");
        SameLineIfFits(ButtonWidth(Tr(ui, kRunBenchmark)));
        const std::vector<const Lesson*> of = reg.LessonsOf(chosen);
        ImGui::BeginDisabled(of.empty());
        if (ImGui::Button(Tr(ui, kRunBenchmark)) && !of.empty()) c.RunChapter(*of.front(), ui.run);
        ImGui::EndDisabled();
        Remember(ui, "run_benchmark");
    }
    ChartSpec spec;
    spec.height = std::max(ImGui::GetFontSize() * 18, ImGui::GetContentRegionAvail().y * 0.45f);
    const int drawn = DrawChart(ui, reg, roof, points, spec);
    if (ui.probe) ui.probe->roof_points = drawn;
    // The chapters' colours, and what the chart cannot show.
    std::vector<std::string> seen;
    for (const RooflinePoint& p : points)
        if (std::find(seen.begin(), seen.end(), p.chapter) == seen.end()) seen.push_back(p.chapter);
    for (const std::string& ch : seen) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float f = ImGui::GetFontSize();
        ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(at.x + f * 0.4f, at.y + f * 0.55f),
                                                    f * 0.3f, ChapterColor(ch));
        ImGui::Dummy(ImVec2(f * 0.9f, f));
        ImGui::SameLine();
        ImGui::TextUnformatted(ch.c_str());
        SameLineIfFits(f * 8);
    }
    ImGui::NewLine();
    const int recorded = static_cast<int>(std::count_if(
        points.begin(), points.end(), [](const RooflinePoint& p) { return p.recorded; }));
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled(Tr(ui, kPointsCount), static_cast<int>(points.size()),
                        static_cast<int>(points.size()) - recorded, recorded);
    if (none > 0) ImGui::TextDisabled(Tr(ui, kNoArithmetic), none, none_chapters.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace lessons::app
