#include "ui.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>

#include "chart.h"
#include "diff.h"
#include "host.h"
#include "report.h"
#include "units.h"

namespace lessons::app {
namespace {

// --- Words of the interface, in English and Simplified Chinese ------------------------------
struct Word {
    const char* en;
    const char* zh;
};
const Word kRun{"Run", "运行"}, kSweepBlocks{"Sweep block sizes", "扫描线程块大小"},
    kSweepSizes{"Sweep data sizes", "扫描数据规模"}, kCancel{"Cancel", "取消"},
    kAutoRun{"Auto-run", "自动运行"}, kBlock{"Block size", "线程块大小"},
    kSize{"Data size", "数据规模"}, kThreads{"Threads", "线程数"}, kData{"Data", "数据"},
    kColdL2{"Cold L2", "冷 L2"}, kText{"Lesson", "课文"}, kSource{"Source", "源代码"},
    kSteps{"Step comparison", "步骤对比"}, kBreakdown{"Time breakdown", "时间分解"},
    kBlockSweep{"Block-size sweep", "线程块大小扫描"}, kSizeSweep{"Size sweep", "规模扫描"},
    kResults{"Results", "结果"}, kLog{"Log scale", "对数坐标"}, kLive{"live", "实时"},
    kRecorded{"recorded", "已录制"}, kUnavailable{"unavailable", "不可用"},
    kExport{"Export", "导出"}, kScale{"Scale", "缩放"};

const char* Tr(const UiState& ui, const Word& w) {
    return ui.settings.language == "zh" ? w.zh : w.en;
}

const ImU32 kCurrentColor = IM_COL32(80, 160, 255, 255);
const ImU32 kPreviousColor = IM_COL32(70, 200, 170, 255);
const ImU32 kOtherColor = IM_COL32(130, 130, 145, 255);
const ImVec4 kGreen(0.45f, 0.85f, 0.45f, 1), kAmber(1.0f, 0.75f, 0.3f, 1),
    kGrey(0.6f, 0.6f, 0.6f, 1), kRed(1.0f, 0.35f, 0.35f, 1), kAccent(0.55f, 0.75f, 1.0f, 1);

void Remember(UiState& ui, const char* name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    ui.rects[name] = ImVec4(a.x, a.y, b.x, b.y);
}

void Changed(UiState& ui) {
    ui.changed_at = ImGui::GetTime();
}

std::string Ms(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ms < 0.1 ? "%.4f" : ms < 10 ? "%.3f" : "%.1f", ms);
    return buf;
}

// The largest size (a power of two) whose memory this machine has, for this lesson.
uint64_t SizeCap(const Controller& c, const Registry& reg, const Lesson& lesson, std::string* why) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    const uint64_t host = HostAvailableMemory() / 10 * 9;
    const Json& d = c.device();
    const uint64_t device =
        d.contains("free_memory_bytes") ? d["free_memory_bytes"].get<uint64_t>() : 0;
    uint64_t cap = uint64_t(1) << 36;
    *why = "64 GiB, the slider's end";
    while (cap > 1024) {
        const MemoryNeeds n = lesson.needs(cap);
        const bool host_ok = chapter.workload_host_bytes(cap) + n.host_bytes <= host;
        const bool dev_ok =
            lesson.kind != StepKind::kGpu || device == 0 || n.device_bytes <= device;
        if (host_ok && dev_ok) break;
        *why = host_ok ? "free GPU memory" : "available host memory";
        cap /= 2;
    }
    return cap;
}

// --- Lesson text: paragraphs, bullets, bold lead-ins ----------------------------------------

