// The frame: the lesson list on the left, the lesson page (text and code on one side,
// controls, charts and results on the other), the status bar; keys; debounced auto-run.
// Each panel is drawn by its own file (panels.h).
#include "panels/ui.h"

#include <imgui_internal.h>  // SetNextWindowScroll (public from ImGui 1.87)

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "exercise.h"
#include "glossary.h"
#include "host.h"
#include "model/compare.h"
#include "model/sweeps.h"
#include "panels/page_view.h"
#include "panels/panels.h"
#include "probe.h"
#include "text/lesson_text.h"
#include "words/words_exercise.h"
#include "words/words_machine.h"
#include "words/words_page.h"
#include "words/words_parsons.h"
#include "words/words_student.h"

namespace lessons::app {

namespace {

// Whether the item Remember names is a control the keyboard focus stops at: not a pane, a
// splitter (the mouse drags it) or a chart's hover area; and, in the lesson list, only the
// lesson shown (the list is one stop: the arrows move through it).
bool IsFocusStop(const UiState& ui, std::string_view name) {
    auto ends = [&](std::string_view tail) {
        return name.size() >= tail.size() && name.substr(name.size() - tail.size()) == tail;
    };
    if (ends("_pane") || ends("_splitter") || ends("_chart") || ends("_inset") ||
        name == "presenter_chart" || name == "title" || name == "first_run_page")
        return false;
    if (name.rfind("lesson_", 0) == 0 && name != "lesson_filter")  // every match while filtered
        return name.substr(7) == ui.settings.lesson || ui.lesson_filter[0] != '\0';
    return true;
}

}  // namespace

void Remember(UiState& ui, const char* name) {
    const ImGuiID id = ImGui::GetItemID();
    if (ui.drawing_popout) {  // the editor's own window: its controls, in its own focus ring
        if (id != 0 && !(ImGui::GetItemFlags() & ImGuiItemFlags_Disabled) &&
            IsFocusStop(ui, name)) {
            const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
            ImDrawList* dl = ImGui::GetWindowDrawList();
            const ImVec2 c0 = dl->GetClipRectMin(), c1 = dl->GetClipRectMax();
            ui.focus_drawn.push_back({id, ImGui::GetCurrentWindow(), a.x, a.y, b.x, b.y, c0.x, c0.y,
                                      c1.x, c1.y, std::string("popout_") + name});
        }
        if (!ui.probe) return;
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        ui.probe->rects[std::string("popout_") + name] = ImVec4(a.x, a.y, b.x, b.y);
        return;
    }
    if (id != 0 && !(ImGui::GetItemFlags() & ImGuiItemFlags_Disabled) && IsFocusStop(ui, name)) {
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const ImVec2 c0 = dl->GetClipRectMin(), c1 = dl->GetClipRectMax();
        ui.focus_drawn.push_back(
            {id, ImGui::GetCurrentWindow(), a.x, a.y, b.x, b.y, c0.x, c0.y, c1.x, c1.y, name});
    }
    if (!ui.probe) return;
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    ui.probe->rects[name] = ImVec4(a.x, a.y, b.x, b.y);
    if (id != 0 && id == ImGui::GetActiveID()) ui.probe->active = name;
}

void Changed(UiState& ui) {
    ui.changed_at = ImGui::GetTime();
}

std::string LessonTitle(const UiState& ui, const Lesson& lesson) {
    if (ui.settings.language != "zh") return lesson.title;
    const std::string zh = TitleFromText(lesson.text_zh);
    if (zh.empty()) RecordTranslationMiss(lesson.title);
    return zh.empty() ? lesson.title : zh;
}

std::string ChapterTitle(const UiState& ui, const Chapter& chapter) {
    if (ui.settings.language != "zh") return chapter.title;
    if (chapter.title_zh.empty()) RecordTranslationMiss(chapter.title);
    return chapter.title_zh.empty() ? chapter.title : chapter.title_zh;
}

std::string Elide(const std::string& text, float width) {
    const float full = ImGui::CalcTextSize(text.c_str()).x;
    if (full <= width) return text;
    const std::string ellipsis = "\xE2\x80\xA6";  // U+2026
    // Start from a proportional guess, then step back a character at a time.
    size_t n =
        std::min(text.size(), static_cast<size_t>(static_cast<float>(text.size()) *
                                                  std::max(width, 0.0f) / std::max(full, 1.0f)) +
                                  1);
    while (n > 0) {
        while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
        const std::string cut = text.substr(0, n) + ellipsis;
        if (ImGui::CalcTextSize(cut.c_str()).x <= width) return cut;
        if (n == 0) break;  // not even the first character fits: n must not wrap below 0
        --n;
    }
    return ellipsis;
}

void SameLineIfFits(float width) {
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

float ButtonWidth(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
}

float CheckWidth(const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
           ImGui::CalcTextSize(label, nullptr, true).x;
}

std::string Ms(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ms < 0.1 ? "%.4f" : ms < 10 ? "%.3f" : "%.1f", ms);
    return buf;
}

void SelectLesson(UiState& ui, const Registry& registry, std::string_view name) {
    const auto& all = registry.lessons();
    if (all.empty()) return;
    const Lesson* lesson = name.empty() ? nullptr : registry.FindLesson(name);
    if (!lesson) lesson = &all.front();
    ui.settings.lesson = lesson->id;
    const Lesson* before = ui.shown_lesson.empty() ? nullptr : registry.FindLesson(ui.shown_lesson);
    CarryParams(before ? before->chapter : std::string(), lesson->chapter, &ui.run,
                &ui.kept_params);
    KeepParams(*lesson, &ui.run);
    ui.settings.visited.insert(lesson->id);
    if (before != lesson) {
        ui.arrival.scroll_top = ui.arrival.scroll_list = ui.arrival.settings = true;
        ui.arrival.tuned = true;
        ui.tuned_note.clear();
        ui.arrival.entering_chapter = !before || before->chapter != lesson->chapter;
        ui.redraw_frames = 2;  // the lesson list scrolls to it in the next frame
        if (ui.probe) ui.probe->code_open_y = 0;
    }
    if (before != lesson) ui.presenter_section = 0;
    ui.shown_lesson = lesson->id;
    ui.host_available_at = -1;  // the memory caps are read again for the page shown
}

void ApplyArrival(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson) {
    if (!ui.arrival.settings || c.AwaitingList()) return;
    ui.arrival.settings = false;
    if (ui.explicit_params) {  // --size: the first page opens as asked
        ui.explicit_params = false;
        return;
    }
    if (const auto values = RecordedSettings(c, reg, lesson, ui.run, ui.arrival.entering_chapter)) {
        for (const auto& [name, v] : *values) SetParam(&ui.run, name, v);
        KeepParams(lesson, &ui.run);
    }
}

void ApplyTuned(UiState& ui, const Controller& c, const Lesson& lesson) {
    if (!ui.arrival.tuned || c.AwaitingList()) return;
    if (c.Mode(lesson) != LessonMode::kLive) {
        ui.arrival.tuned = false;
        return;
    }
    const std::string machine = c.MachineFor(lesson);
    if (machine.empty()) return;  // the worker's info is on its way
    ui.arrival.tuned = false;
    // Read at each lesson's arrival: a small file, which `cuda-lessons-cli tune` may have
    // changed meanwhile.
    std::string problem;
    const std::string path = TuningsPath();
    ui.user_tunings = path.empty() ? std::vector<Tuning>{} : ReadTunings(path, &problem);
    if (!problem.empty() && problem != ui.tunings_problem) ui.messages.push_back(problem);
    ui.tunings_problem = problem;
    const std::optional<Tuning> t = FindTuning(lesson, machine, ui.user_tunings);
    if (!t) return;
    std::string set;
    for (const auto& [name, v] : t->values.entries()) {
        const ParamSpec* spec = lesson.FindParam(name);
        if (!spec) continue;
        // Only where the page holds the declared default: a value the student chose stays.
        const ParamValue def = spec->dynamic_default ? ParamValue::Number(spec->dynamic_default())
                                                     : spec->default_value;
        if (!(ResolveParam(*spec, ui.run) == def)) continue;
        SetParam(&ui.run, name, v);
        set += (set.empty() ? "" : ", ") + name + " " + spec->Format(v);
    }
    if (set.empty()) return;
    KeepParams(lesson, &ui.run);
    ui.tuned_note = {machine, t->when, set, t->origin == "shipped"};
}

std::string TunedNoteText(const UiState& ui) {
    const UiState::TunedNote& n = ui.tuned_note;
    return Fmt(Tr(ui, kOpenedTuned), n.machine.c_str(),
               Tr(ui, n.shipped ? kTunedShipped : kTunedByYou), n.when.c_str(), n.set.c_str());
}

const Lesson* CurrentLesson(const UiState& ui, const Registry& registry) {
    return ui.settings.lesson.empty() ? nullptr : registry.FindLesson(ui.settings.lesson);
}

void SetScale(UiState& ui, float scale) {
    scale = std::clamp(scale, 0.5f, 4.0f);
    if (scale == ui.settings.scale) return;
    ui.settings.scale = scale;
    ui.fonts_dirty = true;
}

std::vector<std::string_view> UiTexts(const Registry& registry) {
    std::vector<std::string_view> texts;
    for (const Word* w : kAllWords) texts.push_back(w->zh);
    for (std::string_view zh : PhrasesZh()) texts.push_back(zh);
    for (const Word* w : kMachineWords) texts.push_back(w->zh);
    for (const Word* w : kStudentWords) texts.push_back(w->zh);
    for (const Word* w : kExerciseWords) texts.push_back(w->zh);
    for (const Word* w : kParsonsWords) texts.push_back(w->zh);
    for (const Word* w : kPageWords) texts.push_back(w->zh);
    for (const GlossaryEntry& e : Glossary(TextLanguage::kChinese)) {
        texts.push_back(e.term);
        texts.push_back(e.definition);
    }
    for (PagePart part :
         {PagePart::kChange, PagePart::kPrediction, PagePart::kWhy, PagePart::kTryThis,
          PagePart::kQuestions, PagePart::kEvidence, PagePart::kBackground, PagePart::kOtherGpu})
        texts.push_back(PartHeading(part, TextLanguage::kChinese));
    // The check's verdicts come from the worker (cli/check.cpp, lessons/kernel_change.cpp): the
    // characters they use that no other text here has (AppCheckWords tests it).
    texts.push_back("投票");
    for (const Exercise& e : Exercises()) {
        texts.push_back(e.task_zh);
        for (const ExerciseHint& h : e.hints) texts.push_back(h.zh);
    }
    for (Bound b : {Bound::kRead, Bound::kCopy, Bound::kFp32, Bound::kTf32, Bound::kBf16,
                    Bound::kH2D, Bound::kPeer, Bound::kNone})
        texts.push_back(CeilingDescriptionZh(b));  // the result row names the bound
    texts.push_back("第课的（）·");
    texts.push_back("中文 English");
    texts.push_back(kFileChoiceZh);
    for (const Chapter& c : registry.chapters()) {
        texts.push_back(c.title_zh);
        for (const Chapter::PartName& p : c.part_names) texts.push_back(p.zh);
    }
    for (const Lesson& l : registry.lessons()) {
        texts.push_back(l.text_zh);
        texts.push_back(l.seed.text_zh);
        for (const ParamSpec& p : l.params) {
            texts.push_back(p.label_zh);
            for (const std::string& note : p.choice_notes_zh) texts.push_back(note);
            for (const std::string& label : p.choice_labels_zh) texts.push_back(label);
        }
    }
    return texts;
}

void HandleFocusKeys(UiState& ui) {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiIO& io = ImGui::GetIO();
    // A click hides the focus frame (as ImGui's own navigation does); Tab shows it again.
    for (int b = 0; b < 3; ++b)
        if (io.MouseClicked[b]) ui.focus_shown = false;
    const std::vector<UiState::FocusStop>& ring = ui.focus_ring;
    // Where the focus is in the ring: at its place there, else the first control of its ID.
    auto at = ui.focus_index < ring.size() && ring[ui.focus_index].id == ui.focus_id
                  ? ring.begin() + static_cast<std::ptrdiff_t>(ui.focus_index)
                  : std::find_if(ring.begin(), ring.end(),
                                 [&](const UiState::FocusStop& f) { return f.id == ui.focus_id; });
    // Tab types a tab in the exercise editor; everywhere else it moves the focus. Ctrl+Tab
    // leaves the editor with its text as typed (Esc would take back the edit in ImGui 1.86) and
    // moves the focus on: the keyboard's way out of it, on the page and in its own window.
    if (ImGui::IsKeyPressed(kKeyTab) && !ring.empty() &&
        !(ui.editor_id != 0 && g.ActiveId == ui.editor_id && !io.KeyCtrl)) {
        const int n = static_cast<int>(ring.size());
        int i = at == ring.end() || !ui.focus_shown ? (io.KeyShift ? 0 : -1)
                                                    : static_cast<int>(at - ring.begin());
        i = ((io.KeyShift ? i - 1 : i + 1) % n + n) % n;
        const UiState::FocusStop& f = ring[size_t(i)];
        if (g.ActiveId != 0) ImGui::ClearActiveID();  // leaves a text field
        ui.focus_id = f.id;
        ui.focus_index = size_t(i);
        ui.focus_shown = true;
        ImGui::ScrollToRect(f.window, ImRect(f.x0, f.y0, f.x1, f.y1));
        ui.redraw_frames = std::max(ui.redraw_frames, 2);
        return;
    }
    // Enter or Space presses the focused control (a text field: starts editing it), once a press
    // as a click does: a key held past ImGui's repeat delay would close the section it opened.
    if (ui.focus_shown && at != ring.end() && !io.WantTextInput &&
        (ImGui::IsKeyPressed(kKeyEnter, false) || ImGui::IsKeyPressed(kKeyPadEnter, false) ||
         ImGui::IsKeyPressed(kKeySpace, false))) {
        // From the keyboard: a text field takes it as the start of typing.
        g.NavInputSource = ImGuiInputSource_Keyboard;
#if IMGUI_VERSION_NUM >= 18970
        ImGui::ActivateItemByID(ui.focus_id);
#else
        ImGui::ActivateItem(ui.focus_id);
#endif
        ui.redraw_frames = std::max(ui.redraw_frames, 2);
    }
}

namespace {

// The focus frame around the focused control, where this frame drew it (within its window).
void DrawFocusFrame(UiState& ui) {
    if (!ui.focus_shown) return;
    for (const UiState::FocusStop& f : ui.focus_drawn) {
        if (f.id != ui.focus_id) continue;
        ImDrawList* dl = ImGui::GetForegroundDrawList();
        const float pad = 2 * ui.settings.scale;
        dl->PushClipRect(ImVec2(f.clip_x0, f.clip_y0), ImVec2(f.clip_x1, f.clip_y1), false);
        dl->AddRect(ImVec2(f.x0 - pad, f.y0 - pad), ImVec2(f.x1 + pad, f.y1 + pad),
                    ImGui::GetColorU32(ImGuiCol_NavHighlight), ImGui::GetStyle().FrameRounding, 0,
                    2 * ui.settings.scale);
        dl->PopClipRect();
        if (ui.probe) ui.probe->focused = f.name;
        return;
    }
}

}  // namespace

namespace {

// ← / → on a focused tab of the code view (Source, PTX, SASS, Exercise) or of presenter mode's
// views (Text, Changed code, SASS): the tab beside it is selected and focused. True when the
// key was taken.
bool MoveAlongTabs(UiState& ui) {
    const bool left = ImGui::IsKeyPressed(kKeyLeft), right = ImGui::IsKeyPressed(kKeyRight);
    if (!ui.focus_shown || (!left && !right)) return false;
    const std::vector<UiState::FocusStop>& ring = ui.focus_ring;
    const auto at = std::find_if(ring.begin(), ring.end(),
                                 [&](const UiState::FocusStop& f) { return f.id == ui.focus_id; });
    if (at == ring.end()) return false;
    static constexpr const char* kStrips[][4] = {
        {"tab_source", "tab_ptx", "tab_sass", "tab_exercise"},
        {"view_text", "view_changed", "view_sass", nullptr}};
    for (int k = 0; k < 2; ++k) {
        const auto& strip = kStrips[k];
        for (int t = 0; t < 4 && strip[t]; ++t) {
            if (at->name != strip[t]) continue;
            const int to = t + (right ? 1 : -1);
            if (to < 0 || to >= 4 || !strip[to]) return true;  // at the strip's end: stays
            const auto next = std::find_if(ring.begin(), ring.end(),
                                           [&](const auto& f) { return f.name == strip[to]; });
            if (next == ring.end()) return true;  // no such tab on this page (Exercise)
            ui.focus_id = next->id;
            ui.focus_index = size_t(next - ring.begin());
            if (k == 0)
                ui.machine.select_tab = to;
            else
                ui.presenter_view = to;
            ui.redraw_frames = std::max(ui.redraw_frames, 2);
            return true;
        }
    }
    return false;
}

}  // namespace

void PopoutFocus(UiState& ui, PopoutFocusState* own, bool begin) {
    std::swap(ui.focus_ring, own->ring);
    std::swap(ui.focus_drawn, own->drawn);
    std::swap(ui.focus_id, own->id);
    std::swap(ui.focus_index, own->index);
    std::swap(ui.focus_shown, own->shown);
    std::swap(ui.editor_id, own->editor_id);
    if (begin) {
        ui.focus_ring.swap(ui.focus_drawn);
        ui.focus_drawn.clear();
        HandleFocusKeys(ui);
    }
}

void PopoutFocusFrame(UiState& ui) {
    std::string focused;
    if (ui.probe) focused.swap(ui.probe->focused);
    DrawFocusFrame(ui);  // the probe's "focused": the pop-out's control, where it has the focus
    if (ui.probe && ui.probe->focused.empty()) ui.probe->focused.swap(focused);
}

bool ListShown(const UiState& ui) {
    if (ui.list_choice >= 0) return ui.list_choice == 1;
    return ImGui::GetMainViewport()->WorkSize.x >= ImGui::GetFontSize() * kListShownFromEm;
}

void HandleKeys(UiState& ui, Controller& c, const Registry& reg) {
    ImGuiIO& io = ImGui::GetIO();
    HandleFocusKeys(ui);
    // Esc cancels what runs from a text field too (it also leaves the field): a compile the
    // student started from the editor is stopped without a second key.
    if (io.WantTextInput) {
        if (ImGui::IsKeyPressed(kKeyEscape) && c.Busy()) c.CancelAll();
        return;
    }
    // F1 or ? (typed: wherever the keyboard puts it) opens the first-run page, or closes it.
    const bool question = std::find(io.InputQueueCharacters.begin(), io.InputQueueCharacters.end(),
                                    ImWchar('?')) != io.InputQueueCharacters.end();
    if (ImGui::IsKeyPressed(kKeyF1) || question) {
        if (ui.first_run_page)
            CloseFirstRunPage(ui);
        else
            ui.first_run_page = true;
    }
    if (ui.first_run_page && ImGui::IsKeyPressed(kKeyEscape)) {
        CloseFirstRunPage(ui);
        return;
    }
    if (ImGui::IsKeyPressed(kKeyF5)) ui.presenter = !ui.presenter;
    if (ui.presenter) {  // DrawPresenter keeps the section within the text's
        // A pane longer than it shows scrolls first (PresenterScroll); at its end (or its
        // top) the key moves to the next (or the previous) section, which opens at its top.
        // The code views have no sections: they scroll.
        const bool text = ui.presenter_view == 0;
        if (ImGui::IsKeyPressed(kKeyUp) || ImGui::IsKeyPressed(kKeyPageUp)) ui.presenter_key = -1;
        if (ImGui::IsKeyPressed(kKeyDown) || ImGui::IsKeyPressed(kKeyPageDown))
            ui.presenter_key = 1;
        const bool fresh =
            ui.presenter_fresh_frames > 0 || ui.presenter_drawn_section != ui.presenter_section;
        if (ui.presenter_key != 0 && text && fresh) {
            ui.redraw_frames = std::max(ui.redraw_frames, 2);  // the key waits for the room
        } else if (ui.presenter_key < 0) {
            if (ui.presenter_scroll_y > 0.5f || !text)
                ui.presenter_step = -1;
            else
                ui.presenter_section = std::max(ui.presenter_section - 1, 0);
            ui.presenter_key = 0;
        } else if (ui.presenter_key > 0) {
            if (ui.presenter_room > 0.5f || !text)
                ui.presenter_step = 1;
            else
                ++ui.presenter_section;
            ui.presenter_key = 0;
        }
    }
    // On a focused tab the arrows move to the tab beside it (as in any tab strip), not to
    // another lesson.
    if (MoveAlongTabs(ui)) return;
    const Lesson* lesson = CurrentLesson(ui, reg);
    const auto& all = reg.lessons();
    const auto pos =
        std::find_if(all.begin(), all.end(), [&](const Lesson& l) { return &l == lesson; });
    if (ImGui::IsKeyPressed(kKeyLeft) && pos != all.begin() && pos != all.end())
        SelectLesson(ui, reg, (pos - 1)->id);
    if (ImGui::IsKeyPressed(kKeyRight) && pos != all.end() && pos + 1 != all.end())
        SelectLesson(ui, reg, (pos + 1)->id);
    if (ImGui::IsKeyPressed(kKeyL) && !io.KeyCtrl && !ui.presenter)
        ui.list_choice = ListShown(ui) ? 0 : 1;
    if (io.KeyCtrl && (ImGui::IsKeyPressed(kKeyEqual) || ImGui::IsKeyPressed(kKeyPadAdd)))
        SetScale(ui, ui.settings.scale * 1.15f);
    if (io.KeyCtrl && (ImGui::IsKeyPressed(kKeyMinus) || ImGui::IsKeyPressed(kKeyPadSubtract)))
        SetScale(ui, ui.settings.scale / 1.15f);
    if (!lesson || io.KeyCtrl) return;
    // A key whose action cannot happen here says why (as the disabled button's tooltip does),
    // in a notice made in both languages: the reason may be the engine's message, which only
    // its id renders in Chinese. The status bar shows the page's language.
    const std::string cannot = CannotRunWhy("en", c, reg, *lesson);
    const std::string cannot_chapter = CannotRunChapterWhy("en", c, reg, *lesson);
    auto refuse = [&](const std::string& why) {
        std::string zh;
        if (why == cannot)
            zh = CannotRunWhy("zh", c, reg, *lesson);
        else if (why == cannot_chapter)
            zh = CannotRunChapterWhy("zh", c, reg, *lesson);
        else if (const ParamSpec* block = BlockSizeParam(*lesson);
                 block && why == CannotSweepWhy("en", c, reg, *lesson, block->name))
            zh = CannotSweepWhy("zh", c, reg, *lesson, block->name);
        ui.messages.push_back({why, zh});
        ui.messages.back().until_run = true;
    };
    // A key that runs what it says unless the reason it cannot is not empty.
    auto press = [&](ImGuiKey key, const std::string& why, const auto& run) {
        if (!ImGui::IsKeyPressed(key)) return;
        if (why.empty())
            run();
        else
            refuse(why);
    };
    press(kKeyR, cannot, [&] { c.RunWithPrevious(*lesson, ui.run); });
    if (ImGui::IsKeyPressed(kKeyS)) {
        const ParamSpec* block = BlockSizeParam(*lesson);
        const std::string cannot_sweep =
            block ? CannotSweepWhy("en", c, reg, *lesson, block->name) : std::string();
        if (!block)
            refuse(kWhyNoBlock.en);
        else if (!cannot_sweep.empty() && HasRecordedBlockSweep(ui, c, reg, *lesson))
            ui.open_section = "block_sweep_header";  // the recorded one, as the button shows
        else if (!cannot_sweep.empty())
            refuse(cannot_sweep);
        else
            c.SweepBlocks(*lesson, ui.run);
    }
    press(kKeyC, cannot_chapter, [&] { c.RunChapter(*lesson, ui.run); });
    if (ImGui::IsKeyPressed(kKeyEscape)) {
        // Cancels what runs; with nothing running, leaves the maximised editor.
        if (!c.Busy() && ui.exercise.maximised) ui.exercise.maximised = false;
        if (c.Busy()) {  // said, so that the key is seen to have acted
            ui.messages.push_back({kCancelledNotice.en, kCancelledNotice.zh});
            ui.messages.back().until_run = true;
        }
        c.CancelAll();
    }
    if (ImGui::IsKeyPressed(kKeyF12)) ui.screenshot_requested = true;
}

namespace {

// Whether this frame read any input: a mouse button pressed or released, the wheel, a key
// pressed or released, a character typed.
bool HadInput() {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.MouseWheel != 0 || io.MouseWheelH != 0 || !io.InputQueueCharacters.empty()) return true;
    for (int b = 0; b < 5; ++b)
        if (io.MouseClicked[b] || io.MouseReleased[b]) return true;
#if IMGUI_VERSION_NUM >= 18700
    for (int k = ImGuiKey_NamedKey_BEGIN; k < ImGuiKey_NamedKey_END; ++k)
        if (ImGui::IsKeyPressed(ImGuiKey(k), false) || ImGui::IsKeyReleased(ImGuiKey(k)))
            return true;
#else
    for (int k = 0; k < IM_ARRAYSIZE(io.KeysDown); ++k)
        if (ImGui::IsKeyPressed(k, false) || ImGui::IsKeyReleased(k)) return true;
#endif
    return false;
}

// Below this many font heights of width the page stacks its two columns into one.
constexpr float kTwoColumnsEm = 30;

// The lesson text, with the toggle that hides its answers (for a class) above it.
void DrawText(UiState& ui, const Controller& c, const Lesson& lesson) {
    if (ui.probe) {
        ui.probe->page_in_model = false;
        ui.probe->page_open.clear();
        ui.probe->glance_rows = 0;
    }
    DrawChapterGlance(ui, c, lesson);
    DrawHideAnswers(ui, c, lesson);
    if (InPageModel(ui, lesson)) {
        DrawModelPage(ui, c, lesson);  // its Evidence holds the measured figures
        if (ui.probe) ui.probe->measured_hidden = MeasuredHidden(ui, c, lesson);
    } else
        DrawLessonTextOf(ui, c, lesson,
                         ui.settings.language == "zh" ? lesson.text_zh : lesson.text_en);
    // The student's own mark: the questions above are answered (the lesson list shows it).
    ImGui::Spacing();
    bool answered = ui.settings.answered.count(lesson.id) > 0;
    if (ImGui::Checkbox(Tr(ui, kAnsweredCheck), &answered)) {
        if (answered)
            ui.settings.answered.insert(lesson.id);
        else
            ui.settings.answered.erase(lesson.id);
    }
    Remember(ui, "answered");
}

// The lessons run live since the last frame get their "run here" mark.
void SayProgress(UiState& ui, const std::vector<ProgressNotice>& notices) {
    for (const ProgressNotice& n : notices) ui.messages.push_back({n.en, n.zh});
}

// The student's progress: read at the first frame; each check that ran kept as it finishes;
// each guess kept once typed (not while the field is being typed in).
void KeepProgress(UiState& ui, Controller& c) {
    std::vector<ProgressNotice> notices;
    if (!ui.progress.loaded) {
        LoadProgress(&ui.progress, &notices);
        ui.progress.read_for = ui.settings.lesson;
    } else if (ui.progress.read_for != ui.settings.lesson) {
        // Read again as each lesson opens: `cuda-lessons-cli check` may have kept a check.
        RefreshProgress(&ui.progress);
        ui.progress.read_for = ui.settings.lesson;
    }
    for (const Controller::FinishedCheck& f : c.TakeFinishedChecks()) {
        const std::string when = UtcTimestamp();
        ChangeProgress(
            &ui.progress, [&](Progress& p) { RecordCheck(p, f.lesson_id, f.record, when); },
            &notices);
    }
    for (const auto& [id, result] : c.TakeFinishedParsons()) {
        const std::string when = UtcTimestamp();
        ChangeProgress(
            &ui.progress, [&](Progress& p) { RecordParsons(p, id, result, when); }, &notices);
    }
    // The guess field says each frame it is drawn whether it is being typed in.
    const bool editing = std::exchange(ui.guess_editing, false);
    if (!editing) {
        // Every new or changed guess in one write.
        std::vector<std::pair<std::string, Guess>> changed;
        for (const auto& [id, guess] : ui.settings.guesses) {
            const auto kept = ui.progress.progress.predictions.find(id);
            if (kept == ui.progress.progress.predictions.end() || kept->second.skipped ||
                kept->second.value != guess.value ||
                kept->second.unit != (guess.speedup ? "x" : "ms"))
                changed.emplace_back(id, guess);
        }
        if (!changed.empty()) {
            const std::string when = UtcTimestamp();
            ChangeProgress(
                &ui.progress,
                [&](Progress& p) {
                    for (const auto& [id, guess] : changed)
                        RecordPrediction(p, id, guess.value, guess.speedup ? "x" : "ms", when);
                },
                &notices);
        }
    }
    SayProgress(ui, notices);
}

void MarkRuns(UiState& ui, const Controller& c, const Registry& reg) {
    const std::vector<StoredResult>& results = c.results();
    if (ui.results_marked > results.size()) ui.results_marked = 0;
    for (size_t i = ui.results_marked; i < results.size(); ++i) {
        const StoredResult& s = results[i];
        if (s.origin == Origin::kRecorded || !s.result.verified) continue;
        if (const Lesson* l = reg.FindLesson(s.result.lesson)) ui.settings.ran.insert(l->id);
    }
    ui.results_marked = results.size();
}

}  // namespace

