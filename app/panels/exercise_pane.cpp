// The Exercise tab of the code pane: the task and its hints, the student's kernel in an editor
// with line numbers and the compiler's messages marked on their lines, Compile and Run mine
// (the worker compiles it with NVRTC, and runs it by the step's harness after the previous
// lesson and the step, so the three bars come from one batch), the lesson's own kernel behind
// a button, and "Open in my editor" for the student's own editor: the file is read again and
// compiled whenever it changes. The file lives under the user's data folder (exercise_file.h)
// and is written as the student types: nothing is lost when the window closes, the GUI
// crashes or the worker is restarted.
#include <imgui_internal.h>  // the editor's child window, for its scroll

#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "exercise.h"
#include "model/page_params.h"
#include "panels/panels.h"
#include "probe.h"
#include "words/words_exercise.h"

extern char** environ;

namespace lessons::app {

namespace {

constexpr double kSaveAfterSeconds = 0.4;   // a pause in typing, then the file is written
constexpr double kCheckFileSeconds = 0.75;  // how often the file on disk is looked at
const ImU32 kYoursColor = IM_COL32(240, 150, 60, 255);

// The editor's text grows as typed (ImGui's resize callback), and the caret's line is noted.
struct EditContext {
    std::string* text;
    int cursor = -1;
};

int EditCallback(ImGuiInputTextCallbackData* data) {
    auto* ctx = static_cast<EditContext*>(data->UserData);
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        ctx->text->resize(static_cast<size_t>(data->BufTextLen));
        data->Buf = ctx->text->data();
    } else if (data->EventFlag == ImGuiInputTextFlags_CallbackAlways) {
        ctx->cursor = data->CursorPos;
    }
    return 0;
}

// The context whose clock the editor keeps (SetEditorClock); null: the current one.
ImGuiContext* g_editor_clock = nullptr;

// The editor's clock, in seconds: one clock for the page and the editor's own window (each
// ImGui context keeps its own time, which starts when the context is made), the main window's,
// which advances by its frames' DeltaTime as the rest of the page's timing does.
double EditorClock() {
    const ImGuiContext* context = g_editor_clock ? g_editor_clock : ImGui::GetCurrentContext();
    return context ? context->Time : 0.0;
}

int LineCount(const std::string& text) {
    return 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

// Opens the student's file of `lesson` (its text, else the starting file written there).
void OpenFor(UiState& ui, const Exercise& exercise) {
    UiState::ExerciseView& v = ui.exercise;
    SaveExerciseNow(ui);  // the previous lesson's
    if (!v.dir_asked) {
        v.dir = ExercisesDir();
        v.dir_asked = true;
    }
    v.lesson = exercise.lesson;
    v.problem.clear();
    v.note.clear();
    v.hints_shown = 0;
    v.solution = v.confirm_reset = false;
    v.typed_at = -1;
    v.caret_line = v.goto_line = -1;
    v.editor_top = true;  // another lesson's file opens at its line 1
    const std::string path = v.dir.empty() ? std::string() : ExercisePath(v.dir, exercise.lesson);
    OpenExercise(&v.file, path, StartingFile(exercise), &v.problem);
}

// Starts the program that opens the file in the student's editor: CUDA_LESSONS_EDITOR when set
// (a program given the path), else xdg-open. False when it cannot be started.
bool StartEditor(UiState::ExerciseView& v) {
    if (v.editor_pid > 0 && waitpid(v.editor_pid, nullptr, WNOHANG) != 0) v.editor_pid = 0;
    if (v.editor_pid > 0) return true;  // still starting the editor: once is enough
    const char* named = std::getenv("CUDA_LESSONS_EDITOR");
    const std::string program = named && *named ? named : "xdg-open";
    std::vector<char*> argv{const_cast<char*>(program.c_str()),
                            const_cast<char*>(v.file.path.c_str()), nullptr};
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // Its own session: it outlives the GUI and gets none of its terminal's signals.
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, program.c_str(), nullptr, &attributes, argv.data(), environ);
    posix_spawnattr_destroy(&attributes);
    if (rc != 0) return false;
    v.editor_pid = pid;
    return true;
}

void CheckFile(UiState& ui, Controller& c, const Lesson& lesson) {
    UiState::ExerciseView& v = ui.exercise;
    if (v.editor_pid > 0 && waitpid(v.editor_pid, nullptr, WNOHANG) != 0) v.editor_pid = 0;
    const double now = EditorClock();
    if (v.file.Dirty()) {
        if (v.typed_at >= 0 && now - v.typed_at >= kSaveAfterSeconds) SaveExerciseNow(ui);
        ui.redraw_frames = std::max(ui.redraw_frames, 2);  // until it is saved
        return;                                            // never read over unsaved typing
    }
    if (v.checked_at >= 0 && now - v.checked_at < kCheckFileSeconds) return;
    v.checked_at = now;
    std::string problem;
    if (ReloadIfChanged(&v.file, &problem)) {
        v.note = Tr(ui, kReloadedFromEditor);
        c.SubmitKernel(lesson, ui.run, v.file.text, false);
    } else if (!problem.empty()) {
        v.problem = problem;
    }
}

// The task, and the hints shown so far.
void DrawTask(UiState& ui, const Exercise& exercise) {
    const bool zh = ui.settings.language == "zh";
    ImGui::TextColored(kAccent, "%s", Tr(ui, kExerciseTask));
    DrawWrappedText(zh ? exercise.task_zh : exercise.task_en);
    if (!exercise.fixed.empty()) {
        std::string at;
        for (const ExerciseParam& f : exercise.fixed)
            at += (at.empty() ? "" : ", ") + f.name + " = " + f.value;
        DrawWrappedText(Fmt(Tr(ui, kRunsAt), at.c_str()), &kGrey);
    }
    const int hints = static_cast<int>(exercise.hints.size());
    for (int i = 0; i < std::min(ui.exercise.hints_shown, hints); ++i) {
        ImGui::TextColored(kAmber, "%s", Fmt(Tr(ui, kHintN), i + 1, hints).c_str());
        DrawWrappedText(zh ? exercise.hints[i].zh : exercise.hints[i].en);
    }
    if (ui.exercise.hints_shown < hints) {
        if (ImGui::SmallButton(Tr(ui, kNextHint))) ++ui.exercise.hints_shown;
        Remember(ui, "exercise_hint");
    }
}

// The buttons, the time limit, where the file is saved.
void DrawActions(UiState& ui, Controller& c, const Lesson& lesson, const Exercise& exercise,
                 const Controller::ExerciseAnswer* answer) {
    UiState::ExerciseView& v = ui.exercise;
    const bool busy = answer && answer->pending;
    const bool live = c.Mode(lesson) == LessonMode::kLive;
    ImGui::BeginDisabled(busy);
    if (ImGui::Button(Tr(ui, kCompile))) {
        SaveExerciseNow(ui);
        c.SubmitKernel(lesson, ui.run, v.file.text, false);
    }
    Remember(ui, "exercise_compile");
    ImGui::SameLine();
    ImGui::BeginDisabled(!live);
    if (ImGui::Button(Tr(ui, kRunMine))) {
        SaveExerciseNow(ui);
        c.SubmitKernel(lesson, ui.run, v.file.text, true);
    }
    ImGui::EndDisabled();
    if (!live && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        Tooltip(Tr(ui, kNotRunNoGpu));
    Remember(ui, "exercise_run");
    // Without a GPU it compiles and says it was not checked (never a pass).
    SameLineIfFits(ButtonWidth(Tr(ui, kCheckMine)));
    if (ImGui::Button(Tr(ui, kCheckMine))) {
        SaveExerciseNow(ui);
        c.CheckKernel(lesson, ui.run, v.file.text);
    }
    if (ImGui::IsItemHovered()) Tooltip(Tr(ui, kCheckMineHint));
    Remember(ui, "exercise_check");
    ImGui::EndDisabled();
    // The room of a real editor: the whole page, or a window of its own (a second screen),
    // the compiler's messages beside it.
    if (v.popout_open || ui.drawing_popout) {
        SameLineIfFits(ButtonWidth(Tr(ui, kPutBack)));
        if (ImGui::Button(Tr(ui, kPutBack))) v.popout = false;
        Remember(ui, "exercise_popin");
    } else {
        const char* size_label = Tr(ui, v.maximised ? kRestoreEditor : kMaximiseEditor);
        SameLineIfFits(ButtonWidth(size_label));
        if (ImGui::Button(size_label)) {
            v.maximised = !v.maximised;
            ui.redraw_frames = std::max(ui.redraw_frames, 2);  // the page is laid out anew
        }
        if (ImGui::IsItemHovered() && !v.maximised) Tooltip(Tr(ui, kMaximiseHint));
        Remember(ui, "exercise_maximise");
        SameLineIfFits(ButtonWidth(Tr(ui, kPopOutEditor)));
        if (ImGui::Button(Tr(ui, kPopOutEditor))) {
            SaveExerciseNow(ui);
            v.popout = true;
            v.maximised = false;
            ui.redraw_frames = std::max(ui.redraw_frames, 2);
        }
        if (ImGui::IsItemHovered()) Tooltip(Tr(ui, kPopOutHint));
        Remember(ui, "exercise_popout");
    }
    SameLineIfFits(ButtonWidth(Tr(ui, kOpenInEditor)));
    ImGui::BeginDisabled(v.file.path.empty());
    if (ImGui::Button(Tr(ui, kOpenInEditor))) {
        SaveExerciseNow(ui);
        v.note = StartEditor(v) ? Fmt(Tr(ui, kEditorOpened), v.file.path.c_str())
                                : Fmt(Tr(ui, kNoEditorFound), v.file.path.c_str());
        ImGui::SetClipboardText(v.file.path.c_str());
    }
    ImGui::EndDisabled();
    Remember(ui, "exercise_open_editor");
    SameLineIfFits(ButtonWidth(Tr(ui, kResetExercise)));
    if (ImGui::Button(Tr(ui, kResetExercise))) v.confirm_reset = true;
    Remember(ui, "exercise_reset");
    SameLineIfFits(ButtonWidth(Tr(ui, kHideSolution)));
    if (ImGui::Button(Tr(ui, v.solution ? kHideSolution : kShowSolution))) v.solution = !v.solution;
    Remember(ui, "exercise_solution");

    if (v.confirm_reset) {
        const std::string kept = v.file.path.empty() ? std::string("-") : v.file.path + ".bak";
        ImGui::TextColored(kAmber, "%s", Fmt(Tr(ui, kResetConfirm), kept.c_str()).c_str());
        if (ImGui::SmallButton(Tr(ui, kYesReplace))) {
            std::string problem;
            ResetExercise(&v.file, StartingFile(exercise), &problem);
            v.problem = problem;
            v.confirm_reset = false;
            v.typed_at = -1;
        }
        Remember(ui, "exercise_reset_yes");
        ImGui::SameLine();
        if (ImGui::SmallButton(Tr(ui, kNoKeep))) v.confirm_reset = false;
    }

    float limit = ui.settings.kernel_limit_s;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::SliderFloat(Tr(ui, kTimeLimit), &limit, kMinKernelLimitS, kMaxKernelLimitS, "%.0f",
                           ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
        ui.settings.kernel_limit_s = limit;
    if (ImGui::IsItemHovered()) Tooltip(Tr(ui, kTimeLimitHint));
    Remember(ui, "exercise_limit");
    c.SetKernelTimeLimit(ui.settings.kernel_limit_s);
    if (!v.file.path.empty())
        ImGui::TextDisabled("%s", Fmt(Tr(ui, kSavedAt), v.file.path.c_str()).c_str());
    if (!v.note.empty()) DrawWrappedText(v.note, &kGrey);
    if (!v.problem.empty()) DrawWrappedText(Fmt(Tr(ui, kCannotSave), v.problem.c_str()), &kRed);
}

// The editor: line numbers in a gutter, lines with a compiler message tinted (red for errors,
// amber for warnings; the message on hover), the whole text as tall as its lines so that the
// child window scrolls gutter and text together.
void DrawEditor(UiState& ui, const Controller::ExerciseAnswer* answer, float height,
                bool read_only = false) {
    UiState::ExerciseView& v = ui.exercise;
    ImGui::PushFont(ui.fonts.mono);
    const float line_h = ImGui::GetFontSize();
    const ImVec2 pad = ImGui::GetStyle().FramePadding;
    const int lines = LineCount(v.file.text);
    const float gutter = ImGui::CalcTextSize("0000").x + pad.x * 2;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(22, 22, 28, 255));
    if (v.editor_top) ImGui::SetNextWindowScroll(ImVec2(0, 0));
    v.editor_top = false;
    ImGui::BeginChild("exercise_editor", ImVec2(0, height), true, kNoNavKeys);
    if (ui.probe) ui.probe->editor_scroll_y = ImGui::GetScrollY();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    // Marks of the compiler's messages, one per line (an error wins over a warning).
    std::vector<int> marks(static_cast<size_t>(lines) + 1, 0);
    std::vector<std::string> says(static_cast<size_t>(lines) + 1);
    if (answer && answer->compile)
        for (const CompileReport::Diagnostic& d : answer->compile->diagnostics) {
            // Only the student's lines: a message about the check appended to their file or an
            // included header names that file's lines, not theirs (its chip names the file).
            if (!d.InStudentFile() || d.line > lines) continue;
            const int kind = d.severity == "error" ? 2 : 1;
            marks[d.line] = std::max(marks[d.line], kind);
            says[d.line] += (says[d.line].empty() ? "" : "\n") + d.severity + ": " + d.message;
        }
    if (ui.probe)
        ui.probe->exercise_marked_lines =
            static_cast<int>(std::count_if(marks.begin(), marks.end(), [](int m) { return m; }));
    for (int i = 1; i <= lines; ++i) {
        const float y = origin.y + pad.y + float(i - 1) * line_h;
        if (marks[i])
            dl->AddRectFilled(
                ImVec2(origin.x, y), ImVec2(origin.x + width, y + line_h),
                marks[i] == 2 ? IM_COL32(150, 40, 40, 110) : IM_COL32(150, 110, 30, 100));
        const std::string number = std::to_string(i);
        const float w = ImGui::CalcTextSize(number.c_str()).x;
        dl->AddText(ImVec2(origin.x + gutter - pad.x - w, y),
                    marks[i] == 2   ? IM_COL32(255, 110, 110, 255)
                    : marks[i] == 1 ? IM_COL32(255, 200, 90, 255)
                                    : IM_COL32(110, 110, 120, 255),
                    number.c_str());
        if (marks[i] &&
            ImGui::IsMouseHoveringRect(ImVec2(origin.x, y), ImVec2(origin.x + gutter, y + line_h)))
            Tooltip(says[i]);
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x + gutter, origin.y));
    const float text_h =
        std::max(ImGui::GetContentRegionAvail().y, float(lines + 1) * line_h + pad.y * 2);
    ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0, 0, 0, 0));
    EditContext ctx{&v.file.text};
    const bool changed = ImGui::InputTextMultiline(
        "##kernel", v.file.text.data(), v.file.text.capacity() + 1, ImVec2(width - gutter, text_h),
        ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackResize |
            ImGuiInputTextFlags_CallbackAlways | (read_only ? ImGuiInputTextFlags_ReadOnly : 0),
        EditCallback, &ctx);
    ImGui::PopStyleColor();
    ui.editor_id = ImGui::GetItemID();  // the pop-out's own while it draws (PopoutFocus)
    Remember(ui, "exercise_editor");
    if (changed && !read_only) v.typed_at = EditorClock();
    // Keep the caret in view as it moves past the child's edge (the text never scrolls itself:
    // it is as tall as its lines).
    if (ctx.cursor >= 0 && ImGui::IsItemActive()) {
        const int caret = static_cast<int>(std::count(
            v.file.text.begin(),
            v.file.text.begin() + std::min<size_t>(size_t(ctx.cursor), v.file.text.size()), '\n'));
        if (caret != v.caret_line) {
            v.caret_line = caret;
            const float y = pad.y + float(caret) * line_h;
            const float top = ImGui::GetScrollY(), shown = ImGui::GetWindowHeight();
            if (y < top) ImGui::SetScrollY(y);
            if (y + line_h * 2 > top + shown) ImGui::SetScrollY(y + line_h * 2 - shown);
        }
    } else {
        v.caret_line = -1;
    }
    if (v.goto_line >= 1) {
        ImGui::SetScrollY(std::max(0.0f, pad.y + float(v.goto_line - 3) * line_h));
        v.goto_line = -1;
    }
    ImGui::EndChild();
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