// Wraps at spaces and between any two CJK characters (ImGui 1.86 wraps at spaces only, so a
// Chinese sentence would be one unbreakable word).
void WrappedText(const std::string& text, const ImVec4* color = nullptr) {
    const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4);
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    auto measure = [&](const char* a, const char* b) {
        return font->CalcTextSizeA(size, 1e9f, 0, a, b).x;
    };
    const char* s = text.c_str();
    const char* end = s + text.size();
    auto emit = [&](const char* a, const char* b) {
        while (a < b && *a == ' ') ++a;
        if (color) ImGui::PushStyleColor(ImGuiCol_Text, *color);
        ImGui::TextUnformatted(a, b);
        if (color) ImGui::PopStyleColor();
    };
    const char* line = s;
    const char* last_break = nullptr;  // where the line may end
    for (const char* p = s; p < end;) {
        const unsigned char c = static_cast<unsigned char>(*p);
        const int len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        const bool wide = len >= 3;  // CJK and other wide characters: a break on either side
        if (c == ' ' || wide) last_break = p;
        const char* next = std::min(p + len, end);
        if (measure(line, next) > width && last_break && last_break > line) {
            emit(line, last_break);
            line = last_break;
            last_break = nullptr;
            continue;
        }
        if (wide) last_break = next;
        p = next;
    }
    emit(line, end);
}
void DrawLessonText(const UiState& ui, std::string_view text) {
    const std::vector<std::string> lines = SplitLines(text);
    std::string paragraph;
    auto strip = [](std::string s) {
        for (const char* mark : {"**", "`", "*"}) {
            for (size_t p; (p = s.find(mark)) != std::string::npos;)
                s.erase(p, std::string(mark).size());
        }
        return s;
    };
    auto flush = [&] {
        if (paragraph.empty()) return;
        std::string p = paragraph;
        paragraph.clear();
        if (p.rfind("**", 0) == 0) {  // a bold lead-in becomes a small heading
            const size_t end = p.find("**", 2);
            if (end != std::string::npos) {
                WrappedText(p.substr(2, end - 2), &kAccent);
                p = p.substr(end + 2);
                while (!p.empty() && p.front() == ' ') p.erase(0, 1);
                if (p.empty()) return;
            }
        }
        WrappedText(strip(p));
        ImGui::Spacing();
    };
    for (const std::string& line : lines) {
        if (line.rfind("# ", 0) == 0) continue;  // the title is drawn by the page
        if (line.empty()) {
            flush();
        } else if (line.rfind("- ", 0) == 0 ||
                   (line.size() > 3 && std::isdigit(static_cast<unsigned char>(line[0])) &&
                    line[1] == '.')) {
            flush();
            paragraph = line;  // list items start their own paragraph...
            if (line[0] == '-') {
                ImGui::Bullet();
                ImGui::SameLine();
                paragraph = line.substr(2);
            }
        } else if (line.rfind("  ", 0) == 0 && !paragraph.empty()) {
            paragraph +=
                " " + line.substr(line.find_first_not_of(' '));  // ...continued by indented lines
        } else {
            paragraph += (paragraph.empty() ? "" : " ") + line;
        }
    }
    flush();
    (void)ui;
}

void DrawCode(UiState& ui, const Registry& reg, const Lesson& lesson) {
    if (ui.code_lesson != lesson.number) {
        ui.code_lesson = lesson.number;
        ui.code_lines = SplitLines(lesson.source);
        const Lesson* prev = lesson.previous ? reg.FindLesson(lesson.previous) : nullptr;
        ui.code_changed = prev ? ChangedLines(SplitLines(prev->source), ui.code_lines)
                               : std::vector<bool>(ui.code_lines.size(), false);
    }
    const int changed =
        static_cast<int>(std::count(ui.code_changed.begin(), ui.code_changed.end(), true));
    ImGui::TextDisabled("%s%s", lesson.source_path.c_str(),
                        lesson.previous
                            ? ("  ·  " + std::to_string(changed) + " lines differ from lesson " +
                               std::to_string(lesson.previous) + " (highlighted)")
                                  .c_str()
                            : "");
    ImGui::PushFont(ui.fonts.mono);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (size_t i = 0; i < ui.code_lines.size(); ++i) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        if (ui.code_changed[i])
            dl->AddRectFilled(p,
                              ImVec2(p.x + ImGui::GetContentRegionAvail().x,
                                     p.y + ImGui::GetTextLineHeightWithSpacing()),
                              IM_COL32(60, 110, 60, 110));
        ImGui::TextDisabled("%3zu", i + 1);
        ImGui::SameLine();
        ImGui::TextUnformatted(ui.code_lines[i].c_str());
    }
    ImGui::PopFont();
}

