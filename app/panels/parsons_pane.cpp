// The Parsons problem's part of the Exercise tab (lessons/parsons.h): the key step's kernel core
// cut into lines and shuffled by the student's seed, with a few wrong lines. The student orders
// the lines by dragging them, or by keyboard (a line selected with Space, moved with Alt+Up and
// Alt+Down, set aside or put back with Delete) or the buttons; "Check order" assembles the
// kernel and the worker compiles it and runs it over the exercise's hidden cases, as "Check my
// kernel" does. What is out of place is said at once (not what goes there); the compiler's
// messages are given by place; each attempt is kept in the progress file (ui.cpp).
#include <algorithm>

#include "panels/panels.h"
#include "panels/ui.h"
#include "parsons.h"
#include "probe.h"
#include "progress.h"
#include "text_lines.h"
#include "words/words_exercise.h"
#include "words/words_parsons.h"

namespace lessons::app {

namespace {

#if IMGUI_VERSION_NUM >= 18700
constexpr ImGuiKey kKeyDelete = ImGuiKey_Delete;
#else
constexpr ImGuiKey kKeyDelete = 261;  // GLFW_KEY_DELETE, as the 1.86 backend writes it
#endif

void OpenFor(UiState::ParsonsView& v, const ParsonsProblem& problem) {
    const bool open = v.open;
    v = UiState::ParsonsView{};
    v.open = open;
    v.lesson = problem.lesson;
    v.seed = ParsonsSeed(StudentName(), problem.lesson);
    v.shown = ParsonsShuffle(problem, v.seed);
    for (size_t i = 0; i < v.shown.size(); ++i) v.arranged.push_back(static_cast<int>(i) + 1);
}

// Moves the selected line `by` places within the order (a line set aside does not move).
void Move(UiState::ParsonsView& v, int by) {
    const auto it = std::find(v.arranged.begin(), v.arranged.end(), v.selected);
    if (it == v.arranged.end()) return;
    const auto at = it - v.arranged.begin();
    const auto to = at + by;
    if (to < 0 || to >= static_cast<std::ptrdiff_t>(v.arranged.size())) return;
    std::swap(v.arranged[static_cast<size_t>(at)], v.arranged[static_cast<size_t>(to)]);
}

// Sets the selected line aside, or puts it back at the end of the order.
void ToggleAside(UiState::ParsonsView& v) {
    if (const auto it = std::find(v.arranged.begin(), v.arranged.end(), v.selected);
        it != v.arranged.end()) {
        v.arranged.erase(it);
        v.aside.push_back(v.selected);
    } else if (const auto a = std::find(v.aside.begin(), v.aside.end(), v.selected);
               a != v.aside.end()) {
        v.aside.erase(a);
        v.arranged.push_back(v.selected);
    }
}

// The lines in order, each a selectable row (its place, then the line as the code's braces
// indent it) that can be dragged to another place.
void DrawOrder(UiState& ui, const ParsonsProblem& problem, bool marks) {
    UiState::ParsonsView& v = ui.parsons;
    std::vector<std::string> texts;
    for (const int place : v.arranged) texts.push_back(problem.pool(v.shown[size_t(place) - 1]));
    const std::string code = IndentParsons(texts, "");
    const std::vector<std::string_view> indented = SplitLines(code);
    ImGui::PushFont(ui.fonts.mono);
    for (size_t i = 0; i < v.arranged.size(); ++i) {
        const int place = v.arranged[i];
        ImGui::PushID(place);
        const bool out = marks && std::find(v.out_of_place.begin(), v.out_of_place.end(),
                                            static_cast<int>(i) + 1) != v.out_of_place.end();
        ImGui::TextColored(out ? kRed : kGrey, "%s%2d", out ? "x" : " ", static_cast<int>(i) + 1);
        ImGui::SameLine();
        const std::string line(i < indented.size() ? indented[i] : std::string_view(texts[i]));
        if (ImGui::Selectable(line.empty() ? " " : line.c_str(), v.selected == place))
            v.selected = place;
        Remember(ui, ("parsons_line_" + std::to_string(place)).c_str());
        // Dragged past its neighbour: the two change places (ImGui's own reordering pattern).
        if (ImGui::IsItemActive() && !ImGui::IsItemHovered()) {
            const float dy = ImGui::GetMouseDragDelta(0).y;
            const std::ptrdiff_t next = static_cast<std::ptrdiff_t>(i) + (dy < 0 ? -1 : 1);
            if (dy != 0 && next >= 0 && next < static_cast<std::ptrdiff_t>(v.arranged.size())) {
                std::swap(v.arranged[i], v.arranged[static_cast<size_t>(next)]);
                v.selected = place;
                ImGui::ResetMouseDragDelta();
            }
        }
        ImGui::PopID();
    }
    ImGui::PopFont();
}

void DrawAside(UiState& ui, const ParsonsProblem& problem) {
    UiState::ParsonsView& v = ui.parsons;
    ImGui::TextColored(kAccent, "%s", Tr(ui, kParsonsAsideTitle));
    if (v.aside.empty()) {
        ImGui::TextDisabled("%s", Tr(ui, kParsonsNoneAside));
        return;
    }
    ImGui::PushFont(ui.fonts.mono);
    for (const int place : v.aside) {
        ImGui::PushID(1000 + place);
        if (ImGui::Selectable(problem.pool(v.shown[size_t(place) - 1]).c_str(),
                              v.selected == place))
            v.selected = place;
        Remember(ui, ("parsons_aside_" + std::to_string(place)).c_str());
        ImGui::PopID();
    }
    ImGui::PopFont();
}

// The answer to the newest "Check order": what is out of place (at once), then the compiler's
// messages by place, then the hidden cases' verdict.
std::string DrawAnswer(UiState& ui, const Controller::ExerciseAnswer* a) {
    UiState::ParsonsView& v = ui.parsons;
    if (v.checked.empty()) return "";
    const bool zh = ui.settings.language == "zh";
    if (v.checked != v.arranged) DrawWrappedText(Tr(ui, kParsonsChanged), &kAmber);
    if (!v.out_of_place.empty()) {
        std::string places;
        for (size_t i = 0; i < v.out_of_place.size(); ++i)
            places += (i ? (zh ? "、" : ", ") : "") + std::to_string(v.out_of_place[i]);
        DrawWrappedText(Fmt(Tr(ui, kParsonsOutOfPlace), places.c_str()), &kAmber);
    } else if (v.missing == 0) {
        DrawWrappedText(Tr(ui, kParsonsInOrder), &kGreen);
    }
    if (v.missing > 0) DrawWrappedText(Fmt(Tr(ui, kParsonsMissing), v.missing), &kAmber);
    if (!a) return "";
    if (a->pending) {
        ImGui::TextColored(kAmber, "%s", Tr(ui, kParsonsChecking));
        return "pending";
    }
    if (a->compile && a->compile->status == "error") {
        int errors = 0;
        for (const auto& d : a->compile->diagnostics) errors += d.severity == "error" ? 1 : 0;
        ImGui::TextColored(kRed, "%s", Fmt(Tr(ui, kParsonsNoCompile), errors).c_str());
        for (const CompileReport::Diagnostic& d : a->compile->diagnostics) {
            const int place = d.InStudentFile() ? d.line - v.first_line + 1 : 0;
            const bool yours = place >= 1 && place <= static_cast<int>(v.checked.size());
            const std::string where =
                yours
                    ? Fmt(Tr(ui, kParsonsPlaceN), place)
                    : std::string(Tr(ui, d.InStudentFile() ? kParsonsOutside : kParsonsCheckFile));
            ImGui::TextColored(kAmber, "%s:", where.c_str());
            ImGui::SameLine();
            ImGui::PushFont(ui.fonts.mono);
            DrawWrappedText(d.severity + ": " + d.message, d.severity == "error" ? &kRed : &kAmber);
            ImGui::PopFont();
        }
        return "did not compile";
    }
    if (a->compile && a->compile->ok())
        DrawWrappedText(Fmt(Tr(ui, kParsonsCompiled), a->compile->arch.c_str()), &kGrey);
    if (!a->check_done) {
        if (!a->error.empty()) DrawWrappedText(Fmt(Tr(ui, kNotAnswered), a->error.c_str()), &kRed);
        return a->error.empty() ? "" : "error";
    }
    if (!a->checked) {
        DrawWrappedText(Tr(ui, kCheckNotChecked), &kAmber);
        const std::string& why =
            zh && !a->not_checked_zh.empty() ? a->not_checked_zh : a->not_checked;
        if (!why.empty()) DrawWrappedText(why, &kGrey);
        return "not checked";
    }
    int failed = 0;
    const Controller::ExerciseAnswer::Case* first = nullptr;
    for (const auto& k : a->cases)
        if (!k.passed) {
            ++failed;
            if (!first) first = &k;
        }
    const int total = static_cast<int>(a->cases.size());
    if (a->check_passed) {
        DrawWrappedText(Fmt(Tr(ui, kParsonsSolved), total), &kGreen);
        return "solved";
    }
    DrawWrappedText(Fmt(Tr(ui, kParsonsWrong), failed, total), &kRed);
    if (first) {
        const std::string& name = zh && !first->name_zh.empty() ? first->name_zh : first->name;
        const std::string& m =
            zh && !first->message_zh.empty() ? first->message_zh : first->message;
        DrawWrappedText(name + ": " + Fmt(Tr(ui, kFirstMismatch), m.c_str()), &kAmber);
    }
    return "wrong";
}

}  // namespace

void DrawParsons(UiState& ui, Controller& c, const Lesson& lesson) {
    const ParsonsProblem* problem = FindParsons(lesson.id);
    if (!problem) return;
    UiState::ParsonsView& v = ui.parsons;
    if (v.lesson != lesson.id) OpenFor(v, *problem);
    if (ui.probe && ui.probe->open_all) ImGui::SetNextItemOpen(true);
    v.open = ImGui::CollapsingHeader(Tr(ui, kParsonsTitle));
    Remember(ui, "parsons_header");
    if (ui.probe) ui.probe->parsons_drawn = true;
    if (!v.open) return;
    ImGui::PushID("parsons");
    DrawWrappedText(
        Fmt(Tr(ui, kParsonsTask), problem->kernel.c_str(), static_cast<int>(problem->core.size())));
    const std::string seed = std::to_string(v.seed);
    DrawWrappedText(Fmt(Tr(ui, kParsonsSeed), seed.c_str(), lesson.label.c_str(), seed.c_str()),
                    &kGrey);
    if (const auto kept = ui.progress.progress.parsons.find(lesson.id);
        kept != ui.progress.progress.parsons.end() && kept->second.solved)
        DrawWrappedText(Fmt(Tr(ui, kParsonsSolvedBefore), kept->second.solved_at.c_str()), &kGreen);
    const bool around = ImGui::TreeNode(Tr(ui, kParsonsAround));
    Remember(ui, "parsons_context");
    if (around) {
        ImGui::PushFont(ui.fonts.mono);
        ImGui::TextUnformatted(
            (problem->context_before + problem->indent + "[ ... ]\n" + problem->context_after)
                .c_str());
        ImGui::PopFont();
        ImGui::TreePop();
    }

    // Alt+Up and Alt+Down move the selected line (held: on and on), Delete sets it aside or puts
    // it back, once a press (not while a text field takes the keys).
    const ImGuiIO& io = ImGui::GetIO();
    if (v.selected > 0 && !io.WantTextInput) {
        if (io.KeyAlt && ImGui::IsKeyPressed(kKeyUp)) Move(v, -1);
        if (io.KeyAlt && ImGui::IsKeyPressed(kKeyDown)) Move(v, 1);
        if (ImGui::IsKeyPressed(kKeyDelete, false)) ToggleAside(v);  // held: not back again
    }

    ImGui::TextColored(kAccent, "%s", Tr(ui, kParsonsYourLines));
    DrawOrder(ui, *problem, v.checked == v.arranged);
    if (v.arranged.empty()) ImGui::TextDisabled("%s", Tr(ui, kParsonsEmpty));

    const bool any = v.selected > 0;
    const bool in_order =
        std::find(v.arranged.begin(), v.arranged.end(), v.selected) != v.arranged.end();
    const auto* answer = c.Parsons(lesson);
    const bool busy = answer && answer->pending;
    ImGui::BeginDisabled(!any || !in_order);
    if (ImGui::SmallButton(Tr(ui, kParsonsUp))) Move(v, -1);
    Remember(ui, "parsons_up");
    SameLineIfFits(ButtonWidth(Tr(ui, kParsonsDown)));
    if (ImGui::SmallButton(Tr(ui, kParsonsDown))) Move(v, 1);
    Remember(ui, "parsons_down");
    ImGui::EndDisabled();
    const char* aside_label = Tr(ui, in_order || !any ? kParsonsSetAside : kParsonsPutBack);
    SameLineIfFits(ButtonWidth(aside_label));
    ImGui::BeginDisabled(!any);
    if (ImGui::SmallButton(aside_label)) ToggleAside(v);
    Remember(ui, "parsons_set_aside");
    ImGui::EndDisabled();
    if (!any && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        Tooltip(Tr(ui, kParsonsSelectFirst));
    SameLineIfFits(ButtonWidth(Tr(ui, kParsonsCheck)));
    ImGui::BeginDisabled(busy || v.arranged.empty());
    if (ImGui::Button(Tr(ui, kParsonsCheck))) {
        const ParsonsAttempt a = AssembleParsons(*problem, v.shown, v.arranged);
        v.checked = v.arranged;
        v.out_of_place = a.out_of_place;
        v.missing = a.missing;
        v.first_line = a.first_line;
        c.CheckParsons(lesson, ui.run, a.source);
    }
    Remember(ui, "parsons_check");
    ImGui::EndDisabled();
    SameLineIfFits(ButtonWidth(Tr(ui, kParsonsReshuffle)));
    if (ImGui::SmallButton(Tr(ui, kParsonsReshuffle))) {
        OpenFor(v, *problem);
        v.open = true;
    }
    Remember(ui, "parsons_reshuffle");
    DrawAside(ui, *problem);
    const std::string result = DrawAnswer(ui, answer);
    ImGui::Separator();
    ImGui::PopID();
    if (ui.probe) {
        ui.probe->parsons_order = v.arranged;
        ui.probe->parsons_aside = v.aside;
        ui.probe->parsons_selected = v.selected;
        // A check's answer is about the order it was given: once a line has moved since, it is
        // no answer for the order shown (a script waiting for the next answer would take the
        // last one's).
        const bool current = v.checked == v.arranged;
        ui.probe->parsons_result = current ? result : "";
        ui.probe->parsons_out_of_place = current ? v.out_of_place : std::vector<int>{};
    }
}

}  // namespace lessons::app