bool MeasuredHidden(const UiState& ui, const Controller& c, const Lesson& lesson) {
    if (!ui.settings.hide_answers || ui.revealed.count(lesson.id)) return false;
    return std::none_of(c.results().begin(), c.results().end(), [&](const StoredResult& s) {
        return s.origin != Origin::kRecorded && s.result.lesson == lesson.number;
    });
}

void DrawHideAnswers(UiState& ui, const Controller& c, const Lesson& lesson) {
    ImGui::Checkbox(Tr(ui, kHideAnswers), &ui.settings.hide_answers);
    Remember(ui, "hide_answers");
    if (!MeasuredHidden(ui, c, lesson)) return;
    SameLineIfFits(ButtonWidth(Tr(ui, kRevealMeasured)));
    if (ImGui::SmallButton(Tr(ui, kRevealMeasured))) ui.revealed.insert(lesson.id);
    Remember(ui, "reveal_measured");
    if (ImGui::IsItemHovered()) Tooltip(Tr(ui, kRevealWhy));
}

void NoteInlineCode(UiState& ui, const CodeDrawn& drawn) {
    if (!ui.probe || drawn.runs == 0) return;
    if (ui.probe->inline_code_runs == 0) ui.probe->rects["inline_code"] = drawn.first;
    ui.probe->inline_code_runs += drawn.runs;
}