// The compiler's answer: what it made (registers, spills), or its messages, each a button that
// scrolls the editor to its line; the PTX and the log behind headers.
void DrawCompileAnswer(UiState& ui, Controller& c, const Controller::ExerciseAnswer& a, bool live) {
    if (a.pending) {  // and a way out: the worker answers a cancel during a compile
        ImGui::AlignTextToFramePadding();
        ImGui::TextColored(kAmber, "%s", Tr(ui, a.running ? kRunningYours : kCompiling));
        SameLineIfFits(ButtonWidth(Tr(ui, kCancelCompile)));
        if (ImGui::SmallButton(Tr(ui, kCancelCompile))) c.CancelAll();
        Remember(ui, "exercise_cancel");
    }
    if (!a.compile) {
        if (!a.pending && !a.error.empty())
            DrawWrappedText(Fmt(Tr(ui, kNotAnswered), a.error.c_str()), &kRed);
        return;
    }
    const CompileReport& r = *a.compile;
    if (ui.probe) ui.probe->exercise_compile = r.status;
    if (r.ok() && r.has_kernel) {
        // Green only where a run can check it: without a GPU a wrong kernel compiles as well
        // as a right one.
        DrawWrappedText(Fmt(Tr(ui, kCompiledOk), r.arch.c_str(), r.registers, r.spill_bytes,
                            r.shared_bytes, r.stack_bytes),
                        live ? &kGreen : &kGrey);
        if (!live) {
            DrawWrappedText(Tr(ui, kCompiledNotChecked), &kAmber);
            if (ui.probe) ui.probe->exercise_not_checked = true;
        }
        if (!r.arch_note.empty()) DrawWrappedText(Tr(ui, kCompiledWithoutGpu), &kGrey);
    } else if (r.status == "error") {
        int errors = 0, warnings = 0;
        for (const auto& d : r.diagnostics)
            if (d.file != "__nv_name_map") (d.severity == "error" ? errors : warnings)++;
        ImGui::TextColored(kRed, "%s",
                           Fmt(Tr(ui, kCompileErrors), errors, warnings, r.arch.c_str()).c_str());
    } else if (r.status == "unavailable") {
        DrawWrappedText(Fmt(Tr(ui, kNvrtcMissing), r.message.c_str()), &kRed);
    } else {
        DrawWrappedText(Fmt(Tr(ui, kCompileRefused), r.message.c_str()), &kRed);
    }
    int i = 0;
    for (const CompileReport::Diagnostic& d : r.diagnostics) {
        // NVRTC's own file for looking the kernel's name up: its error only repeats, in its
        // internals' words, what the signature check says in ours (review 2026-11-28, 29).
        if (d.file == "__nv_name_map") continue;
        ImGui::PushID(i++);
        // The chip in the page's font ("第 12 行": the monospace font has no CJK glyphs), the
        // compiler's message in the monospace one.
        const bool theirs = d.InStudentFile();
        const std::string where = theirs       ? Fmt(Tr(ui, kLineN), d.line)
                                  : d.line > 0 ? d.file + ":" + std::to_string(d.line)
                                               : std::string("-");
        if (ImGui::SmallButton(where.c_str()) && theirs) ui.exercise.goto_line = d.line;
        if (i == 1) Remember(ui, "exercise_first_diagnostic");
        ImGui::SameLine();
        ImGui::PushFont(ui.fonts.mono);
        DrawWrappedText(d.severity + ": " + d.message, d.severity == "error" ? &kRed : &kAmber);
        ImGui::PopFont();
        ImGui::PopID();
    }
    if (!r.ptx.empty() && ImGui::CollapsingHeader(Tr(ui, kShowPtx))) {
        ImGui::PushFont(ui.fonts.mono);
        ImGui::TextUnformatted(r.ptx.c_str(),
                               r.ptx.c_str() + std::min<size_t>(r.ptx.size(), 60000));
        ImGui::PopFont();
    }
    if (!r.log.empty() && ImGui::CollapsingHeader(Tr(ui, kCompilerLog))) {
        ImGui::PushFont(ui.fonts.mono);
        ImGui::TextUnformatted(r.log.c_str(),
                               r.log.c_str() + std::min<size_t>(r.log.size(), 60000));
        ImGui::PopFont();
    }
    // Why it did not run, when the compile went through (no GPU, a wrong answer, the limit).
    if (!a.pending && r.ok() && !a.error.empty()) {
        if (a.timed_out)
            DrawWrappedText(Fmt(Tr(ui, kTimedOut), ui.settings.kernel_limit_s), &kRed);
        else
            DrawWrappedText(Fmt(Tr(ui, kNotAnswered), a.error.c_str()), &kAmber);
    }
}

