// The first-run page: what the panes and the marks mean, the keys, what works without a GPU
// and where to start. Shown over the page on the very first start and again with F1 or ?;
// closing it is remembered in the settings (Settings::first_run_closed).
#include "panels/panels.h"
#include "probe.h"
#include "text/lesson_text.h"
#include "words/words_student.h"

namespace lessons::app {
namespace {

void Heading(UiState& ui, const Word& word) {
    ImGui::Spacing();
    ImGui::PushFont(ui.fonts.heading);
    ImGui::TextColored(kAccent, "%s", Tr(ui, word));
    ImGui::PopFont();
}

// A mark and what it means, on one line (wrapped under itself when long).
void Mark(const ImVec4& color, const char* glyph, const char* meaning) {
    ImGui::TextColored(color, "%s", glyph);
    ImGui::SameLine();
    DrawWrappedText(meaning);
}

// A key and what it does: the key in the first column of a two-column table.
void KeyRow(const char* keys, const char* what) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(kAccent, "%s", keys);
    ImGui::TableNextColumn();
    DrawWrappedText(what);
}

}  // namespace

void CloseFirstRunPage(UiState& ui) {
    ui.first_run_page = false;
    ui.settings.first_run_closed = true;
}

void DrawFirstRunPage(UiState& ui, const Registry& reg) {
    if (!ui.first_run_page) return;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float font = ImGui::GetFontSize();
    const ImVec2 size(std::min(vp->WorkSize.x * 0.9f, font * 48),
                      std::min(vp->WorkSize.y * 0.94f, font * 56));
    ImGui::SetNextWindowPos(
        ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
        ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(size, ImGuiCond_Always);
    ImGui::SetNextWindowFocus();
    ImGui::SetNextWindowBgAlpha(1.0f);  // opaque: the page under it does not show through
    bool open = true;
    // The ID stays when the language changes.
    const std::string title = std::string(Tr(ui, kWelcomeTitle)) + "###first_run";
    ImGui::Begin(title.c_str(), &open,
                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | kNoNavKeys);
    Remember(ui, "first_run_page");
    if (ImGui::RadioButton("English", ui.settings.language == "en")) ui.settings.language = "en";
    Remember(ui, "first_run_en");
    ImGui::SameLine();
    if (ImGui::RadioButton("中文", ui.settings.language == "zh")) ui.settings.language = "zh";
    Remember(ui, "first_run_zh");
    DrawWrappedText(Tr(ui, kWelcomeIntro));

    Heading(ui, kWelcomeStartHeading);
    DrawWrappedText(Tr(ui, kWelcomeStart));
    const Lesson* first = reg.lessons().empty() ? nullptr : &reg.lessons().front();
    if (first && ImGui::Button(Tr(ui, kWelcomeStartButton))) {
        SelectLesson(ui, reg, first->id);
        CloseFirstRunPage(ui);
    }
    Remember(ui, "first_run_start");
    ImGui::SameLine();
    if (ImGui::Button(Tr(ui, kWelcomeClose))) CloseFirstRunPage(ui);
    Remember(ui, "first_run_close");

    Heading(ui, kWelcomePanesHeading);
    DrawWrappedText(Tr(ui, kWelcomePanes));

    Heading(ui, kWelcomeMarksHeading);
    Mark(kGreen, "\xE2\x97\x8F", Tr(ui, kWelcomeLive));
    Mark(kAmber, "\xE2\x97\x90", Tr(ui, kWelcomeRecorded));
    Mark(kGrey, "\xE2\x97\x8B", Tr(ui, kWelcomeUnavailable));
    DrawProgressLegend(ui);
    DrawWrappedText(Tr(ui, kWelcomeProgress));

    Heading(ui, kWelcomeNoGpuHeading);
    DrawWrappedText(Tr(ui, kWelcomeNoGpu));

    Heading(ui, kWelcomeKeysHeading);
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, font * 8);
        ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
        KeyRow("\xE2\x86\x90 / \xE2\x86\x92", Tr(ui, kKeyPrevNext));
        KeyRow("R", Tr(ui, kKeyRun));
        KeyRow("S", Tr(ui, kKeySweep));
        KeyRow("C", Tr(ui, kKeyChapter));
        KeyRow("Esc", Tr(ui, kKeyCancel));
        KeyRow("Ctrl + / Ctrl \xE2\x88\x92", Tr(ui, kKeyScale));
        KeyRow("F12", Tr(ui, kKeyShot));
        KeyRow("F1 / ?", Tr(ui, kKeyHelp));
        KeyRow("F5", Tr(ui, kKeyPresenter));
        ImGui::EndTable();
    }
    ImGui::Spacing();
    ImGui::TextDisabled("%s", Tr(ui, kWelcomeAgain));
    ImGui::End();
    if (!open) CloseFirstRunPage(ui);
}

}  // namespace lessons::app