void DrawLessonTextOf(UiState& ui, const Controller& c, const Lesson& lesson,
                      std::string_view text) {
    LessonTextOptions options;
    options.hide_answers = ui.settings.hide_answers;
    options.show_answer = Tr(ui, kShowAnswer);
    options.hide_measured = MeasuredHidden(ui, c, lesson);
    options.measured_note = Tr(ui, kMeasuredHiddenNote);
    options.code_font = ui.fonts.mono;
    CodeDrawn drawn;
    DrawLessonText(text, options, &drawn);
    NoteInlineCode(ui, drawn);
    if (ui.probe) ui.probe->measured_hidden = options.hide_measured;
}

void RecordScroll(UiState& ui, bool text) {
    if (!ui.probe) return;
    if (text) {
        ui.probe->text_scroll_y = ImGui::GetScrollY();
        ui.probe->text_scroll_max = ImGui::GetScrollMaxY();
    } else
        ui.probe->code_scroll_y = std::max(ImGui::GetScrollY(), ui.probe->listing_scroll_y);
}

void BeginPane(UiState& ui, const char* name, ImVec2 size, ImGuiWindowFlags flags) {
    if (ui.arrival.scroll_top) ImGui::SetNextWindowScroll(ImVec2(0, 0));
    ImGui::BeginChild(name, size, true, flags | kNoNavKeys);
}