// The speed target's verdict, apart from correctness's: met, not met, or why it was not judged.
void DrawSpeed(UiState& ui, const Controller::ExerciseAnswer& a) {
    if (!a.speed) return;
    const Controller::ExerciseAnswer::Speed& s = *a.speed;
    if (!s.judged) {
        const bool zh = ui.settings.language == "zh";
        const std::string& why = zh && !s.why_not_zh.empty() ? s.why_not_zh : s.why_not;
        DrawWrappedText(Fmt(Tr(ui, kSpeedNotJudged), why.c_str()), &kGrey);
        return;
    }
    // The checker's own words where it gives them (the two kernels timed in turn, each median
    // with its interval: within the target, slower by X, or within noise), in the page's
    // language; an older worker's two times otherwise.
    const bool zh = ui.settings.language == "zh";
    if (const std::string& t = zh && !s.text_zh.empty() ? s.text_zh : s.text; !t.empty()) {
        std::string line = t;
        if (!zh && !line.empty()) line[0] = static_cast<char>(std::toupper(line[0]));
        if (!s.passed) line += (zh ? "。" : ". ") + std::string(Tr(ui, kSpeedRightButSlower));
        DrawWrappedText(line, s.passed ? &kGreen : &kAmber);
        return;
    }
    DrawWrappedText(Fmt(Tr(ui, s.passed ? kSpeedMet : kSpeedNotMet), Ms(s.yours_ms).c_str(),
                        Ms(s.step_ms).c_str(), (s.target_ratio - 1) * 100),
                    s.passed ? &kGreen : &kAmber);
}