// --- Controls --------------------------------------------------------------------------------
void DrawControls(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    const LessonMode mode = c.Mode(lesson);
    ImGui::PushItemWidth(
        std::min(ImGui::GetFontSize() * 16, ImGui::GetContentRegionAvail().x * 0.45f));
    if (lesson.blocks) {
        const std::vector<int> choices = lesson.blocks->Choices();
        int index = 0;
        for (size_t i = 0; i < choices.size(); ++i)
            if (choices[i] == ui.run.block) index = static_cast<int>(i);
        if (!lesson.blocks->Accepts(ui.run.block)) {
            ui.run.block = lesson.blocks->default_block;
            index = static_cast<int>(std::find(choices.begin(), choices.end(), ui.run.block) -
                                     choices.begin());
        }
        const std::string shown = std::to_string(ui.run.block);
        if (ImGui::SliderInt(Tr(ui, kBlock), &index, 0, static_cast<int>(choices.size()) - 1,
                             shown.c_str())) {
            ui.run.block = choices[std::clamp(index, 0, static_cast<int>(choices.size()) - 1)];
            Changed(ui);
        }
        Remember(ui, "block");
        if (!lesson.blocks->why.empty() && ImGui::IsItemHovered())
            ImGui::SetTooltip("Limited: %s.", lesson.blocks->why.c_str());
    } else if (lesson.library) {
        ImGui::TextDisabled("%s: chosen by the library", Tr(ui, kBlock));
    }

    std::string cap_why;
    const uint64_t cap = SizeCap(c, reg, lesson, &cap_why);
    float log_size =
        static_cast<float>(std::log2(std::max<double>(double(ui.run.size_bytes), 1024)));
    const std::string size_text = FormatSize(EffectiveSize(chapter, ui.run.size_bytes));
    if (ImGui::SliderFloat(Tr(ui, kSize), &log_size, 10.0f,
                           static_cast<float>(std::log2(double(cap))), size_text.c_str())) {
        // Whole powers of two and the halves between them keep the values readable.
        const double snapped = std::round(log_size * 2) / 2;
        ui.run.size_bytes = std::min<uint64_t>(cap, static_cast<uint64_t>(std::pow(2.0, snapped)));
        Changed(ui);
    }
    Remember(ui, "size");
    ImGui::SameLine();
    ImGui::TextDisabled("max %s (%s)", FormatSize(cap).c_str(), cap_why.c_str());

    if (lesson.uses_threads) {
        const int hw = GetHostInfo().hardware_threads;
        if (ui.run.threads <= 0) ui.run.threads = hw;
        if (ImGui::SliderInt(Tr(ui, kThreads), &ui.run.threads, 1, std::max(2 * hw, 2)))
            Changed(ui);
        Remember(ui, "threads");
        ImGui::SameLine();
        ImGui::TextDisabled("this machine: %d", hw);
    }
    const DataKind data = EffectiveData(chapter, ui.run.data);
    if (ImGui::BeginCombo(Tr(ui, kData), ToString(data))) {
        for (DataKind k : chapter.data_kinds)
            if (ImGui::Selectable(ToString(k), k == data)) {
                ui.run.data = k;
                Changed(ui);
            }
        ImGui::EndCombo();
    }
    if (lesson.kind == StepKind::kGpu) {
        ImGui::SameLine();
        if (ImGui::Checkbox(Tr(ui, kColdL2), &ui.run.cold_l2)) Changed(ui);
    }
    ImGui::PopItemWidth();

    const bool live =
        mode == LessonMode::kLive ||
        (lesson.previous && c.Mode(*reg.FindLesson(lesson.previous)) == LessonMode::kLive);
    ImGui::BeginDisabled(!live);
    if (ImGui::Button(Tr(ui, kRun))) c.RunWithPrevious(lesson, ui.run);
    Remember(ui, "run");
    ImGui::SameLine();
    ImGui::BeginDisabled(!lesson.blocks);
    if (ImGui::Button(Tr(ui, kSweepBlocks))) c.SweepBlocks(lesson, ui.run);
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(Tr(ui, kSweepSizes))) c.SweepSizes(lesson, ui.run);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::Checkbox(Tr(ui, kAutoRun), &ui.auto_run);
    if (c.Busy()) {
        const float p = c.Progress();
        ImGui::ProgressBar(p < 0 ? 0.0f : p, ImVec2(ImGui::GetFontSize() * 16, 0),
                           c.BusyWith().empty() ? "..." : c.BusyWith().c_str());
        ImGui::SameLine();
        if (ImGui::Button(Tr(ui, kCancel))) c.CancelAll();
    } else if (!live) {
        WrappedText("This lesson cannot run here: " + c.UnavailableReason(lesson) +
                        ". Its recorded results are shown.",
                    &kAmber);
    }

    // Kernel resources at the chosen block size: asked of the worker, or, for a recorded
    // lesson, from a recorded result at that block size.
    if (lesson.kind == StepKind::kGpu && !lesson.library) {
        const KernelAttributes* a = c.Attributes(lesson, ui.run.block);
        const char* source = "";
        if (!a) {
            for (const StoredResult& s : c.results())
                if (s.origin == Origin::kRecorded && s.result.lesson == lesson.number &&
                    s.result.attributes && s.result.block == ui.run.block) {
                    a = &*s.result.attributes;
                    source = " (recorded)";
                }
        }
        if (a) {
            ImGui::TextDisabled(
                "%s at block %d: %d registers/thread, %d B static shared memory, %d blocks/SM, "
                "occupancy %.0f%%%s",
                a->kernel.c_str(), ui.run.block, a->registers, a->static_smem_bytes,
                a->active_blocks_per_sm, 100 * a->occupancy, source);
        } else {
            ImGui::TextDisabled(mode == LessonMode::kLive
                                    ? "Reading the kernel's registers and occupancy at block %d..."
                                    : "No kernel resources recorded at block %d.",
                                ui.run.block);
        }
        Remember(ui, "attributes");
    }
}