void DrawAxisChoice(UiState& ui) {
    ImGui::Checkbox(Tr(ui, kLog), &ui.log_scale);
    SameLineIfFits(CheckWidth("ms"));
    // Its own ID: the guess field's unit is an "ms" too, in the same window.
    ImGui::PushID("axis");
    if (ImGui::RadioButton("ms", !ui.rate_axis)) ui.rate_axis = false;
    ImGui::PopID();
    Remember(ui, "axis_ms");
    SameLineIfFits(CheckWidth(Tr(ui, kRate)));
    if (ImGui::RadioButton(Tr(ui, kRate), ui.rate_axis)) ui.rate_axis = true;
    Remember(ui, "axis_rate");
}

bool Splitter(UiState& ui, const char* name, bool vertical, float length, float* size, float lo,
              float hi) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float thick = std::max(vertical ? style.ItemSpacing.x : style.ItemSpacing.y, 4.0f);
    ImGui::InvisibleButton(name, vertical ? ImVec2(thick, length) : ImVec2(length, thick));
    Remember(ui, name);
    const bool active = ImGui::IsItemActive();
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (ImGui::IsItemHovered() || active) {
        ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
        dl->AddRectFilled(
            a, b,
            ImGui::GetColorU32(active ? ImGuiCol_SeparatorActive : ImGuiCol_SeparatorHovered));
    } else {
        // A handle that shows where to drag: a line along it and a grip of three dots at its
        // middle.
        const ImU32 line = ImGui::GetColorU32(ImGuiCol_Separator);
        const ImVec2 mid((a.x + b.x) / 2, (a.y + b.y) / 2);
        if (vertical)
            dl->AddLine(ImVec2(mid.x, a.y), ImVec2(mid.x, b.y), line);
        else
            dl->AddLine(ImVec2(a.x, mid.y), ImVec2(b.x, mid.y), line);
        const float r = std::max(1.5f, thick * 0.3f), gap = r * 3;
        for (int i = -1; i <= 1; ++i)
            dl->AddCircleFilled(vertical ? ImVec2(mid.x, mid.y + float(i) * gap)
                                         : ImVec2(mid.x + float(i) * gap, mid.y),
                                r, ImGui::GetColorU32(ImGuiCol_SeparatorHovered));
    }
    const float delta = vertical ? ImGui::GetIO().MouseDelta.x : ImGui::GetIO().MouseDelta.y;
    if (!active || delta == 0) return false;
    *size = std::clamp(*size + delta, lo, std::max(lo, hi));
    return true;
}

