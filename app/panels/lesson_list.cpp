// The lesson list: chapters and their lessons, each marked live / recorded / unavailable
// (the tooltip says why), and the legend of the marks.
#include "panels/panels.h"

namespace lessons::app {

void DrawLessonList(UiState& ui, const Controller& c, const Registry& reg) {
    for (const Chapter& chapter : reg.chapters()) {
        ImGui::TextColored(kAccent, "%d. %s", chapter.number, ChapterTitle(ui, chapter).c_str());
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
            // Cut to the sidebar's width (the tooltip has the whole title).
            const std::string title = LessonTitle(ui, *l);
            std::string shown = Elide(l->label + "  " + title, ImGui::GetContentRegionAvail().x);
            if (shown == Elide("", -1)) shown = l->label;  // only "…" fits
            const std::string item = shown + "##" + l->id;
            if (ImGui::Selectable(item.c_str(), ui.settings.lesson == l->id))
                SelectLesson(ui, reg, l->id);
            Remember(ui, ("lesson_" + l->id).c_str());
            if (ImGui::IsItemHovered()) {
                if (mode == LessonMode::kLive)
                    ImGui::SetTooltip("%s  %s\n%s: %s (%s)", l->label.c_str(), title.c_str(),
                                      Tr(ui, kLive), Tr(ui, kRunsLive),
                                      l->kind == StepKind::kGpu ? "GPU" : "CPU");
                else
                    ImGui::SetTooltip(
                        "%s  %s\n%s: %s", l->label.c_str(), title.c_str(),
                        mode == LessonMode::kRecorded ? Tr(ui, kRecorded) : Tr(ui, kUnavailable),
                        Say(ui.settings.language, c.UnavailableReason(*l)).c_str());
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

}  // namespace lessons::app