// "Check my kernel": each hidden case passed or failed, with its first mismatch; the verdict
// (never a pass where the cases did not run).
void DrawCheckAnswer(UiState& ui, const Controller::ExerciseAnswer& a) {
    if (!a.checking) return;
    const bool zh = ui.settings.language == "zh";
    ImGui::Separator();
    ImGui::TextColored(kAccent, "%s", Tr(ui, kCheckMine));
    if (a.pending && a.compiled && a.cases_total > 0)
        ImGui::TextColored(
            kAmber, "%s",
            Fmt(Tr(ui, kCheckingYours),
                std::min(static_cast<int>(a.cases.size()) + 1, a.cases_total), a.cases_total)
                .c_str());
    int failed = 0;
    for (size_t i = 0; i < a.cases.size(); ++i) {
        const Controller::ExerciseAnswer::Case& k = a.cases[i];
        failed += k.passed ? 0 : 1;
        ImGui::PushID(static_cast<int>(i));
        ImGui::TextColored(k.passed ? kGreen : kRed, "%s",
                           Tr(ui, k.passed ? kCasePassed : kCaseFailed));
        ImGui::SameLine();
        DrawWrappedText(zh && !k.name_zh.empty() ? k.name_zh : k.name);
        if (!k.passed) {
            const std::string& m = zh && !k.message_zh.empty() ? k.message_zh : k.message;
            ImGui::Indent();
            DrawWrappedText(Fmt(Tr(ui, kFirstMismatch), m.c_str()), &kAmber);
            ImGui::Unindent();
        }
        ImGui::PopID();
    }
    if (ui.probe) {
        ui.probe->check_cases = static_cast<int>(a.cases.size());
        ui.probe->check_failed = failed;
        ui.probe->check_state = !a.check_done                                  ? "pending"
                                : !a.checked                                   ? "not checked"
                                : a.check_passed && a.wrong_at_default.empty() ? "passed"
                                                                               : "failed";
    }
    if (a.pending && !a.check_done && !a.timing.empty())
        ImGui::TextColored(kAmber, "%s", Tr(ui, a.timing == "yours" ? kTimingYours : kTimingStep));
    if (!a.check_done) return;
    if (!a.checked) {
        DrawWrappedText(Tr(ui, kCheckNotChecked), &kAmber);
        const std::string& why = zh && !a.not_checked_zh.empty() ? a.not_checked_zh : a.not_checked;
        if (!why.empty()) DrawWrappedText(why, &kGrey);
        if (ui.probe) ui.probe->exercise_not_checked = true;
        DrawSpeed(ui, a);
        return;
    }
    const int total = static_cast<int>(a.cases.size());
    if (!a.wrong_at_default.empty())
        DrawWrappedText(
            Fmt(Tr(ui, kWrongAtDefault),
                (zh && !a.wrong_at_default_zh.empty() ? a.wrong_at_default_zh : a.wrong_at_default)
                    .c_str()),
            &kRed);
    else if (a.check_passed)
        DrawWrappedText(Fmt(Tr(ui, kCheckPassed), total), &kGreen);
    else if (failed == 0 && a.change_judged && !a.change_present)
        DrawWrappedText(Fmt(Tr(ui, kCheckRightNoChange), total), &kRed);
    else
        DrawWrappedText(Fmt(Tr(ui, kCheckFailed), failed, total), &kRed);
    DrawSpeed(ui, a);
    // The third verdict: the step's change is in the kernel (the checker's words, both languages).
    const std::string& change = zh && !a.change_text_zh.empty() ? a.change_text_zh : a.change_text;
    if (!change.empty())
        DrawWrappedText(change, !a.change_judged ? &kGrey : a.change_present ? &kGreen : &kRed);
}