// --- Charts --------------------------------------------------------------------------------
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

void DrawResultsTable(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("results", 11, flags, ImVec2(0, ImGui::GetFontSize() * 14))) return;
    for (const char* h : {"lesson", "block", "size", "data", "median ms", "min ms", "max ms",
                          "GB/s", "% ceiling", "check", "source"})
        ImGui::TableSetupColumn(h);
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableHeadersRow();
    int rows = 0;
    for (auto it = c.results().rbegin(); it != c.results().rend() && rows < 300; ++it) {
        const RunResult& r = it->result;
        if (r.chapter != chapter.id) continue;
        ++rows;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (r.lesson == lesson.number)
            ImGui::TextColored(kAccent, "%d", r.lesson);
        else
            ImGui::Text("%d", r.lesson);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.block ? std::to_string(*r.block).c_str() : "-");
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(FormatSize(r.size_bytes).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.data.c_str());
        for (double v : {r.median_ms, r.min_ms, r.max_ms}) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(Ms(v).c_str());
        }
        ImGui::TableNextColumn();
        ImGui::Text("%.1f", r.gbps);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.pct_of_ceiling ? Fixed(*r.pct_of_ceiling, 1).c_str() : "-");
        ImGui::TableNextColumn();
        if (r.verified)
            ImGui::TextColored(kGreen, "\xE2\x9C\x93");
        else {
            ImGui::TextColored(kRed, "\xE2\x9C\x97 wrong");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.check_message.c_str());
        }
        ImGui::TableNextColumn();
        if (r.recorded)
            ImGui::TextColored(kAmber, "%s", Tr(ui, kRecorded));
        else
            ImGui::TextUnformatted(Tr(ui, kLive));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s, %s", r.device.c_str(), r.timestamp.c_str());
    }
    ImGui::EndTable();
}

