// The lesson page's "Predict, then measure" box (prediction.h builds its lines) and the
// chapter summary: every step's time, rate, % of its ceiling, speed-ups over the previous step
// and over the chapter's first, and the seed author's figure, from live and recorded results.
#include "lesson_text.h"
#include "panels.h"
#include "prediction.h"
#include "units.h"

namespace lessons::app {
namespace {

void RightAligned(const std::string& text) {
    const float room = ImGui::GetColumnWidth() - ImGui::CalcTextSize(text.c_str()).x;
    if (room > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + room);
    ImGui::TextUnformatted(text.c_str());
}

std::string TimesText(const std::optional<double>& v) {
    return v ? Fixed(*v, *v < 10 ? 2 : 1) + "\xC3\x97" : std::string("-");
}

// The ceilings the page predicts from: the worker's, else recorded ones.
CeilingSource PageCeilings(const Controller& c, const Registry& reg, const Lesson& lesson,
                           const RunSettings& run) {
    CeilingSource source = CeilingsFromDevice(c.device());
    if (source.known) return source;
    // No GPU here: the ceiling recorded with this lesson's result, else with any of its
    // chapter's recorded GPU results.
    if (const RunResult* r = ShownResult(c, reg, lesson, run); r && r->recorded) {
        source = CeilingsFromRecorded(*r);
        if (source.known) return source;
    }
    for (const StoredResult& s : c.results())
        if (s.origin == Origin::kRecorded && s.result.chapter == lesson.chapter &&
            s.result.kind == StepKind::kGpu) {
            source = CeilingsFromRecorded(s.result);
            if (source.known) return source;
        }
    return source;
}

}  // namespace

void DrawPrediction(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    const ParamValues params = ResolveParams(lesson.params, ui.run);
    const CeilingSource source = PageCeilings(c, reg, lesson, ui.run);
    const RunResult* measured = ShownResult(c, reg, lesson, ui.run);
    const KernelAttributes* attributes =
        lesson.kind == StepKind::kGpu && !lesson.library && c.Mode(lesson) == LessonMode::kLive
            ? c.Attributes(lesson, ui.run)
            : nullptr;
    ui.prediction = PredictionLines(ui.settings.language, lesson, reg.ChapterOf(lesson), params,
                                    source, measured, attributes);
    for (const std::string& line : ui.prediction) DrawWrappedText(line);
    Remember(ui, "prediction");
}

void DrawSummary(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    int base = 0;
    const std::vector<SummaryRow> rows = SummaryRows(
        reg, chapter, [&](const Lesson& l) { return ShownResult(c, reg, l, ui.run); }, &base);
    ui.summary_rows = static_cast<int>(rows.size());
    const bool zh = ui.settings.language == "zh";
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                  ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
    // As tall as its rows: the sections below stay in view.
    const float height = ImGui::GetFrameHeightWithSpacing() * static_cast<float>(rows.size() + 1) +
                         ImGui::GetStyle().ScrollbarSize;
    if (!ImGui::BeginTable("summary", 9, flags, ImVec2(0, height))) return;
    const std::string vs_first = base ? Fmt(Tr(ui, kSumVsLesson), base) : Tr(ui, kSumVsFirst);
    for (const Word* w : {&kSumLesson, &kSumStep, &kSumTime, &kSumRate, &kSumPct, &kSumVsPrevious})
        ImGui::TableSetupColumn(Tr(ui, *w));
    ImGui::TableSetupColumn(vs_first.c_str());
    for (const Word* w : {&kSumSeed, &kSumOrigin}) ImGui::TableSetupColumn(Tr(ui, *w));
    ImGui::TableHeadersRow();
    for (const SummaryRow& row : rows) {
        const Lesson& l = *row.lesson;
        const RunResult* r = row.result;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (l.number == lesson.number)
            ImGui::TextColored(kAccent, "%d", l.number);
        else
            ImGui::Text("%d", l.number);
        ImGui::TableNextColumn();
        const std::string title = LessonTitle(ui, l);
        const std::string cut = Elide(title, ImGui::GetFontSize() * 13);
        ImGui::TextUnformatted(cut.c_str());
        if (cut != title && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", title.c_str());
        ImGui::TableNextColumn();
        if (!r) {
            ImGui::TextDisabled("-");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr(ui, kSumNotRun));
        } else if (!r->verified) {
            ImGui::TextColored(kRed, "%s", Tr(ui, kWrongResult));
        } else {
            RightAligned(Ms(r->median_ms));
        }
        const bool ok = r && r->verified;
        ImGui::TableNextColumn();
        if (ok) RightAligned(Fixed(r->Rate(), r->Rate() < 100 ? 1 : 0) + " " + r->RateUnit());
        ImGui::TableNextColumn();
        if (ok && r->pct_of_ceiling) RightAligned(Fixed(*r->pct_of_ceiling, 0) + "%");
        ImGui::TableNextColumn();
        if (ok) RightAligned(TimesText(row.vs_previous));
        ImGui::TableNextColumn();
        if (ok) RightAligned(TimesText(row.vs_first));
        ImGui::TableNextColumn();
        if (!l.seed.empty()) {
            ImGui::TextUnformatted((zh ? l.seed.text_zh : l.seed.text_en).c_str());
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", l.seed.source.c_str());
        }
        ImGui::TableNextColumn();
        if (r) {
            if (r->recorded)
                ImGui::TextColored(kAmber, "%s", Tr(ui, kRecorded));
            else
                ImGui::TextUnformatted(Tr(ui, kLive));
        }
    }
    ImGui::EndTable();
    Remember(ui, "summary_table");
    DrawWrappedText(Tr(ui, kSumNote), &kGrey);
}

}  // namespace lessons::app