// The student's newest run beside the previous lesson and the step at the page's settings:
// three bars in milliseconds, and whether theirs matched the CPU reference.
void DrawComparison(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson,
                    const Controller::ExerciseAnswer& a) {
    if (!a.result) return;
    ImGui::Separator();
    ImGui::TextColored(kAccent, "%s", Tr(ui, kYoursVsStep));
    struct Row {
        std::string name;
        const RunResult* r;
        ImU32 color;
    };
    std::vector<Row> rows;
    // The step's bars at the choices the student's kernel is written for, as they were run
    // (Controller::SubmitKernel), whatever the page's controls show now.
    const RunSettings at = AtExerciseChoices(lesson, ui.run);
    if (const Lesson* prev = lesson.previous ? reg.FindLesson(lesson.previous) : nullptr)
        if (const RunResult* r = ShownResult(c, reg, *prev, at))
            rows.push_back({Fmt(Tr(ui, kLessonN), prev->label.c_str()), r, kPreviousColor});
    if (const RunResult* r = ShownResult(c, reg, lesson, at))
        rows.push_back({Fmt(Tr(ui, kLessonN), lesson.label.c_str()), r, kCurrentColor});
    rows.push_back({Tr(ui, kYours), &*a.result, kYoursColor});
    double top = 0;
    for (const Row& row : rows) top = std::max(top, row.r->median_ms);
    const float name_w = ImGui::GetFontSize() * 6, text_w = ImGui::GetFontSize() * 6;
    const float bar_w = std::max(ImGui::GetContentRegionAvail().x - name_w - text_w, 20.0f);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (const Row& row : rows) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::TextUnformatted(row.name.c_str());
        const float h = ImGui::GetTextLineHeight();
        const float w = top > 0 ? float(row.r->median_ms / top) * bar_w : 0;
        dl->AddRectFilled(ImVec2(p.x + name_w, p.y + 2), ImVec2(p.x + name_w + w, p.y + h - 2),
                          row.color);
        ImGui::SameLine(name_w + bar_w + ImGui::GetStyle().ItemSpacing.x);
        ImGui::Text("%s ms%s", Ms(row.r->median_ms).c_str(), row.r->recorded ? " *" : "");
    }
    if (ui.probe) {
        ui.probe->exercise_yours_ms = a.result->median_ms;
        ui.probe->exercise_bars = static_cast<int>(rows.size());
    }
    if (a.result->verified)
        ImGui::TextColored(kGreen, "%s", Tr(ui, kYourResultRight));
    else
        DrawWrappedText(Fmt(Tr(ui, kYourResultWrong), a.result->check_message.c_str()), &kRed);
}

}  // namespace