void Export(UiState& ui, const Controller& c, bool json) {
    mkdir(ui.export_dir.c_str(), 0755);
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    const std::string path = ui.export_dir + "/results-" + stamp + (json ? ".json" : ".csv");
    std::ofstream out(path);
    if (json) {
        Json all = Json::array();
        for (const StoredResult& s : c.results()) all.push_back(ToJson(s.result));
        out << all.dump(2) << "\n";
    } else {
        out << CsvHeader() << ",recorded\n";
        for (const StoredResult& s : c.results())
            out << CsvRow(s.result) << "," << (s.result.recorded ? "true" : "false") << "\n";
    }
    ui.messages.push_back(out ? "Exported " + std::to_string(c.results().size()) + " results to " +
                                    path
                              : "Could not write " + path);
}

// --- Frame ---------------------------------------------------------------------------------
void DrawSidebar(UiState& ui, const Controller& c, const Registry& reg) {
    for (const Chapter& chapter : reg.chapters()) {
        ImGui::TextColored(kAccent, "%d. %s", chapter.number, chapter.title.c_str());
        for (const Lesson* l : reg.LessonsOf(chapter)) {
            const LessonMode mode = c.Mode(*l);
            // A coloured mark says live / recorded / unavailable; the tooltip says why.
            const ImVec4 color = mode == LessonMode::kLive       ? kGreen
                                 : mode == LessonMode::kRecorded ? kAmber
                                                                 : kGrey;
            ImGui::TextColored(color, mode == LessonMode::kLive       ? "\xE2\x97\x8F"
                                      : mode == LessonMode::kRecorded ? "\xE2\x97\x90"
                                                                      : "\xE2\x97\x8B");
            ImGui::SameLine();
            const std::string label = std::to_string(l->number) + "  " + l->title;
            if (ImGui::Selectable(label.c_str(), ui.settings.lesson == l->number))
                SelectLesson(ui, reg, l->number);
            Remember(ui, ("lesson_" + std::to_string(l->number)).c_str());
            if (ImGui::IsItemHovered()) {
                if (mode == LessonMode::kLive)
                    ImGui::SetTooltip("%s: runs on this machine (%s)", Tr(ui, kLive),
                                      ToString(l->kind));
                else
                    ImGui::SetTooltip(
                        "%s: %s",
                        mode == LessonMode::kRecorded ? Tr(ui, kRecorded) : Tr(ui, kUnavailable),
                        c.UnavailableReason(*l).c_str());
            }
        }
        ImGui::Spacing();
    }
    ImGui::Separator();
    ImGui::TextColored(kGreen, "\xE2\x97\x8F");
    ImGui::SameLine();
    ImGui::TextDisabled("%s", Tr(ui, kLive));
    ImGui::SameLine();
    ImGui::TextColored(kAmber, "\xE2\x97\x90");
    ImGui::SameLine();
    ImGui::TextDisabled("%s", Tr(ui, kRecorded));
    ImGui::SameLine();
    ImGui::TextColored(kGrey, "\xE2\x97\x8B");
    ImGui::SameLine();
    ImGui::TextDisabled("%s", Tr(ui, kUnavailable));
}

void DrawStatusBar(UiState& ui, Controller& c) {
    const Json& d = c.device();
    std::string device = "GPU: waiting for the worker";
    if (d.contains("available")) {
        if (d["available"].get<bool>()) {
            device = "GPU: " + d.value("name", std::string("?")) + ", measured copy " +
                     Fixed(d.value("measured_copy_gbps", 0.0), 0) + " GB/s (datasheet " +
                     Fixed(d.value("datasheet_gbps", 0.0), 0) + ")";
        } else {
            device = "No GPU: " + d.value("reason", std::string("?")) +
                     " - GPU lessons show recorded results";
        }
    }
    ImGui::TextUnformatted(device.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled(
        "|  worker: %s%s", c.WorkerState().c_str(),
        c.restarts() ? (", restarted " + std::to_string(c.restarts()) + "x").c_str() : "");
    if (c.WorkerState() == "stopped" || c.WorkerState() == "cannot start") {
        ImGui::SameLine();
        if (ImGui::Button("Restart worker")) c.RestartWorker();
    }
    float scale = ui.settings.scale;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    if (ImGui::SliderFloat(Tr(ui, kScale), &scale, 0.75f, 3.0f, "%.2fx")) SetScale(ui, scale);
    Remember(ui, "scale");
    ImGui::SameLine();
    // Newest notice, from the controller or the GUI itself.
    std::string* notice = nullptr;
    bool from_controller = false;
    if (!c.notices().empty()) {
        notice = &c.notices().back();
        from_controller = true;
    } else if (!ui.messages.empty()) {
        notice = &ui.messages.back();
    }
    if (notice) {
        ImGui::TextColored(kAmber, "%s", notice->c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton("dismiss")) {
            if (from_controller)
                c.notices().pop_back();
            else
                ui.messages.pop_back();
        }
    }
}

}  // namespace

