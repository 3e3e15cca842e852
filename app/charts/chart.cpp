#include "charts/chart.h"

#include "text/lesson_text.h"  // Tooltip

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lessons::app::chart {
namespace {

constexpr ImU32 kAxis = IM_COL32(150, 150, 160, 255);
constexpr ImU32 kGrid = IM_COL32(90, 90, 100, 70);
constexpr ImU32 kText = IM_COL32(220, 220, 225, 255);
constexpr ImU32 kWrong = IM_COL32(230, 60, 60, 255);
constexpr ImU32 kHighlight = IM_COL32(255, 210, 80, 255);

// Maps data values to screen coordinates along one axis.
struct Axis {
    double lo, hi;
    bool log;
    float a, b;  // screen range
    double T(double v) const { return log ? std::log10(std::max(v, 1e-300)) : v; }
    float Map(double v) const {
        const double t0 = T(lo), t1 = T(hi);
        const double t = t1 > t0 ? (T(v) - t0) / (t1 - t0) : 0.5;
        return a + static_cast<float>(t) * (b - a);
    }
};

}  // namespace

void DashedLine(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color, float thickness, float dash) {
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float length = std::hypot(dx, dy);
    if (length <= 0 || dash <= 0) return;
    for (float t = 0; t < length; t += dash * 2) {
        const float t1 = std::min(t + dash, length);
        dl->AddLine(ImVec2(a.x + dx * t / length, a.y + dy * t / length),
                    ImVec2(a.x + dx * t1 / length, a.y + dy * t1 / length), color, thickness);
    }
}

namespace {

void Range(double& lo, double& hi, bool log) {
    if (log) {
        lo = std::max(lo, 1e-9);
        hi = std::max(hi, lo * 1.0001);
        lo = std::pow(10.0, std::floor(std::log10(lo)));
        hi = std::pow(10.0, std::ceil(std::log10(hi)));
        if (hi <= lo) hi = lo * 10;
    } else {
        if (hi <= lo) hi = lo + 1;
        lo = std::min(lo, 0.0);
        hi *= 1.08;
    }
}

float TextWidth(const std::string& s) {
    return ImGui::CalcTextSize(s.c_str()).x;
}

void Hatch(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color) {
    const float step = 6.0f * ImGui::GetFontSize() / 16.0f;
    dl->PushClipRect(a, b, true);
    for (float x = a.x - (b.y - a.y); x < b.x; x += step)
        dl->AddLine(ImVec2(x, b.y), ImVec2(x + (b.y - a.y), a.y), color, 1.0f);
    dl->PopClipRect();
}

std::vector<float> DrawYAxis(ImDrawList* dl, const Axis& y, float x0, float x1, bool bytes) {
    std::vector<float> drawn;  // each label's y (screen)
    // As many ticks as the axis has room for, a line and a third apart (a short chart at scale 2,
    // beside presenter mode's code, had its log labels on top of each other), 2 to 6.
    const float room = std::abs(y.a - y.b) / (ImGui::GetFontSize() * 1.3f);
    const int max_ticks = std::clamp(static_cast<int>(room) + 1, 2, 6);
    for (double t : Ticks(y.lo, y.hi, y.log, max_ticks)) {
        const float py = y.Map(t);
        // A label closer than a line to the one below it is left out (its grid line too).
        if (!drawn.empty() && std::abs(py - drawn.back()) < ImGui::GetFontSize()) continue;
        drawn.push_back(py);
        dl->AddLine(ImVec2(x0, py), ImVec2(x1, py), kGrid);
        const std::string label = bytes ? FormatBytesTick(t) : FormatTick(t);
        dl->AddText(ImVec2(x0 - TextWidth(label) - 6, py - ImGui::GetFontSize() * 0.5f), kText,
                    label.c_str());
    }
    dl->AddLine(ImVec2(x0, y.a), ImVec2(x0, y.b), kAxis);
    return drawn;
}

// The unit, right-aligned on the chart's first line (a legend, if any, starts on the left),
// within [origin.x, right]: in `max_lines` lines where it is wider (a narrow column, scale 2:
// presenter mode beside its code). Returns the rectangle it took.
ImVec4 DrawUnit(ImDrawList* dl, const char* unit, ImVec2 origin, float right, int max_lines = 1) {
    if (!unit || !*unit) return ImVec4(right, origin.y, right, origin.y);
    const std::vector<std::string> lines = UnitLines(
        unit, right - origin.x, max_lines, [](const std::string& t) { return TextWidth(t); });
    const float font = ImGui::GetFontSize();
    float x0 = right;
    for (size_t i = 0; i < lines.size(); ++i) {
        const float w = TextWidth(lines[i]);
        x0 = std::min(x0, right - w);
        dl->AddText(ImVec2(right - w, origin.y + font * float(i)), kAxis, lines[i].c_str());
    }
    return ImVec4(x0, origin.y, right, origin.y + font * float(lines.size()));
}

}  // namespace

std::vector<std::string> UnitLines(const std::string& unit, float room, int max_lines,
                                   const std::function<float(const std::string&)>& width) {
    // A line shortened to `room` with "…", cut at a UTF-8 character's start.
    auto shorten = [&](std::string line) {
        if (width(line) <= room) return line;
        const std::string dots = "\xE2\x80\xA6";
        while (!line.empty()) {
            size_t cut = line.size() - 1;
            while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
            line.erase(cut);
            while (!line.empty() && line.back() == ' ') line.pop_back();
            if (width(line + dots) <= room) return line + dots;
        }
        return std::string();
    };
    if (width(unit) <= room || max_lines < 2) return {shorten(unit)};
    size_t at = unit.find(" (");
    size_t next = at == std::string::npos ? std::string::npos : at + 1;
    if (at == std::string::npos) {
        at = unit.find("\xEF\xBC\x88");  // （
        next = at;
    }
    if (at == std::string::npos || at == 0) return {shorten(unit)};
    return {shorten(unit.substr(0, at)), shorten(unit.substr(next))};
}

std::vector<double> Ticks(double lo, double hi, bool log_scale, int max_ticks) {
    std::vector<double> out;
    if (!(hi > lo) || max_ticks < 2) return out;
    if (log_scale) {
        const int d0 = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
        const int d1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
        const int decades = std::max(1, d1 - d0);
        const int every = std::max(1, (decades + max_ticks - 1) / max_ticks);
        for (int d = d0; d <= d1; d += every) {
            const double v = std::pow(10.0, d);
            if (v >= lo * 0.999 && v <= hi * 1.001) out.push_back(v);
            if (decades <= 2)
                for (double m : {2.0, 5.0})
                    if (m * v > lo && m * v < hi) out.push_back(m * v);
        }
        std::sort(out.begin(), out.end());
        return out;
    }
    const double raw = (hi - lo) / (max_ticks - 1);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * mag;
        if (step >= raw) break;
    }
    for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + 1e-9 * step; v += step)
        out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
    return out;
}