void SetEditorClock(ImGuiContext* context) {
    g_editor_clock = context;
}

void SaveExerciseNow(UiState& ui) {
    UiState::ExerciseView& v = ui.exercise;
    if (!v.file.Dirty()) return;
    std::string problem;
    if (SaveExercise(&v.file, &problem))
        v.problem.clear();
    else
        v.problem = problem;
    v.typed_at = -1;
}

namespace {

// The lesson's own kernel, below the editor once asked for.
void DrawSolution(UiState& ui, const Lesson& lesson) {
    if (!ui.exercise.solution) return;
    ImGui::Separator();
    ImGui::TextColored(kAccent, "%s", Tr(ui, kSolutionTitle));
    ImGui::PushFont(ui.fonts.mono);
    try {
        ImGui::TextUnformatted(SolutionOf(lesson).c_str());
    } catch (const std::exception& e) {
        ImGui::TextColored(kRed, "%s", e.what());
    }
    ImGui::PopFont();
}

// The editor maximised: the whole page, the buttons and the editor as tall as the window on
// the left; beside it, past a handle that moves the line between them, the compiler's answer
// (its messages, each a button to its line), the check, the comparison, the task and its hints.
void DrawMaximised(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson,
                   const Exercise& exercise, const Controller::ExerciseAnswer* answer, bool live) {
    UiState::ExerciseView& v = ui.exercise;
    const float font = ImGui::GetFontSize();
    const float avail_w = ImGui::GetContentRegionAvail().x;
    const float avail_h = ImGui::GetContentRegionAvail().y;
    const float lo = std::min(font * 16, avail_w * 0.4f), hi = std::max(lo, avail_w - font * 12);
    float editor_w = std::clamp(avail_w * v.editor_share, lo, hi);
    ImGui::BeginChild("exercise_editor_side", ImVec2(editor_w, avail_h), false, kNoNavKeys);
    DrawActions(ui, c, lesson, exercise, answer);
    DrawEditor(ui, answer, std::max(ImGui::GetContentRegionAvail().y, font * 10));
    ImGui::EndChild();
    ImGui::SameLine(0, 0);
    if (Splitter(ui, "exercise_splitter", true, avail_h, &editor_w, lo, hi))
        v.editor_share = editor_w / std::max(avail_w, 1.0f);
    ImGui::SameLine(0, 0);
    ImGui::BeginChild("exercise_messages", ImVec2(0, avail_h), false, kNoNavKeys);
    ImGui::TextColored(kAccent, "%s", Tr(ui, kCompilerMessages));
    if (answer) {
        DrawCompileAnswer(ui, c, *answer, live);
        DrawCheckAnswer(ui, *answer);
        DrawComparison(ui, c, reg, lesson, *answer);
    }
    ImGui::Separator();
    DrawTask(ui, exercise);
    DrawSolution(ui, lesson);
    ImGui::EndChild();
    Remember(ui, "exercise_messages_pane");
}

}  // namespace