namespace {

// The lesson's label ("5.8") and title, and the language buttons at the right. The title is cut
// with "…" to leave room for the buttons; where even that leaves too little, the buttons take a
// row of their own above it (or two, in a very narrow page).
void DrawTitle(UiState& ui, const Lesson& lesson) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float buttons_w = CheckWidth("English") + style.ItemSpacing.x + CheckWidth("中文");
    const float avail = ImGui::GetContentRegionAvail().x;
    const float start_x = ImGui::GetCursorPosX();
    const std::string title = lesson.label + "  " + LessonTitle(ui, lesson);
    ImGui::PushFont(ui.fonts.heading);
    const float title_room = avail - buttons_w - style.ItemSpacing.x * 2;
    const bool one_row = title_room >= ImGui::GetFontSize() * 5;
    ImGui::PopFont();
    auto buttons = [&] {
        if (ImGui::RadioButton("English", ui.settings.language == "en"))
            ui.settings.language = "en";
        Remember(ui, "lang_en");
        if (avail >= buttons_w) ImGui::SameLine();  // else one above the other
        if (ImGui::RadioButton("中文", ui.settings.language == "zh")) ui.settings.language = "zh";
        Remember(ui, "lang_zh");
    };
    if (!one_row) {
        ImGui::SetCursorPosX(start_x + std::max(0.0f, avail - buttons_w));
        buttons();
    }
    ImGui::PushFont(ui.fonts.heading);
    ImGui::TextUnformatted(Elide(title, one_row ? title_room : avail).c_str());
    Remember(ui, "title");
    if (ui.probe) ui.probe->title = title;
    if (ImGui::IsItemHovered() && ImGui::CalcTextSize(title.c_str()).x > avail)
        Tooltip(title.c_str());
    ImGui::PopFont();
    if (one_row) {
        ImGui::SameLine(start_x + avail - buttons_w);
        buttons();
    }
}