void SelectLesson(UiState& ui, const Registry& registry, int number) {
    const auto& all = registry.lessons();
    if (all.empty()) return;
    if (!registry.FindLesson(number)) number = all.front().number;
    ui.settings.lesson = number;
    const Lesson* l = registry.FindLesson(number);
    if (l->blocks && !l->blocks->Accepts(ui.run.block)) ui.run.block = l->blocks->default_block;
}

void SetScale(UiState& ui, float scale) {
    scale = std::clamp(scale, 0.5f, 4.0f);
    if (scale == ui.settings.scale) return;
    ui.settings.scale = scale;
    ui.fonts_dirty = true;
}

std::vector<std::string_view> UiTexts(const Registry& registry) {
    static std::string words;
    if (words.empty())
        for (const Word* w :
             {&kRun,   &kSweepBlocks, &kSweepSizes,  &kCancel,    &kAutoRun, &kBlock,
              &kSize,  &kThreads,     &kData,        &kColdL2,    &kText,    &kSource,
              &kSteps, &kBreakdown,   &kBlockSweep,  &kSizeSweep, &kResults, &kLog,
              &kLive,  &kRecorded,    &kUnavailable, &kExport,    &kScale})
            words += w->zh;
    std::vector<std::string_view> texts{words, "中文 English"};
    for (const Lesson& l : registry.lessons()) texts.push_back(l.text_zh);
    return texts;
}

void HandleKeys(UiState& ui, Controller& c, const Registry& reg) {
    ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;
    const Lesson* lesson = reg.FindLesson(ui.settings.lesson);
    const auto& all = reg.lessons();
    const auto pos = std::find_if(all.begin(), all.end(),
                                  [&](const Lesson& l) { return l.number == ui.settings.lesson; });
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)) && pos != all.begin())
        SelectLesson(ui, reg, (pos - 1)->number);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)) && pos != all.end() &&
        pos + 1 != all.end())
        SelectLesson(ui, reg, (pos + 1)->number);
    if (io.KeyCtrl && (ImGui::IsKeyPressed(kKeyEqual) || ImGui::IsKeyPressed(kKeyPadAdd)))
        SetScale(ui, ui.settings.scale * 1.15f);
    if (io.KeyCtrl && (ImGui::IsKeyPressed(kKeyMinus) || ImGui::IsKeyPressed(kKeyPadSubtract)))
        SetScale(ui, ui.settings.scale / 1.15f);
    if (!lesson || io.KeyCtrl) return;
    if (ImGui::IsKeyPressed(kKeyR)) c.RunWithPrevious(*lesson, ui.run);
    if (ImGui::IsKeyPressed(kKeyS) && lesson->blocks) c.SweepBlocks(*lesson, ui.run);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) c.CancelAll();
    if (ImGui::IsKeyPressed(kKeyF12)) ui.screenshot_requested = true;
}