std::vector<double> AxisTicks(double lo, double hi, bool log_scale, int max_ticks,
                              const std::vector<double>& explicit_ticks) {
    if (explicit_ticks.empty()) return Ticks(lo, hi, log_scale, max_ticks);
    std::vector<double> out;
    for (double t : explicit_ticks)
        if (t >= lo && t <= hi && (!log_scale || t > 0)) out.push_back(t);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string FormatTick(double v) {
    char buf[32];
    const double a = std::fabs(v);
    if (a == 0) return "0";
    if (a >= 1e6)
        std::snprintf(buf, sizeof buf, "%.3gM", v / 1e6);
    else if (a >= 1e4)
        std::snprintf(buf, sizeof buf, "%.3gk", v / 1e3);
    else if (a >= 1)
        std::snprintf(buf, sizeof buf, "%.4g", v);
    else
        std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

std::string FormatBytesTick(double v) {
    const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (std::fabs(v) >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    // Whole numbers as they are ("1000 B", "512 KiB"), never "1e+03 B"; else three digits.
    if (std::fabs(v - std::round(v)) < 1e-9)
        std::snprintf(buf, sizeof buf, "%.0f %s", v, kUnits[u]);
    else
        std::snprintf(buf, sizeof buf, "%.3g %s", v, kUnits[u]);
    return buf;
}

std::vector<double> BytesTicks(double lo, double hi, int max_ticks) {
    std::vector<double> out;
    if (!(lo > 0) || !(hi >= lo) || max_ticks < 1) return out;
    const int k0 = static_cast<int>(std::ceil(std::log2(lo) - 1e-9));
    const int k1 = static_cast<int>(std::floor(std::log2(hi) + 1e-9));
    for (int step : {1, 2, 5, 10, 20}) {
        out.clear();
        for (int k = k0; k <= k1; ++k)
            if (((k % step) + step) % step == 0) out.push_back(std::ldexp(1.0, k));
        if (static_cast<int>(out.size()) <= max_ticks) break;
    }
    return out;
}

int BestRateIndex(const std::vector<double>& rates) {
    int best = -1;
    for (size_t i = 0; i < rates.size(); ++i)
        if (rates[i] > 0 && (best < 0 || rates[i] > rates[size_t(best)]))
            best = static_cast<int>(i);
    return best;
}

bool SpansMoreThan(const std::vector<double>& values, double span) {
    double lo = 0, hi = 0;
    for (double v : values) {
        if (!(v > 0) || !std::isfinite(v)) continue;
        lo = lo > 0 ? std::min(lo, v) : v;
        hi = std::max(hi, v);
    }
    return lo > 0 && hi > lo * span;
}

bool SpansLogRange(const std::vector<double>& values) {
    return SpansMoreThan(values, kLogSpan);
}

bool LogChoice::Resolve(const std::string& chapter_id, bool checkbox,
                        const std::vector<double>& values) {
    if (chapter_id == chapter && checkbox != shown) by_chapter[chapter_id] = checkbox;
    chapter = chapter_id;
    const std::optional<bool> chosen = Chosen(chapter_id);
    if (chosen) {
        shown = *chosen;
        return shown;
    }
    const auto was = automatic.find(chapter_id);
    const bool log = was != automatic.end() && was->second ? SpansMoreThan(values, kLogSpan / 2)
                                                           : SpansLogRange(values);
    automatic[chapter_id] = log;
    shown = log;
    return shown;
}

std::optional<bool> LogChoice::Chosen(const std::string& chapter_id) const {
    const auto it = by_chapter.find(chapter_id);
    if (it == by_chapter.end()) return std::nullopt;
    return it->second;
}

ImVec2 PlaceAnnotation(const std::vector<ImVec4>& bars, int index, float w, float h, float left,
                       float right, float band_y) {
    const ImVec4& own = bars[static_cast<size_t>(index)];
    const float x = std::clamp((own.x + own.z - w) / 2, left, std::max(left, right - w));
    const float y = std::max(own.y - h - h * 0.2f, band_y);
    for (size_t i = 0; i < bars.size(); ++i) {
        const ImVec4& b = bars[i];
        if (static_cast<int>(i) == index) continue;
        if (x < b.z && x + w > b.x && y < b.w && y + h > b.y) return ImVec2(x, band_y);
    }
    return ImVec2(x, y);
}

int BarChart(const char* id, const std::vector<Bar>& bars, const BarOptions& o) {
    ImGui::PushID(id);
    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = std::max(ImGui::GetContentRegionAvail().x, 100.0f);
    const float height = o.height;
    ImGui::InvisibleButton("plot", ImVec2(width, height));
    const bool hovered_plot = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();

    // The axis holds every bar; a whisker only up to twice the tallest bar on a linear axis, so
    // one slow outlier (a busy machine) cannot flatten every bar: a longer whisker is cut at
    // the top and drawn with an arrow.
    double lo = o.log_scale ? 1e300 : 0, hi = 0, tallest = 0;
    for (const Bar& b : bars)
        if (!b.invalid) tallest = std::max(tallest, b.value);
    for (const Bar& b : bars) {
        if (b.invalid) continue;
        const double whisker = o.log_scale || tallest <= 0 ? b.hi : std::min(b.hi, 2 * tallest);
        hi = std::max(hi, std::max(b.value, whisker));
        if (o.log_scale && b.value > 0)
            lo = std::min(lo, b.lo > 0 ? std::min(b.lo, b.value) : b.value);
    }
    if (o.log_scale && lo > hi) lo = 1e-3;
    Range(lo, hi, o.log_scale);

    // Nothing is drawn past the visible edge (a table cell's clip rectangle is narrower than
    // its content region).
    const float right =
        std::min(origin.x + width - font * 0.5f, dl->GetClipRectMax().x - font * 0.25f);
    const float left = std::min(origin.x + font * 4.2f, right - font);
    const int n = static_cast<int>(bars.size());
    const float slot = n ? (right - left) / static_cast<float>(n) : 0;
    // Labels wider than their slot ("5.10" at a large scale) take two rows, every other one
    // a line lower, each then as wide as two slots; one wider still is left out.
    const bool stagger = std::any_of(bars.begin(), bars.end(),
                                     [&](const Bar& b) { return TextWidth(b.label) > slot - 2; });
    const float top = origin.y + font * 2.6f,
                bottom = origin.y + height - font * (stagger ? 2.9f : 1.8f);
    Axis y{lo, hi, o.log_scale, bottom, top};
    std::vector<float> y_ticks = DrawYAxis(dl, y, left, right, false);
    // Two lines at most: the plot starts 2.6 lines down.
    const ImVec4 unit_rect = DrawUnit(dl, o.unit, origin, right, 2);
    dl->AddLine(ImVec2(left, bottom), ImVec2(right, bottom), kAxis);

    int hovered = -1;
    const float bar_w = std::min(slot * 0.62f, font * 5);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    // Each bar's rectangle with its whisker and outline, for placing the annotations.
    std::vector<ImVec4> rects;
    for (int i = 0; i < n; ++i) {
        const Bar& b = bars[i];
        const float cx = left + slot * (static_cast<float>(i) + 0.5f);
        float y0 = bottom;
        if (!b.invalid && (b.value > 0 || !o.log_scale)) {
            y0 = std::min(y0, y.Map(std::max(b.value, o.log_scale ? lo : 0.0)) - 2);
            if (b.lo >= 0 && b.hi >= 0) y0 = std::min(y0, y.Map(std::min(b.hi, hi)) - 1);
        } else if (b.invalid) {
            y0 = bottom - font * 1.4f;
        }
        rects.push_back(ImVec4(cx - bar_w / 2 - 2, y0, cx + bar_w / 2 + 2, bottom));
    }
    std::vector<ImVec4> annotations;
    for (int i = 0; i < n; ++i) {
        const Bar& b = bars[i];
        const float cx = left + slot * (static_cast<float>(i) + 0.5f);
        const float x0 = cx - bar_w / 2, x1 = cx + bar_w / 2;
        const std::string& label = b.label;
        // A label wider than its room would cover the next.
        if (TextWidth(label) <= (stagger ? slot * 2 : slot) - 2)
            dl->AddText(ImVec2(cx - TextWidth(label) / 2,
                               bottom + 3 + (stagger && i % 2 ? font * 1.1f : 0.0f)),
                        b.highlight ? kHighlight : kText, label.c_str());
        if (hovered_plot && mouse.x >= left + slot * static_cast<float>(i) &&
            mouse.x < left + slot * static_cast<float>(i + 1))
            hovered = i;
        if (b.invalid) {
            const char* wrong = o.wrong_text;
            dl->AddText(ImVec2(cx - TextWidth(wrong) / 2, bottom - font * 1.4f), kWrong, wrong);
            continue;
        }
        if (b.value <= 0 && o.log_scale) continue;
        // Stacked parts, bottom first, or one segment.
        double base = o.log_scale ? lo : 0;
        const std::vector<double> parts = b.parts.empty() ? std::vector<double>{b.value} : b.parts;
        double cumulative = 0;
        // A measured value is never drawn as nothing: its bar is at least a few pixels tall,
        // however much longer the tallest (a step 19x slower on a linear axis).
        const float shortest = bottom - std::max(3.0f, font * 0.25f);
        for (size_t p = 0; p < parts.size(); ++p) {
            cumulative += parts[p];
            const float ya = y.Map(std::max(base, o.log_scale ? lo : 0.0));
            float yb = y.Map(std::max(cumulative, o.log_scale ? lo : 0.0));
            if (p + 1 == parts.size() && b.value > 0) yb = std::min(yb, shortest);
            const ImU32 c =
                b.parts.empty() ? b.color : (p < o.part_colors.size() ? o.part_colors[p] : b.color);
            if (yb < ya - 0.5f) {
                dl->AddRectFilled(ImVec2(x0, yb), ImVec2(x1, ya), c);
                if (b.hatched) Hatch(dl, ImVec2(x0, yb), ImVec2(x1, ya), IM_COL32(20, 20, 25, 140));
            }
            base = cumulative;
        }
        const float ytop = y.Map(b.value);
        if (b.highlight)
            dl->AddRect(ImVec2(x0 - 2, ytop - 2), ImVec2(x1 + 2, bottom), kHighlight, 0, 0, 2.0f);
        if (b.lo >= 0 && b.hi >= 0) {  // min-max whisker
            const bool cut = b.hi > hi;
            const float ylo = y.Map(std::max(b.lo, o.log_scale ? lo : 0.0)),
                        yhi = cut ? top : y.Map(b.hi);
            dl->AddLine(ImVec2(cx, ylo), ImVec2(cx, yhi), kText, 1.5f);
            dl->AddLine(ImVec2(cx - bar_w / 5, ylo), ImVec2(cx + bar_w / 5, ylo), kText, 1.5f);
            if (cut)  // it goes on past the top
                dl->AddTriangleFilled(ImVec2(cx, yhi - font * 0.3f),
                                      ImVec2(cx - font * 0.3f, yhi + font * 0.2f),
                                      ImVec2(cx + font * 0.3f, yhi + font * 0.2f), kText);
            else
                dl->AddLine(ImVec2(cx - bar_w / 5, yhi), ImVec2(cx + bar_w / 5, yhi), kText, 1.5f);
        }
        if (!b.annotation.empty()) {
            // Too wide for the plot: its first word ("2.50x") only.
            std::string text = b.annotation;
            if (TextWidth(text) > right - left) text = text.substr(0, text.find(' '));
            const float w = TextWidth(text), h = font;
            const ImVec2 at = PlaceAnnotation(rects, i, w, h, left, right, origin.y + font * 1.3f);
            dl->AddText(at, kHighlight, text.c_str());
            annotations.push_back(ImVec4(at.x, at.y, at.x + w, at.y + h));
        }
    }
    // Legend of the stacked parts, as many as fit left of the unit.
    float lx = left;
    const float legend_end = right - TextWidth(o.unit ? o.unit : "") - font;
    for (size_t p = 0; p < o.part_names.size() && p < o.part_colors.size(); ++p) {
        if (lx + font + TextWidth(o.part_names[p]) > legend_end) break;
        dl->AddRectFilled(ImVec2(lx, origin.y + 2),
                          ImVec2(lx + font * 0.8f, origin.y + 2 + font * 0.8f), o.part_colors[p]);
        dl->AddText(ImVec2(lx + font, origin.y), kText, o.part_names[p].c_str());
        lx += font * 1.6f + TextWidth(o.part_names[p]);
    }
    if (hovered >= 0 && !bars[hovered].tooltip.empty()) Tooltip(bars[hovered].tooltip.c_str());
    if (o.layout)
        *o.layout = {ImVec4(origin.x, origin.y, std::min(origin.x + width, dl->GetClipRectMax().x),
                            origin.y + height),
                     std::move(rects), std::move(annotations), unit_rect, std::move(y_ticks)};
    ImGui::PopID();
    return hovered;
}

bool HasSpread(const Series& s, size_t i, bool log_y) {
    return i < s.lo.size() && i < s.hi.size() && s.lo[i] >= 0 && s.hi[i] >= s.lo[i] &&
           (!log_y || s.lo[i] > 0);
}

void LineChart(const char* id, const std::vector<Series>& series, const LineOptions& o) {
    ImGui::PushID(id);
    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = std::max(ImGui::GetContentRegionAvail().x, 100.0f);
    ImGui::InvisibleButton("plot", ImVec2(width, o.height));
    const bool hovered_plot = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();

    double xlo = 1e300, xhi = -1e300, ylo = 1e300, yhi = -1e300;
    for (const Series& s : series)
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            if ((o.log_x && s.x[i] <= 0) || (o.log_y && s.y[i] <= 0)) continue;
            xlo = std::min(xlo, s.x[i]);
            xhi = std::max(xhi, s.x[i]);
            ylo = std::min(ylo, s.y[i]);
            yhi = std::max(yhi, s.y[i]);
            if (HasSpread(s, i, o.log_y)) {
                ylo = std::min(ylo, s.lo[i]);
                yhi = std::max(yhi, s.hi[i]);
            }
        }
    const float left = origin.x + font * 4.2f, right = origin.x + width - font * 0.8f;
    const float top = origin.y + font * 1.6f, bottom = origin.y + o.height - font * 2.6f;
    if (xlo > xhi) {
        const char* empty = o.empty_text;
        dl->AddText(ImVec2((left + right - TextWidth(empty)) / 2, (top + bottom) / 2), kAxis,
                    empty);
        ImGui::PopID();
        return;
    }
    if (o.log_x) {
        xlo /= 1.3;
        xhi *= 1.3;
    } else {
        const double pad = (xhi - xlo) * 0.05 + (xhi == xlo ? 1 : 0);
        xlo -= pad;
        xhi += pad;
    }
    if (!o.log_y) ylo = std::min(ylo, 0.0);
    Range(ylo, yhi, o.log_y);
    Axis x{xlo, xhi, o.log_x, left, right}, y{ylo, yhi, o.log_y, bottom, top};
    DrawYAxis(dl, y, left, right, false);
    DrawUnit(dl, o.y_label, ImVec2(origin.x, origin.y + font * 1.2f), right);
    dl->AddLine(ImVec2(left, bottom), ImVec2(right, bottom), kAxis);
    float label_end = -1e30f;  // a tick label that would touch the one before it is dropped
    if (o.x_tick_labels) o.x_tick_labels->clear();
    const std::vector<double> x_ticks = o.x_bytes && o.log_x && o.x_ticks.empty()
                                            ? BytesTicks(xlo, xhi, 8)
                                            : AxisTicks(xlo, xhi, o.log_x, 8, o.x_ticks);
    for (double t : x_ticks) {
        const float px = x.Map(t);
        dl->AddLine(ImVec2(px, top), ImVec2(px, bottom), kGrid);
        const std::string label = o.x_bytes ? FormatBytesTick(t) : FormatTick(t);
        const float lx0 = px - TextWidth(label) / 2;
        if (lx0 < label_end + font * 0.5f || lx0 + TextWidth(label) > origin.x + width) continue;
        dl->AddText(ImVec2(lx0, bottom + 3), kText, label.c_str());
        if (o.x_tick_labels) o.x_tick_labels->push_back(label);
        label_end = lx0 + TextWidth(label);
    }
    if (TextWidth(o.x_label) <= right - left)
        dl->AddText(ImVec2(right - TextWidth(o.x_label), bottom + font * 1.3f), kAxis, o.x_label);

    const ImVec2 mouse = ImGui::GetIO().MousePos;
    float best_d = font * 0.9f;
    std::string tip;
    float lx = left;
    for (const Series& s : series) {
        std::vector<ImVec2> pts;
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            if ((o.log_x && s.x[i] <= 0) || (o.log_y && s.y[i] <= 0)) continue;
            pts.push_back(ImVec2(x.Map(s.x[i]), y.Map(s.y[i])));
            const float d = std::hypot(pts.back().x - mouse.x, pts.back().y - mouse.y);
            if (hovered_plot && d < best_d) {
                best_d = d;
                tip = s.name + "\n" + (i < s.tooltips.size() ? s.tooltips[i] : FormatTick(s.y[i]));
            }
        }
        // The spreads first, under the line and its points: a bar with short caps.
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            if (!HasSpread(s, i, o.log_y) || (o.log_x && s.x[i] <= 0)) continue;
            const float px = x.Map(s.x[i]), cap = font * 0.25f;
            const float y0 = y.Map(s.lo[i]), y1 = y.Map(s.hi[i]);
            dl->AddLine(ImVec2(px, y0), ImVec2(px, y1), s.color, 1.0f);
            dl->AddLine(ImVec2(px - cap, y0), ImVec2(px + cap, y0), s.color, 1.0f);
            dl->AddLine(ImVec2(px - cap, y1), ImVec2(px + cap, y1), s.color, 1.0f);
        }
        for (size_t i = 1; i < pts.size(); ++i) {
            if (s.dashed)
                DashedLine(dl, pts[i - 1], pts[i], s.color, 2.0f, font * 0.5f);
            else
                dl->AddLine(pts[i - 1], pts[i], s.color, 2.0f);
        }
        for (const ImVec2& p : pts) {
            if (s.dashed) {
                dl->AddCircleFilled(p, font * 0.26f, ImGui::GetColorU32(ImGuiCol_WindowBg));
                dl->AddCircle(p, font * 0.26f, s.color, 0, 2.0f);
            } else {
                dl->AddCircleFilled(p, font * 0.22f, s.color);
            }
        }
        if (s.best >= 0 && s.best < static_cast<int>(s.x.size())) {
            const ImVec2 p(x.Map(s.x[s.best]), y.Map(s.y[s.best]));
            dl->AddCircle(p, font * 0.5f, kHighlight, 0, 2.0f);
            // Right of the point and above it, kept inside the plot: left of a point near the
            // right edge, under one near the top (where the unit is written).
            const char* best_text = s.best_within_noise && !o.best_noise_text.empty()
                                        ? o.best_noise_text.c_str()
                                        : o.best_text;
            const float w = TextWidth(best_text);
            const float bx =
                p.x + font * 0.5f + w <= right ? p.x + font * 0.5f : p.x - font * 0.5f - w;
            const float by =
                p.y - font * 1.3f >= top + font * 0.7f ? p.y - font * 1.3f : p.y + font * 0.3f;
            dl->AddText(ImVec2(bx, by), kHighlight, best_text);
        }
        if (lx + font * 1.2f + TextWidth(s.name) <= right) {  // the legend entries that fit
            if (s.dashed)
                DashedLine(dl, ImVec2(lx, origin.y + font * 0.5f),
                           ImVec2(lx + font, origin.y + font * 0.5f), s.color, 3.0f, font * 0.3f);
            else
                dl->AddLine(ImVec2(lx, origin.y + font * 0.5f),
                            ImVec2(lx + font, origin.y + font * 0.5f), s.color, 3.0f);
            dl->AddText(ImVec2(lx + font * 1.2f, origin.y), kText, s.name.c_str());
        }
        lx += font * 2.2f + TextWidth(s.name);
    }
    if (!tip.empty()) Tooltip(tip.c_str());
    ImGui::PopID();
}

}  // namespace lessons::app::chart