// The right-hand column (or the lower part of the stacked page): controls, charts, results.
void DrawWork(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    DrawControls(ui, c, reg, lesson);
    ImGui::Separator();
    // A section header; every one is open while a test walks the page.
    auto section = [&](const Word& word, const char* name, bool open_by_default) {
        const bool asked = ui.open_section == name;
        if ((ui.probe && ui.probe->open_all) || asked)
            ImGui::SetNextItemOpen(true, ImGuiCond_Always);
        // The ID does not change with the language: a section stays open across a switch.
        const std::string label = std::string(Tr(ui, word)) + "###" + name;
        const bool open = ImGui::CollapsingHeader(
            label.c_str(), open_by_default ? ImGuiTreeNodeFlags_DefaultOpen : 0);
        Remember(ui, name);
        if (asked) {  // its header at the top of the pane
            ImGui::SetScrollHereY(0.0f);
            ui.open_section.clear();
            ui.redraw_frames = std::max(ui.redraw_frames, 2);
        }
        return open;
    };
    // The roofline's own chapter draws it whole, first: as large as the page allows.
    const bool roofline_first = reg.ChapterOf(lesson).whole_roofline;
    if (roofline_first) DrawRoofline(ui, c, reg, lesson);
    if (section(kPredictHeader, "predict_header", true)) DrawPrediction(ui, c, reg, lesson);
    if (!roofline_first) DrawRoofline(ui, c, reg, lesson);
    if (section(kSteps, "steps_header", true)) {
        DrawAxisChoice(ui);
        DrawStepChart(ui, c, reg, lesson);
    }
    if (section(kSummaryHeader, "summary_header", false)) DrawSummary(ui, c, reg, lesson);
    if (section(kBreakdown, "breakdown_header", true)) DrawBreakdown(ui, c, reg, lesson);
    if (section(kBlockSweep, "block_sweep_header", false)) DrawSweeps(ui, c, reg, lesson, true);
    if (section(kSizeSweep, "size_sweep_header", false)) DrawSweeps(ui, c, reg, lesson, false);
    if (!SweepableParams(reg, lesson).empty() && section(kParamSweep, "param_sweep_header", false))
        DrawParamSweep(ui, c, reg, lesson);
    if (section(kResults, "results_header", true)) DrawResults(ui, c, reg, lesson);
    if (lesson.kind == StepKind::kGpu && section(kEvidenceHeader, "evidence_header", false))
        DrawEvidence(ui, c, reg, lesson);
}

}  // namespace

