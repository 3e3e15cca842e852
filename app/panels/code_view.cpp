// The step's code in tabs: its real source, with the lines that differ from the previous step
// highlighted; its PTX; its SASS (both embedded at build time, lessons/machine_code.h), with the
// instructions the lesson is about highlighted and every class counted; and where the lesson
// has an exercise, the Exercise tab (exercise_pane.cpp). Above them, the ncu command line that
// profiles the step at the page's parameters, with a Copy button.
#include <imgui_internal.h>  // SetNextWindowScroll (public from ImGui 1.87)

#include <algorithm>
#include <iterator>

#include "exercise.h"
#include "model/page_params.h"
#include "panels/panels.h"
#include "probe.h"
#include "text/code_listing.h"
#include "text/diff.h"
#include "text/lesson_text.h"
#include "words/words_exercise.h"
#include "words/words_machine.h"
#include "words/words_student.h"

namespace lessons::app {

namespace {

// Background of a highlighted line, one colour per class.
ImU32 ClassColor(const std::string& name) {
    if (name == "LDG.128" || name == "STG.128") return IM_COL32(40, 110, 200, 120);
    if (name == "LDG" || name == "STG") return IM_COL32(60, 90, 140, 110);
    if (name == "CP.ASYNC") return IM_COL32(30, 140, 170, 120);
    if (name == "LDS" || name == "STS") return IM_COL32(150, 110, 30, 120);
    if (name == "BAR") return IM_COL32(160, 60, 60, 120);
    if (name == "SHFL" || name == "VOTE") return IM_COL32(120, 70, 170, 120);
    if (name == "HMMA") return IM_COL32(40, 150, 120, 120);
    if (name == "ATOM") return IM_COL32(170, 80, 130, 120);
    return IM_COL32(90, 120, 90, 110);
}

// The step's source split into lines, and which differ from the previous step's (kept in the
// UiState until another lesson is shown).
const Lesson* CacheSource(UiState& ui, const Registry& reg, const Lesson& lesson) {
    const Lesson* prev = lesson.previous ? reg.FindLesson(lesson.previous) : nullptr;
    if (ui.code_lesson != lesson.number) {
        ui.code_lesson = lesson.number;
        ui.code_lines = SplitLines(lesson.source);
        ui.code_changed = prev ? ChangedLines(SplitLines(prev->source), ui.code_lines)
                               : std::vector<bool>(ui.code_lines.size(), false);
    }
    return prev;
}

// One numbered line of the source, its background green where it differs from the previous
// step.
void SourceLine(UiState& ui, size_t i) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    if (ui.code_changed[i])
        ImGui::GetWindowDrawList()->AddRectFilled(
            p,
            ImVec2(p.x + std::max(ImGui::GetContentRegionAvail().x, ImGui::GetWindowWidth()),
                   p.y + ImGui::GetTextLineHeightWithSpacing()),
            IM_COL32(60, 110, 60, 110));
    ImGui::TextDisabled("%3zu", i + 1);
    ImGui::SameLine();
    ImGui::TextUnformatted(ui.code_lines[i].c_str());
}

void DrawSource(UiState& ui, const Registry& reg, const Lesson& lesson) {
    const Lesson* prev = CacheSource(ui, reg, lesson);
    const int changed =
        static_cast<int>(std::count(ui.code_changed.begin(), ui.code_changed.end(), true));
    const std::string differ =
        prev ? "  \xC2\xB7  " + Fmt(Tr(ui, kLinesDiffer), changed, prev->label.c_str())
             : std::string();
    ImGui::TextDisabled("%s%s", lesson.source_path.c_str(), differ.c_str());
    ImGui::PushFont(ui.fonts.mono);
    for (size_t i = 0; i < ui.code_lines.size(); ++i) SourceLine(ui, i);
    ImGui::PopFont();
}

// The machine-code file of a lesson's step, or why there is none; `from` is set to the
// lesson whose kernel it is (the previous lesson's for a step that reuses it).
const MachineCodeFile* FileFor(const UiState& ui, const Registry& reg, const Lesson& lesson,
                               Isa isa, const Lesson** from, std::string* why) {
    *from = &lesson;
    const MachineCodeTable& table = MachineCodeFiles();
    if (lesson.kind != StepKind::kGpu) {
        *why = Tr(ui, kCpuNoMachineCode);
        return nullptr;
    }
    if (lesson.library) {
        *why = Tr(ui, kLibraryNoMachineCode);
        return nullptr;
    }
    if (table.why_none[0]) {
        *why = Tr(ui, kNoCudaBuild);
        return nullptr;
    }
    auto it = table.files.find(lesson.source_path);
    if (it == table.files.end()) {
        *why = Fmt(Tr(ui, kNoMachineCode), ("nothing extracted for " + lesson.source_path).c_str());
        return nullptr;
    }
    const std::string_view code = isa == Isa::kPtx ? it->second.ptx : it->second.sass;
    if (isa == Isa::kSass && code.empty()) {
        const std::string_view note = it->second.sass_note;
        if (note == "stale")
            *why = Fmt(Tr(ui, kSassStale), it->second.sass_source);
        else if (note.find("cuobjdump") != std::string_view::npos)
            *why = Tr(ui, kNoCuobjdump);
        else
            *why = Fmt(Tr(ui, kNoMachineCode), it->second.sass_note);
        return nullptr;
    }
    // A step without a kernel of its own launches the previous lesson's.
    if (SplitFunctions(code, isa).empty() && lesson.previous) {
        if (const Lesson* prev = reg.FindLesson(lesson.previous))
            if (prev != &lesson) return FileFor(ui, reg, *prev, isa, from, why);
    }
    return &it->second;
}

void DrawMachine(UiState& ui, const Registry& reg, const Lesson& lesson, Isa isa, int tab) {
    MachineView& m = ui.machine;
    const Lesson* from = &lesson;
    std::string why;
    const MachineCodeFile* file = FileFor(ui, reg, lesson, isa, &from, &why);
    if (!file) {
        ImGui::PushTextWrapPos(ImGui::GetWindowContentRegionMax().x);
        ImGui::TextUnformatted(why.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    const std::string_view code = isa == Isa::kPtx ? file->ptx : file->sass;
    bool fresh = false;  // another lesson or tab: its listing opens at its top
    if (m.lesson != lesson.number || m.for_tab != tab) {
        fresh = true;
        m.lesson = lesson.number;
        m.for_tab = tab;
        m.functions = SplitFunctions(code, isa);
        m.kernel = DefaultKernel(m.functions, KernelNames(*from, nullptr), from->exercise.instance);
        m.reused_from = from != &lesson ? from->label : std::string();
        m.jump_line = -1;
        m.source_lines = SplitLines(from->source);
        ListMachineCode(m, code, isa, from->source_path);
    }
    const MachineCodeTable& table = MachineCodeFiles();
    // Where the listing comes from: one line (it took five above the listing), whole on hover.
    const std::string origin =
        isa == Isa::kSass && file->sass_source[0]
            ? Fmt(Tr(ui, kSassRecordedOf), table.sass_arch, from->source_path.c_str(),
                  file->sass_source)
            : Fmt(isa == Isa::kPtx ? Tr(ui, kPtxOf) : Tr(ui, kSassOf),
                  isa == Isa::kPtx ? table.ptx_arch : table.sass_arch, from->source_path.c_str());
    ImGui::TextDisabled("%s", Elide(origin, ImGui::GetContentRegionAvail().x).c_str());
    if (ImGui::IsItemHovered()) Tooltip(origin);
    Remember(ui, "machine_origin");
    // Wrapped at spaces only: ImGui's own wrapping would break the label ("1.4") at its dot.
    ImGui::PushTextWrapPos(ImGui::GetWindowContentRegionMax().x);
    if (!m.reused_from.empty())
        DrawWrappedText(Fmt(Tr(ui, kReusesKernel), m.reused_from.c_str()), &kGrey);
    ImGui::PopTextWrapPos();

    // Which kernel: one template instance each (toggles compile one kernel per combination).
    const std::string all = Fmt(Tr(ui, kAllKernels), static_cast<int>(m.functions.size()));
    const std::string current =
        m.kernel < 0 ? all : ShortKernelName(m.functions[static_cast<size_t>(m.kernel)].name);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    if (ImGui::BeginCombo("##kernel", current.c_str())) {
        if (ImGui::Selectable(all.c_str(), m.kernel < 0)) {
            m.kernel = -1;
            ListMachineCode(m, code, isa, from->source_path);
        }
        for (size_t i = 0; i < m.functions.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::Selectable(ShortKernelName(m.functions[i].name).c_str(),
                                  m.kernel == static_cast<int>(i))) {
                m.kernel = static_cast<int>(i);
                ListMachineCode(m, code, isa, from->source_path);
            }
            if (ImGui::IsItemHovered()) Tooltip(m.functions[i].name.c_str());
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    Remember(ui, "machine_kernel");

    // The counts: this lesson's classes first, highlighted; then the others.
    const std::vector<std::string> focus = FocusClasses(lesson);
    const bool zh = ui.settings.language == "zh";
    if (!ui.presenter) ImGui::TextDisabled("%s", Tr(ui, kInstructionCounts));
    auto chip = [&](const InstructionClass& c, bool focused) {
        auto it = m.counts.find(c.name);
        const int n = it == m.counts.end() ? 0 : it->second;
        if (!focused && n == 0) return;
        if (!focused && ui.presenter) return;  // a class sees the lesson's classes only
        const std::string label = std::string(c.name) + " \xC3\x97" + std::to_string(n);
        SameLineIfFits(ButtonWidth(label.c_str()));
        // A button (the mouse or the keyboard presses it): the listing shows the class's next
        // instruction, as Compiler Explorer links its panes.
        ImGui::PushStyleColor(
            ImGuiCol_Button,
            focused ? ImGui::ColorConvertU32ToFloat4(ClassColor(c.name)) : ImVec4(0, 0, 0, 0));
        if (!focused)
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::PushID(c.name);
        const bool pressed = ImGui::SmallButton(label.c_str());
        ImGui::PopID();
        ImGui::PopStyleColor(focused ? 1 : 2);
        if (ImGui::IsItemHovered()) Tooltip(zh ? c.what_zh : c.what);
        Remember(ui, (std::string("count_") + c.name).c_str());
        if (!pressed || n == 0) return;
        const int k = static_cast<int>(&c - &InstructionClasses()[0]);
        const int count = static_cast<int>(m.lines.size());
        for (int step = 1; step <= count; ++step) {
            const int i = (std::max(m.jump_line, -1) + step) % count;
            if (m.line_class[static_cast<size_t>(i)] != k) continue;
            m.jump_line = i;
            m.jump_pending = true;
            ui.redraw_frames = std::max(ui.redraw_frames, 2);
            break;
        }
        if (ui.probe) ui.probe->sass_jump_line = m.jump_line;
    };
    ImGui::NewLine();
    for (const std::string& f : focus)
        for (const InstructionClass& c : InstructionClasses())
            if (f == c.name) chip(c, true);
    for (const InstructionClass& c : InstructionClasses())
        if (std::find(focus.begin(), focus.end(), c.name) == focus.end()) chip(c, false);
    if (!ui.presenter) ImGui::TextDisabled("%s", Tr(ui, kHighlighted));

    // Where the listing carries line information: the source beside it, linked both ways.
    if (m.has_line_info && !ui.presenter) {
        if (fresh || ui.arrival.scroll_top) m.linked = 0;
        DrawLinkedCode(ui, m, focus, fresh || ui.arrival.scroll_top);
        return;
    }
    // The listing, clipped to what is visible (thousands of lines for a file of templates).
    if (fresh || ui.arrival.scroll_top) ImGui::SetNextWindowScroll(ImVec2(0, 0));
    ImGui::BeginChild("listing", ImVec2(0, 0), false,
                      ImGuiWindowFlags_HorizontalScrollbar | kNoNavKeys);
    if (ui.probe) ui.probe->listing_scroll_y = ImGui::GetScrollY();
    ImGui::PushFont(ui.fonts.mono);
    const float row_h = ImGui::GetTextLineHeightWithSpacing();
    if (m.jump_pending && m.jump_line >= 0) {  // a third of the way down the listing
        ImGui::SetScrollY(
            std::max(0.0f, float(m.jump_line) * row_h - ImGui::GetWindowHeight() / 3));
        m.jump_pending = false;
    }
    if (ui.presenter) PresenterScroll(ui);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const auto& classes = InstructionClasses();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(m.lines.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const int k = m.line_class[static_cast<size_t>(i)];
            const ImVec2 p = ImGui::GetCursorScreenPos();
            if (i == m.jump_line)  // the instruction a chip jumped to: outlined
                dl->AddRect(p, ImVec2(p.x + ImGui::GetWindowWidth(), p.y + row_h),
                            IM_COL32(255, 255, 255, 200), 0, 0, 2);
            if (k >= 0) {
                const char* name = classes[static_cast<size_t>(k)].name;
                if (std::find(focus.begin(), focus.end(), name) != focus.end())
                    dl->AddRectFilled(p,
                                      ImVec2(p.x + std::max(ImGui::GetContentRegionAvail().x,
                                                            ImGui::GetWindowWidth()),
                                             p.y + ImGui::GetTextLineHeightWithSpacing()),
                                      ClassColor(name));
            }
            const std::string_view line = m.lines[static_cast<size_t>(i)];
            if (ui.presenter) {
                // cuobjdump's columns of spaces take half a projector's width: runs of blanks
                // become two spaces, the line starts at its first character.
                std::string tight;
                for (const char ch : line) {
                    const bool blank = ch == ' ' || ch == '\t';
                    if (blank && (tight.empty() || (tight.size() >= 2 && tight.back() == ' ' &&
                                                    tight[tight.size() - 2] == ' ')))
                        continue;
                    tight += blank ? ' ' : ch;
                }
                ImGui::TextUnformatted(tight.c_str());
            } else {
                ImGui::TextUnformatted(line.data(), line.data() + line.size());
            }
        }
    }
    ImGui::PopFont();
    ImGui::EndChild();
}

// The ncu command line of this step at the page's parameters, and a Copy button.
void DrawNcu(UiState& ui, const Registry& reg, const Lesson& lesson) {
    if (lesson.kind != StepKind::kGpu) return;
    const ParamValues values = ResolveParams(lesson.params, ui.run);
    ui.machine.ncu =
        NcuCommand(lesson, lesson.previous ? reg.FindLesson(lesson.previous) : nullptr, values);
    const bool copied = ImGui::GetTime() - ui.machine.copied_at < 1.5;
    const char* button = copied ? Tr(ui, kCopied) : Tr(ui, kCopy);
    ImGui::TextDisabled("%s", Tr(ui, kNcuLine));
    ImGui::SameLine();
    if (ImGui::SmallButton(button)) {
        ImGui::SetClipboardText(ui.machine.ncu.c_str());
        ui.machine.copied_at = ImGui::GetTime();
    }
    Remember(ui, "ncu_copy");
    // One line, cut to the visible width; the whole command on hover and on the clipboard.
    ImGui::PushFont(ui.fonts.mono);
    const float visible = ImGui::GetWindowContentRegionMax().x - ImGui::GetCursorPosX();
    ImGui::TextDisabled("%s", Elide(ui.machine.ncu, visible).c_str());
    ImGui::PopFont();
    Remember(ui, "ncu_line");
    if (ImGui::IsItemHovered()) {
        Tooltip(ui.machine.ncu);
    }
}

}  // namespace

void DrawLinkedCode(UiState& ui, MachineView& m, const std::vector<std::string>& focus, bool top) {
    // A colour per source line (as Compiler Explorer tints each line and its instructions), the
    // linked one brighter, across both sides.
    static constexpr ImU32 kTints[] = {IM_COL32(90, 150, 220, 150),  IM_COL32(220, 150, 70, 150),
                                       IM_COL32(110, 190, 110, 150), IM_COL32(200, 100, 160, 150),
                                       IM_COL32(160, 140, 230, 150), IM_COL32(90, 190, 190, 150)};
    const ImU32 kLinked = IM_COL32(255, 215, 90, 80);
    const auto tint = [&](int line) { return kTints[size_t(line) % std::size(kTints)]; };
    const float width = ImGui::GetContentRegionAvail().x;
    const float height = ImGui::GetContentRegionAvail().y;
    const auto& classes = InstructionClasses();
    int linked_lines = 0;
    for (const int s : m.line_source) linked_lines += s != 0 && s == m.linked;
    if (ui.probe) {
        ui.probe->linked_source = m.linked;
        ui.probe->linked_listing_lines = m.linked ? linked_lines : 0;
    }
    // A row of `n` lines: the hovered one clicked gives its index.
    const auto clicked_row = [&](ImVec2 p, float row_h) {
        return ImGui::IsWindowHovered() && ImGui::IsMouseClicked(0) &&
               ImGui::IsMouseHoveringRect(p,
                                          ImVec2(p.x + ImGui::GetWindowWidth() * 4, p.y + row_h));
    };

    std::vector<bool> mapped(m.source_lines.size() + 1, false);
    for (const int s : m.line_source)
        if (s > 0 && size_t(s) < mapped.size()) mapped[size_t(s)] = true;
    // The source, on the left; opened at its first line with instructions (the kernel, not the
    // file's header comment).
    if (top) {
        ImGui::SetNextWindowScroll(ImVec2(0, 0));
        const auto first = std::find(mapped.begin(), mapped.end(), true);
        m.scroll_to_source = first == mapped.end() ? 0 : int(first - mapped.begin());
    }
    ImGui::BeginChild("linked_source", ImVec2(width * 0.42f, height), true,
                      ImGuiWindowFlags_HorizontalScrollbar | kNoNavKeys);
    ImGui::PushFont(ui.fonts.mono);
    float row_h = ImGui::GetTextLineHeightWithSpacing();
    if (m.scroll_source && m.linked > 0) {
        ImGui::SetScrollY(
            std::max(0.0f, float(m.linked - 1) * row_h - ImGui::GetWindowHeight() / 3));
        m.scroll_source = false;
    } else if (m.scroll_to_source > 0) {  // that line near the top, two lines above it shown
        ImGui::SetScrollY(std::max(0.0f, float(m.scroll_to_source - 3) * row_h));
        m.scroll_to_source = 0;
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(m.source_lines.size()));
    while (clipper.Step())
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const int line = i + 1;
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float right =
                p.x + std::max(ImGui::GetContentRegionAvail().x, ImGui::GetWindowWidth());
            if (line == m.linked) dl->AddRectFilled(p, ImVec2(right, p.y + row_h), kLinked);
            if (mapped[size_t(line)])
                dl->AddRectFilled(p, ImVec2(p.x + ImGui::GetFontSize() * 0.3f, p.y + row_h),
                                  tint(line));
            ImGui::TextDisabled("%4d", line);
            ImGui::SameLine();
            ImGui::TextUnformatted(m.source_lines[size_t(i)].c_str());
            if (ui.probe)
                ui.probe->rects["linked_source_row_" + std::to_string(line)] =
                    ImVec4(p.x, p.y, right, p.y + row_h);
            if (clicked_row(p, row_h) && mapped[size_t(line)]) {
                m.linked = m.linked == line ? 0 : line;
                m.scroll_listing = m.linked != 0;
                ui.redraw_frames = std::max(ui.redraw_frames, 2);
            }
        }
    ImGui::PopFont();
    ImGui::EndChild();
    Remember(ui, "linked_source_pane");
    ImGui::SameLine();

    // The listing, on the right: each instruction tinted as its source line.
    if (top) ImGui::SetNextWindowScroll(ImVec2(0, 0));
    ImGui::BeginChild("listing", ImVec2(0, height), false,
                      ImGuiWindowFlags_HorizontalScrollbar | kNoNavKeys);
    if (ui.probe) ui.probe->listing_scroll_y = ImGui::GetScrollY();
    ImGui::PushFont(ui.fonts.mono);
    row_h = ImGui::GetTextLineHeightWithSpacing();
    if (m.scroll_listing && m.linked > 0) {
        const auto first = std::find(m.line_source.begin(), m.line_source.end(), m.linked);
        if (first != m.line_source.end())
            ImGui::SetScrollY(std::max(
                0.0f, float(first - m.line_source.begin()) * row_h - ImGui::GetWindowHeight() / 3));
        m.scroll_listing = false;
    }
    if (m.jump_pending && m.jump_line >= 0) {  // a chip's instruction, a third of the way down
        ImGui::SetScrollY(
            std::max(0.0f, float(m.jump_line) * row_h - ImGui::GetWindowHeight() / 3));
        m.jump_pending = false;
    }
    dl = ImGui::GetWindowDrawList();
    ImGuiListClipper listing;
    listing.Begin(static_cast<int>(m.lines.size()));
    while (listing.Step())
        for (int i = listing.DisplayStart; i < listing.DisplayEnd; ++i) {
            const size_t k = size_t(i);
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float right =
                p.x + std::max(ImGui::GetContentRegionAvail().x, ImGui::GetWindowWidth());
            const int from = m.line_source[k];
            const int c = m.line_class[k];
            if (c >= 0 &&
                std::find(focus.begin(), focus.end(), classes[size_t(c)].name) != focus.end())
                dl->AddRectFilled(p, ImVec2(right, p.y + row_h),
                                  ClassColor(classes[size_t(c)].name));
            if (from != 0 && from == m.linked)
                dl->AddRectFilled(p, ImVec2(right, p.y + row_h), kLinked);
            if (i == m.jump_line)
                dl->AddRect(p, ImVec2(right, p.y + row_h), IM_COL32(255, 255, 255, 200), 0, 0, 2);
            if (from > 0)
                dl->AddRectFilled(p, ImVec2(p.x + ImGui::GetFontSize() * 0.3f, p.y + row_h),
                                  tint(from));
            ImGui::TextUnformatted(m.lines[k].data(), m.lines[k].data() + m.lines[k].size());
            if (ui.probe && from > 0 && from == m.linked &&
                !ui.probe->rects.count("linked_listing_row"))
                ui.probe->rects["linked_listing_row"] = ImVec4(p.x, p.y, right, p.y + row_h);
            if (ui.probe && i == 0)
                ui.probe->rects["listing_first_row"] = ImVec4(p.x, p.y, right, p.y + row_h);
            if (clicked_row(p, row_h) && from > 0) {
                m.linked = from;
                m.scroll_source = true;
                ui.redraw_frames = std::max(ui.redraw_frames, 2);
            }
        }
    ImGui::PopFont();
    ImGui::EndChild();
}

void DrawChangedCode(UiState& ui, const Registry& reg, const Lesson& lesson, bool opened) {
    const Lesson* prev = CacheSource(ui, reg, lesson);
    const int changed =
        static_cast<int>(std::count(ui.code_changed.begin(), ui.code_changed.end(), true));
    const size_t n = ui.code_lines.size();
    const auto blank = [&](size_t i) {
        return ui.code_lines[i].find_first_not_of(" \t\r") == std::string::npos;
    };
    const auto comment = [&](size_t i) {
        const size_t at = ui.code_lines[i].find_first_not_of(" \t");
        return at != std::string::npos && ui.code_lines[i].compare(at, 2, "//") == 0;
    };
    // Kept for a few frames: the view's table, and with it the pane, is another from the next
    // frame on, and the pane's scroll bars (which narrow it and rewrap the note) come a frame
    // after its content.
    if (opened) ui.changed_code_jump = 4;
    if (opened && ui.probe) ui.probe->code_open_y = 0;
    int written = 0;
    for (size_t i = 0; i < n; ++i) written += blank(i) ? 0 : 1;
    // A line that goes on into the next (a template's parameters over two lines).
    const auto continued = [&](size_t i) {
        const std::string& l = ui.code_lines[i];
        const size_t last = l.find_last_not_of(" \t\r");
        return last != std::string::npos && l[last] == ',' && !comment(i);
    };
    const auto template_line = [&](size_t i) {
        const size_t at = ui.code_lines[i].find_first_not_of(" \t");
        return at != std::string::npos && ui.code_lines[i].compare(at, 8, "template") == 0;
    };
    // A step that rewrites most of its file (5.8: 221 of its 272 lines) would open on the file's
    // header comment and helpers: it opens at its kernel (its template line first; the comment
    // above it is prose the text says, and would fill a projector's pane).
    size_t kernel_at = n;
    if (prev && changed * 2 > written) {
        for (size_t i = 0; i < n && kernel_at == n; ++i)
            if (ui.code_lines[i].find("__global__") != std::string::npos) kernel_at = i;
        while (kernel_at < n && kernel_at > 0 &&
               (template_line(kernel_at - 1) || (kernel_at > 1 && continued(kernel_at - 2))))
            --kernel_at;
        if (kernel_at == 0) kernel_at = n;  // the file opens with it anyway
    }
    // The note wrapped to what shows of the pane (it scrolls sideways for long code lines).
    ImGui::PushTextWrapPos(ImGui::GetWindowContentRegionMax().x);
    if (prev && changed > 0 && kernel_at < n)
        ImGui::TextDisabled("%s", Fmt(Tr(ui, kRewrittenFrom), changed, written, prev->label.c_str(),
                                      static_cast<int>(kernel_at + 1))
                                      .c_str());
    else if (prev && changed > 0)
        ImGui::TextDisabled("%s",
                            Fmt(Tr(ui, kChangedAgainst), changed, prev->label.c_str()).c_str());
    else
        ImGui::TextDisabled("%s", Tr(ui, kWholeSource));
    ImGui::PopTextWrapPos();
    ImGui::PushFont(ui.fonts.mono);
    // The changed lines with two lines of context each; a run of unchanged lines between them
    // is one grey line saying how many are folded.
    constexpr size_t kContext = 2;
    std::vector<bool> shown(n, !prev || changed == 0);
    for (size_t i = 0; i < n; ++i)
        if (ui.code_changed[i])
            for (size_t j = i > kContext ? i - kContext : 0; j < std::min(n, i + kContext + 1); ++j)
                shown[j] = true;
    for (size_t i = kernel_at; i < n && (i == kernel_at || !shown[i]); ++i) {
        shown[i] = true;  // the kernel's head, whole
        if (ui.code_lines[i].find("__global__") != std::string::npos) break;
    }
    int lines = 0;
    for (size_t i = 0; i < n;) {
        if (shown[i]) {
            // Its top line at the pane's top once the view opens.
            if (i == kernel_at && ui.changed_code_jump > 0) {
                const float y =
                    std::max(0.0f, ImGui::GetCursorPosY() - ImGui::GetStyle().WindowPadding.y);
                ImGui::SetScrollY(y);
                if (ui.probe) ui.probe->code_open_y = y;
                ui.redraw_frames = std::max(ui.redraw_frames, 2);
            }
            SourceLine(ui, i++);
            ++lines;
            continue;
        }
        size_t j = i;
        while (j < n && !shown[j]) ++j;
        ImGui::TextDisabled("%s", Fmt(Tr(ui, kLinesFolded), static_cast<int>(j - i)).c_str());
        i = j;
    }
    ImGui::PopFont();
    ui.changed_code_jump = std::max(ui.changed_code_jump - 1, 0);
    if (ui.probe) {
        ui.probe->presenter_code_lines = lines;
        ui.probe->presenter_code_from = kernel_at < n ? static_cast<int>(kernel_at + 1) : 0;
    }
}

void DrawSass(UiState& ui, const Registry& reg, const Lesson& lesson) {
    DrawMachine(ui, reg, lesson, Isa::kSass, 4);  // its own listing, apart from the SASS tab's
}

void DrawCode(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    DrawNcu(ui, reg, lesson);
    if (!ImGui::BeginTabBar("code_tabs")) return;
    const char* names[] = {Tr(ui, kTabSource), "PTX", "SASS", Tr(ui, kTabExercise)};
    const char* keys[] = {"tab_source", "tab_ptx", "tab_sass", "tab_exercise"};
    const int tabs = FindExercise(lesson.id) ? 4 : 3;
    for (int t = 0; t < tabs; ++t) {
        const std::string label = std::string(names[t]) + "###" + keys[t];
        // A test (or a key) selects a tab by setting ui.machine.select_tab.
        const bool force = ui.machine.select_tab == t;
        const bool open =
            ImGui::BeginTabItem(label.c_str(), nullptr, force ? ImGuiTabItemFlags_SetSelected : 0);
        Remember(ui, keys[t]);
        if (force) ui.machine.select_tab = -1;
        if (!open) continue;
        if (ui.machine.tab != t) {
            // The Exercise tab splits the column its own way (ui.cpp): the next frame lays the
            // panes out again, drawn now rather than at the next event.
            if (t == 3 || ui.machine.tab == 3) ui.redraw_frames = std::max(ui.redraw_frames, 2);
            ui.machine.tab = t;
            ui.machine.lesson = -1;
        }
        if (t == 0)
            DrawSource(ui, reg, lesson);
        else if (t == 3)
            DrawExercise(ui, c, reg, lesson);
        else
            DrawMachine(ui, reg, lesson, t == 1 ? Isa::kPtx : Isa::kSass, t);
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
}

}  // namespace lessons::app