void DrawUi(UiState& ui, Controller& c, const Registry& reg) {
    ui.rects.clear();
    HandleKeys(ui, c, reg);
    const Lesson* lesson = reg.FindLesson(ui.settings.lesson);
    if (!lesson) {
        SelectLesson(ui, reg, 0);
        lesson = reg.FindLesson(ui.settings.lesson);
        if (!lesson) return;
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    ImGui::Begin("CUDA Lessons", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
    const float font = ImGui::GetFontSize();
    const float status_h = ImGui::GetFrameHeightWithSpacing() * 2.2f;
    const float body_h = ImGui::GetContentRegionAvail().y - status_h;

    ImGui::BeginChild("sidebar", ImVec2(std::min(font * 19, vp->WorkSize.x * 0.24f), body_h), true);
    DrawSidebar(ui, c, reg);
    ImGui::EndChild();
    ImGui::SameLine();

    ImGui::BeginChild("page", ImVec2(0, body_h), false);
    ImGui::PushFont(ui.fonts.heading);
    ImGui::Text("%d  %s", lesson->number, lesson->title.c_str());
    ImGui::PopFont();
    ImGui::SameLine(ImGui::GetContentRegionAvail().x + ImGui::GetCursorPosX() - font * 9);
    if (ImGui::RadioButton("English", ui.settings.language == "en")) ui.settings.language = "en";
    Remember(ui, "lang_en");
    ImGui::SameLine();
    if (ImGui::RadioButton("中文", ui.settings.language == "zh")) ui.settings.language = "zh";
    Remember(ui, "lang_zh");
    const LessonMode mode = c.Mode(*lesson);
    ImGui::TextDisabled("%s  ·  %s  ·  %s", lesson->id.c_str(),
                        lesson->kind == StepKind::kGpu ? "GPU" : "CPU",
                        mode == LessonMode::kLive       ? "runs live here"
                        : mode == LessonMode::kRecorded ? "recorded on the reference GPU, not live"
                                                        : "cannot run here");

    if (ImGui::BeginTable("columns", 2,
                          ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("left", ImGuiTableColumnFlags_WidthStretch, 0.42f);
        ImGui::TableSetupColumn("right", ImGuiTableColumnFlags_WidthStretch, 0.58f);
        ImGui::TableNextColumn();
        const float column_h = ImGui::GetContentRegionAvail().y;
        ImGui::BeginChild("text", ImVec2(0, column_h * 0.55f), true);
        DrawLessonText(ui, ui.settings.language == "zh" ? lesson->text_zh : lesson->text_en);
        ImGui::EndChild();
        ImGui::BeginChild("code", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
        DrawCode(ui, reg, *lesson);
        ImGui::EndChild();

        ImGui::TableNextColumn();
        ImGui::BeginChild("work", ImVec2(0, 0), false);
        DrawControls(ui, c, reg, *lesson);
        ImGui::Separator();
        if (ImGui::CollapsingHeader(Tr(ui, kSteps), ImGuiTreeNodeFlags_DefaultOpen)) {
            ImGui::Checkbox(Tr(ui, kLog), &ui.log_scale);
            DrawStepChart(ui, c, reg, *lesson);
        }
        if (ImGui::CollapsingHeader(Tr(ui, kBreakdown), ImGuiTreeNodeFlags_DefaultOpen))
            DrawBreakdown(ui, c, reg, *lesson);
        if (ImGui::CollapsingHeader(Tr(ui, kBlockSweep))) DrawSweeps(ui, c, reg, *lesson, true);
        if (ImGui::CollapsingHeader(Tr(ui, kSizeSweep))) DrawSweeps(ui, c, reg, *lesson, false);
        if (ImGui::CollapsingHeader(Tr(ui, kResults), ImGuiTreeNodeFlags_DefaultOpen)) {
            DrawResultsTable(ui, c, reg, *lesson);
            ImGui::TextDisabled("%s:", Tr(ui, kExport));
            ImGui::SameLine();
            if (ImGui::SmallButton("CSV")) Export(ui, c, false);
            Remember(ui, "export_csv");
            ImGui::SameLine();
            if (ImGui::SmallButton("JSON")) Export(ui, c, true);
            Remember(ui, "export_json");
            ImGui::SameLine();
            if (ImGui::SmallButton("PNG screenshot (F12)")) ui.screenshot_requested = true;
        }
        ImGui::EndChild();
        ImGui::EndTable();
    }
    ImGui::EndChild();
    DrawStatusBar(ui, c);
    ImGui::End();

    // Debounced auto-run: the controls settle, then this lesson and the previous one re-run,
    // replacing whatever was pending.
    if (ui.changed_at >= 0 && ImGui::GetTime() - ui.changed_at >= kDebounceSeconds) {
        ui.changed_at = -1;
        if (ui.auto_run) c.RunWithPrevious(*lesson, ui.run);
    }
}

}  // namespace lessons::app