void DrawExercise(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    const Exercise* exercise = FindExercise(lesson.id);
    if (!exercise) return;
    if (ui.exercise.lesson != lesson.id) OpenFor(ui, *exercise);
    CheckFile(ui, c, lesson);
    const Controller::ExerciseAnswer* answer = c.Exercise(lesson);
    if (ui.probe) ui.probe->code_drawn = true;
    const bool live = c.Mode(lesson) == LessonMode::kLive;
    if (ui.exercise.popout_open) {
        // The editor is in its own window: the page shows the same text, read only, as it is
        // typed there (one text, ui.exercise.file, which only that window edits).
        DrawTask(ui, *exercise);
        DrawWrappedText(Tr(ui, kPoppedOut), &kAmber);
        DrawActions(ui, c, lesson, *exercise, answer);
        const float rows = float(LineCount(ui.exercise.file.text) + 2) * ImGui::GetFontSize();
        DrawEditor(ui, answer, std::max(rows, ImGui::GetFontSize() * 10), true);
        if (answer) DrawCompileAnswer(ui, c, *answer, live);
        return;
    }
    if (ui.exercise.maximised) {
        DrawMaximised(ui, c, reg, lesson, *exercise, answer, live);
        return;
    }
    DrawParsons(ui, c, lesson);
    DrawTask(ui, *exercise);
    ImGui::Spacing();
    DrawActions(ui, c, lesson, *exercise, answer);
    const float avail = ImGui::GetContentRegionAvail().y;
    const float rows = float(LineCount(ui.exercise.file.text) + 2) * ImGui::GetFontSize();
    DrawEditor(ui, answer,
               std::clamp(rows, ImGui::GetFontSize() * 10,
                          std::max(avail * 0.7f, ImGui::GetFontSize() * 10)));
    if (answer) {
        DrawCompileAnswer(ui, c, *answer, live);
        DrawCheckAnswer(ui, *answer);
        DrawComparison(ui, c, reg, lesson, *answer);
    }
    DrawSolution(ui, lesson);
}