void PushNoTabStop() {
#if IMGUI_VERSION_NUM >= 18940
    ImGui::PushTabStop(false);
#else
    ImGui::PushAllowKeyboardFocus(false);
#endif
}

void PopNoTabStop() {
#if IMGUI_VERSION_NUM >= 18940
    ImGui::PopTabStop();
#else
    ImGui::PopAllowKeyboardFocus();
#endif
}

void DrawUi(UiState& ui, Controller& c, const Registry& reg) {
    if (ui.probe) {
        ui.probe->focused.clear();
        ui.probe->active.clear();
        ui.probe->wheel_taken += ImGui::GetIO().MouseWheel;
        ui.probe->rects.clear();
        ui.probe->measured_hidden = false;
        ui.probe->guess_row.clear();
        ui.probe->guess_skipped = false;
        ui.probe->guess_scored.clear();
        ui.probe->progress_marks.clear();
        ui.probe->listing_scroll_y = 0;
        ui.probe->exercise_compile.clear();
        ui.probe->exercise_marked_lines = 0;
        ui.probe->exercise_not_checked = false;
        ui.probe->parsons_drawn = false;
        ui.probe->parsons_order.clear();
        ui.probe->parsons_aside.clear();
        ui.probe->parsons_selected = -1;
        ui.probe->parsons_result.clear();
        ui.probe->parsons_out_of_place.clear();
        ui.probe->evidence_rule.clear();
        ui.probe->evidence_first_explained.clear();
        ui.probe->evidence_explanations.clear();
        ui.probe->evidence_needs_gpu = false;
        ui.probe->exercise_yours_ms = 0;
        ui.probe->sweeps.clear();
        ui.probe->roof_trace_points = 0;
        ui.probe->roof_trace_recorded = false;
        ui.probe->inline_code_runs = 0;
        ui.probe->roof_key = 0;
        ui.probe->roof_dropped.clear();
        ui.probe->check_state.clear();
        ui.probe->check_cases = ui.probe->check_failed = 0;
        ui.probe->roof_key_rects.clear();
        ui.probe->roof_label_rects.clear();
        ui.probe->list_tooltip = false;
        ui.probe->linked_source = 0;
        ui.probe->linked_listing_lines = 0;
    }
    // The controls drawn in the last frame are where Tab moves (HandleFocusKeys).
    ui.focus_ring.swap(ui.focus_drawn);
    ui.focus_drawn.clear();
    HandleKeys(ui, c, reg);
    // A key's refusal, or a cancel, is no longer news once something runs again.
    if (c.Busy() && !ui.was_busy)
        ui.messages.erase(std::remove_if(ui.messages.begin(), ui.messages.end(),
                                         [](const UiState::Notice& n) { return n.until_run; }),
                          ui.messages.end());
    ui.was_busy = c.Busy();
    const Lesson* lesson = CurrentLesson(ui, reg);
    if (!lesson || ui.shown_lesson != lesson->id) {
        SelectLesson(ui, reg, ui.settings.lesson);  // an unknown lesson: the first
        lesson = CurrentLesson(ui, reg);
        if (!lesson) return;
    }
    ApplyArrival(ui, c, reg, *lesson);
    ApplyTuned(ui, c, *lesson);
    MarkRuns(ui, c, reg);
    KeepProgress(ui, c);
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    ImGui::Begin("CUDA Lessons", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoBackground | kNoNavKeys);
    // ImGui's own tabbing off: HandleFocusKeys moves through every control instead.
    PushNoTabStop();
    const float font = ImGui::GetFontSize();
    // The status bar: two rows, one in presenter mode (DrawStatusBar).
    // Where a narrow window wraps it onto a third row, the height it took last.
    const float status_h = std::max(
        ImGui::GetFrameHeightWithSpacing() * (ui.presenter ? 1.15f : 2.2f), ui.status_bar_h);
    const float body_h = ImGui::GetContentRegionAvail().y - status_h;
    if (ui.probe) ui.probe->list_drawn = ui.probe->code_drawn = false;

    // The exercise editor maximised: the whole page (no lesson list) is its tab.
    const bool maximised = !ui.presenter && ui.exercise.maximised && FindExercise(lesson->id);
    if (!ui.presenter && !maximised && !ListShown(ui)) {
        // The list hidden: a strip with the button that shows it again.
        const float strip = ButtonWidth("\xC2\xBB") + ImGui::GetStyle().WindowPadding.x * 2;
        ImGui::BeginChild("sidebar_strip", ImVec2(strip, body_h), true, kNoNavKeys);
        if (ImGui::Button("\xC2\xBB")) ui.list_choice = 1;  // »
        if (ImGui::IsItemHovered()) Tooltip(Tr(ui, kShowList));
        Remember(ui, "list_show");
        ImGui::EndChild();
        ImGui::SameLine();
    } else if (!ui.presenter && !maximised) {
        // The lesson list, as wide as the student dragged it (within 8 to 40 font heights and
        // 60% of the window), else 19 font heights or a quarter of the window.
        const float width = vp->WorkSize.x;
        const float lo = std::min(font * kMinSidebarEm, width * 0.6f);
        const float hi = std::max(lo, std::min(font * kMaxSidebarEm, width * 0.6f));
        float sidebar_w = ui.settings.sidebar_em > 0
                              ? std::clamp(ui.settings.sidebar_em * font, lo, hi)
                              : std::min(font * 19, width * 0.24f);
        ImGui::BeginChild("sidebar", ImVec2(sidebar_w, body_h), true, kNoNavKeys);
        DrawLessonList(ui, c, reg);
        ImGui::EndChild();
        if (ui.probe) ui.probe->list_drawn = true;
        ImGui::SameLine(0, 0);
        if (Splitter(ui, "sidebar_splitter", true, body_h, &sidebar_w, lo, hi))
            ui.settings.sidebar_em = sidebar_w / font;
        ImGui::SameLine(0, 0);
    }

    // Presenter mode's page is made to fit (its panes scroll, each its own): no scroll bar
    // for the few pixels of padding its table adds.
    ImGui::BeginChild(
        "page", ImVec2(0, body_h), false,
        kNoNavKeys |
            (ui.presenter ? ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse : 0));
    DrawTitle(ui, *lesson);
    const LessonMode mode = c.Mode(*lesson);
    // The GPU its recordings come from, as the status bar's "Recorded on" names it.
    std::string gpu = WithoutVendor(c.ReferenceGpu());
    if (gpu.empty()) gpu = Tr(ui, kTheReferenceGpu);
    const std::string subtitle =
        lesson->id + "  \xC2\xB7  " + (lesson->kind == StepKind::kGpu ? "GPU" : "CPU") +
        "  \xC2\xB7  " +
        (mode == LessonMode::kLive       ? Tr(ui, kRunsLive)
         : mode == LessonMode::kRecorded ? Fmt(Tr(ui, kRecordedNotLive), gpu.c_str())
                                         : Tr(ui, kCannotRun));
    ImGui::TextDisabled("%s", Elide(subtitle, ImGui::GetContentRegionAvail().x).c_str());

    if (ui.presenter) {
        DrawPresenter(ui, c, reg, *lesson);
    } else if (maximised) {
        BeginPane(ui, "code", ImVec2(0, 0));
        DrawExercise(ui, c, reg, *lesson);
        ImGui::EndChild();
        Remember(ui, "code_pane");
        if (ui.probe) ui.probe->code_drawn = true;
    } else if (ImGui::GetContentRegionAvail().x < font * kTwoColumnsEm) {
        // Narrow, or a large presenter scale: one column that scrolls, text and code first.
        if (ui.arrival.scroll_top) ImGui::SetNextWindowScroll(ImVec2(0, 0));
        ImGui::BeginChild("stack", ImVec2(0, 0), false, kNoNavKeys);
        const float pane_h = std::max(font * 8, body_h * 0.5f);
        BeginPane(ui, "text", ImVec2(0, pane_h));
        DrawText(ui, c, *lesson);
        RecordScroll(ui, true);
        ImGui::EndChild();
        Remember(ui, "text_pane");
        BeginPane(ui, "code", ImVec2(0, pane_h), ImGuiWindowFlags_HorizontalScrollbar);
        DrawCode(ui, c, reg, *lesson);
        RecordScroll(ui, false);
        ImGui::EndChild();
        Remember(ui, "code_pane");
        if (ui.probe) ui.probe->code_drawn = true;
        DrawWork(ui, c, reg, *lesson);
        ImGui::EndChild();
    } else if (ImGui::BeginTable("columns", 2,
                                 ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("left", ImGuiTableColumnFlags_WidthStretch, 0.42f);
        ImGui::TableSetupColumn("right", ImGuiTableColumnFlags_WidthStretch, 0.58f);
        ImGui::TableNextColumn();
        // The text above the code, split where the student dragged the line between them.
        const float column_h = ImGui::GetContentRegionAvail().y;
        // The Exercise tab has its own split (an editor wants room): a third of the column
        // for the text unless the student dragged it.
        const bool exercise = ui.machine.tab == 3 && FindExercise(lesson->id);
        float& kept = exercise ? ui.settings.exercise_text_share : ui.settings.text_share;
        const float share = kept > 0 ? kept : exercise ? 0.3f : 0.55f;
        float text_h = column_h * share;
        BeginPane(ui, "text", ImVec2(0, text_h));
        DrawText(ui, c, *lesson);
        RecordScroll(ui, true);
        ImGui::EndChild();
        Remember(ui, "text_pane");
        ImGui::SetCursorPosY(ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y);
        if (Splitter(ui, "text_splitter", false, ImGui::GetContentRegionAvail().x, &text_h,
                     column_h * kMinTextShare, column_h * kMaxTextShare))
            kept = text_h / std::max(column_h, 1.0f);
        BeginPane(ui, "code", ImVec2(0, 0), ImGuiWindowFlags_HorizontalScrollbar);
        DrawCode(ui, c, reg, *lesson);
        RecordScroll(ui, false);
        ImGui::EndChild();
        Remember(ui, "code_pane");
        if (ui.probe) ui.probe->code_drawn = true;

        ImGui::TableNextColumn();
        // A lesson opens with this column at its top too: Run, the prediction, the chart.
        if (ui.arrival.scroll_top) ImGui::SetNextWindowScroll(ImVec2(0, 0));
        ImGui::BeginChild("work", ImVec2(0, 0), false, kNoNavKeys);
        DrawWork(ui, c, reg, *lesson);
        if (ui.probe) ui.probe->work_scroll_y = ImGui::GetScrollY();
        ImGui::EndChild();
        ImGui::EndTable();
    }
    ImGui::EndChild();
    const float status_top = ImGui::GetCursorScreenPos().y;
    DrawStatusBar(ui, c);
    // Its height as drawn, to the bottom of its lowest control (the next frame makes room).
    const float drawn_h =
        ImGui::GetCurrentWindow()->DC.CursorMaxPos.y - status_top + ImGui::GetStyle().ItemSpacing.y;
    const float wanted_h = drawn_h > ImGui::GetFrameHeightWithSpacing() * 2.3f ? drawn_h : 0.0f;
    if (std::abs(wanted_h - ui.status_bar_h) > 0.5f) {
        ui.status_bar_h = wanted_h;
        ui.redraw_frames = std::max(ui.redraw_frames, 2);
    }
    PopNoTabStop();
    ImGui::End();
    ui.arrival.scroll_top = false;
    DrawFirstRunPage(ui, reg);
    DrawFocusFrame(ui);
    // A tooltip that appeared in this frame is hidden in it (ImGui sizes it first), and one
    // whose text changed as the mouse moved (another bar) is sized and placed for its new text
    // only in the next frame: draw two more, or it would wait for the next event, possibly
    // reaching past the window's edge meanwhile.
    const bool moved = ImGui::GetIO().MouseDelta.x != 0 || ImGui::GetIO().MouseDelta.y != 0;
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
        if ((w->Flags & ImGuiWindowFlags_Tooltip) && w->Active && (w->Hidden || moved))
            ui.redraw_frames = std::max(ui.redraw_frames, 2);

    // Input (a click, its release, a key, a typed character, the wheel) changes a widget at the
    // end of the frame that read it (a checkbox that turns presenter mode on, a combo that
    // opens): draw two more now, or the change would wait for the next event or the idle
    // wait's end (2 s).
    if (HadInput()) ui.redraw_frames = std::max(ui.redraw_frames, 2);

    // Debounced auto-run: the controls settle, then this lesson and the previous one re-run,
    // replacing whatever was pending.
    if (ui.changed_at >= 0 && ImGui::GetTime() - ui.changed_at >= kDebounceSeconds) {
        ui.changed_at = -1;
        if (ui.auto_run) c.RunWithPrevious(*lesson, ui.run);
    }
}

}  // namespace lessons::app