// The editor's own window (main.cpp's EditorPopout, its own ImGui context): the whole window,
// laid out as the maximised editor is, for the lesson the page shows; without an exercise
// there, says so and offers the way back.
void DrawExercisePopout(UiState& ui, Controller& c, const Registry& reg) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    ImGui::Begin("exercise_popout", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
    // ImGui's own tabbing off: PopoutFocus moves through its controls, as on the page.
    PushNoTabStop();
    auto end = [] {
        PopNoTabStop();
        ImGui::End();
    };
    const Lesson* lesson = CurrentLesson(ui, reg);
    const Exercise* exercise = lesson ? FindExercise(lesson->id) : nullptr;
    if (!lesson || !exercise) {
        DrawWrappedText(Tr(ui, kNoExerciseHere), &kAmber);
        if (ImGui::Button(Tr(ui, kPutBack))) ui.exercise.popout = false;
        Remember(ui, "exercise_popin");
        end();
        return;
    }
    if (ui.exercise.lesson != lesson->id) OpenFor(ui, *exercise);
    CheckFile(ui, c, *lesson);
    ImGui::TextColored(
        kAccent, "%s",
        Elide(lesson->label + "  " + LessonTitle(ui, *lesson), ImGui::GetContentRegionAvail().x)
            .c_str());
    DrawMaximised(ui, c, reg, *lesson, *exercise, c.Exercise(*lesson),
                  c.Mode(*lesson) == LessonMode::kLive);
    end();
}

}  // namespace lessons::app
