// The lesson page's "Predict, then measure" box (prediction.h builds its lines) and the
// chapter summary: every step's time, rate, % of its ceiling, speed-ups over the previous step
// and over the chapter's first, and the seed author's figure, from live and recorded results.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "host.h"
#include "model/compare.h"
#include "model/prediction.h"
#include "panels/panels.h"
#include "probe.h"
#include "recordings.h"
#include "text/lesson_text.h"
#include "units.h"
#include "words/words_student.h"

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
    CeilingSource source = CeilingsFromDevices(c.devices());
    if (source.known) return source;
    // No GPU here: the device information recorded with the chosen GPU's results (assets/info)
    // gives every ceiling, and the SM count and clock Little's law needs; recorded results fill
    // what it lacks (below).
    source = CeilingsFromRecordedInfo(RecordedDeviceInfo(c.ReferenceGpu()));
    // No GPU here: the ceiling recorded with this lesson's result, then those of its chapter's
    // other recorded one-GPU results (each names the ceiling it was compared with): first the
    // ones at the page's chapter parameters (the same sizes, most likely the same recorded run,
    // so that the cuBLAS TF32 step at 4096³ shows the fp32 ceiling its text quotes), then any;
    // the latest first: a recording ends with the chapter's benchmark, whose ceilings the texts
    // quote (each sweep before it measured its own).
    if (const RunResult* r = ShownResult(c, reg, lesson, run); r && r->recorded)
        AddRecordedCeiling(*r, &source);
    const Chapter& chapter = reg.ChapterOf(lesson);
    const ParamValues params = ResolveParams(lesson.params, run);
    auto same_sizes = [&](const RunResult& r) {
        for (const ParamSpec& spec : chapter.params) {
            const ParamValue* mine = params.Find(spec.name);
            const ParamValue* theirs = r.params.Find(spec.name);
            if (!mine || !theirs || !(*mine == *theirs)) return false;
        }
        return true;
    };
    const auto& results = c.results();
    for (const bool first_pass : {true, false})
        for (auto it = results.rbegin(); it != results.rend(); ++it)
            if (it->origin == Origin::kRecorded && it->result.chapter == lesson.chapter &&
                it->result.kind == StepKind::kGpu && (!first_pass || same_sizes(it->result)))
                AddRecordedCeiling(it->result, &source);
    return source;
}

}  // namespace

namespace {

// A figure of the guess table: "2.50 ms", "1.51×".
std::string GuessFigure(double v, bool speedup) {
    return speedup ? Fixed(v, v < 10 ? 2 : 1) + "\xC3\x97" : Ms(v) + " ms";
}

void SayNotices(UiState& ui, const std::vector<ProgressNotice>& notices) {
    for (const ProgressNotice& n : notices) ui.messages.push_back({n.en, n.zh});
}

// The progress file follows the guess field: cleared, skipped, scored.
void ForgetGuess(UiState& ui, const std::string& id) {
    std::vector<ProgressNotice> notices;
    ChangeProgress(
        &ui.progress, [&](Progress& p) { ForgetPrediction(p, id); }, &notices);
    SayNotices(ui, notices);
}

void SkipGuess(UiState& ui, const std::string& id) {
    std::vector<ProgressNotice> notices;
    const std::string when = UtcTimestamp();
    ChangeProgress(
        &ui.progress, [&](Progress& p) { RecordSkip(p, id, when); }, &notices);
    SayNotices(ui, notices);
}

void ScoreGuess(UiState& ui, const std::string& id, double guess, bool speedup, double measured) {
    // Only where the kept prediction is this guess and its score changes.
    const auto kept = ui.progress.progress.predictions.find(id);
    if (kept == ui.progress.progress.predictions.end() || kept->second.skipped ||
        kept->second.value != guess || kept->second.unit != (speedup ? "x" : "ms") ||
        (kept->second.measured && *kept->second.measured == measured))
        return;
    std::vector<ProgressNotice> notices;
    const std::string when = UtcTimestamp();
    ChangeProgress(
        &ui.progress, [&](Progress& p) { ScorePrediction(p, id, measured, when); }, &notices);
    SayNotices(ui, notices);
}

// The student's guess, typed before the run (a time in ms, or a speed-up over the previous
// lesson; kept per lesson in the settings), and once given, the guess, the model's bound and
// the measurement side by side. `measured` is null while none exists or it is hidden.
void DrawGuess(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson,
               const CeilingSource& source, const RunResult* measured, bool hidden) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    const Lesson* previous = lesson.previous ? reg.FindLesson(lesson.previous) : nullptr;
    const auto saved = ui.settings.guesses.find(lesson.id);
    if (ui.guess_lesson != lesson.id) {  // the field follows the lesson shown
        ui.guess_lesson = lesson.id;
        ui.guess_text[0] = '\0';
        if (saved != ui.settings.guesses.end())
            std::snprintf(ui.guess_text, sizeof ui.guess_text, "%.6g", saved->second.value);
        ui.guess_speedup = saved != ui.settings.guesses.end() && saved->second.speedup;
    }
    if (!previous) ui.guess_speedup = false;
    auto store = [&] {
        char* end = nullptr;
        const double v = std::strtod(ui.guess_text, &end);
        const bool blank = std::string(ui.guess_text).find_first_not_of(' ') == std::string::npos;
        if (blank) {
            if (ui.settings.guesses.erase(lesson.id)) ForgetGuess(ui, lesson.id);
            return true;
        }
        if (end == ui.guess_text || *end != '\0' || !(v > 0) || !std::isfinite(v)) return false;
        ui.settings.guesses[lesson.id] = Guess{v, ui.guess_speedup};
        return true;
    };
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(Tr(ui, kYourGuess));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    if (ImGui::InputText("##guess", ui.guess_text, sizeof ui.guess_text,
                         ImGuiInputTextFlags_CharsScientific))  // "1e9" stays 1e9
        store();
    ui.guess_editing = ImGui::IsItemActive();  // kept in the progress once left
    Remember(ui, "guess_input");
    if (ImGui::IsItemDeactivatedAfterEdit() && !store())
        ui.messages.push_back(Fmt(kGuessBad.en, ui.guess_text));
    SameLineIfFits(CheckWidth("ms"));
    ImGui::PushID("guess");  // its own ID: the axis's unit is an "ms" too, in the same window
    const bool ms = ImGui::RadioButton("ms", !ui.guess_speedup);
    ImGui::PopID();
    if (ms) {
        ui.guess_speedup = false;
        store();
    }
    Remember(ui, "guess_ms");
    if (previous) {
        const std::string speedup = Fmt(Tr(ui, kGuessSpeedup), previous->label.c_str());
        SameLineIfFits(CheckWidth(speedup.c_str()));
        if (ImGui::RadioButton(speedup.c_str(), ui.guess_speedup)) {
            ui.guess_speedup = true;
            store();
        }
        Remember(ui, "guess_speedup");
    }
    const auto guess = ui.settings.guesses.find(lesson.id);
    if (guess == ui.settings.guesses.end()) {
        // No guess: the student may skip, and the page (and their progress) says so.
        const auto kept = ui.progress.progress.predictions.find(lesson.id);
        const bool skipped = kept != ui.progress.progress.predictions.end() && kept->second.skipped;
        if (!skipped) {
            SameLineIfFits(ButtonWidth(Tr(ui, kGuessSkip)));
            if (ImGui::SmallButton(Tr(ui, kGuessSkip))) SkipGuess(ui, lesson.id);
            if (ImGui::IsItemHovered()) Tooltip(Tr(ui, kGuessSkipHint));
            Remember(ui, "guess_skip");
            DrawWrappedText(Tr(ui, kGuessHint), &kGrey);
        } else {
            DrawWrappedText(Tr(ui, kGuessSkipped), &kGrey);
            if (ui.probe) ui.probe->guess_skipped = true;
        }
        // Or one of four choices built from the model's bound: 1x, 2x, 5x and 10x its time.
        const BoundedTime b =
            BoundAndTime(lesson, chapter, ResolveParams(lesson.params, ui.run), source, nullptr);
        if (b.bound_ms && *b.bound_ms > 0 && std::isfinite(*b.bound_ms)) {
            ImGui::AlignTextToFramePadding();
            ImGui::TextDisabled("%s", Tr(ui, kGuessPick));
            for (const int k : {1, 2, 5, 10}) {
                const double v = *b.bound_ms * k;
                const std::string label = Fmt(Tr(ui, kGuessChoice), k, Ms(v).c_str());
                SameLineIfFits(ButtonWidth(label.c_str()));
                ImGui::PushID(k);
                if (ImGui::SmallButton(label.c_str())) {
                    ui.settings.guesses[lesson.id] = Guess{v, false};
                    ui.guess_speedup = false;
                    std::snprintf(ui.guess_text, sizeof ui.guess_text, "%.6g", v);
                }
                ImGui::PopID();
                Remember(ui, ("guess_choice_" + std::to_string(k)).c_str());
            }
        }
        return;
    }
    SameLineIfFits(ButtonWidth(Tr(ui, kGuessClear)));
    if (ImGui::SmallButton(Tr(ui, kGuessClear))) {
        ui.settings.guesses.erase(lesson.id);
        ui.guess_text[0] = '\0';
        ForgetGuess(ui, lesson.id);
        return;
    }
    Remember(ui, "guess_clear");

    // The guess, the model's bound and the measurement, in the guess's unit.
    const BoundedTime mine =
        BoundAndTime(lesson, chapter, ResolveParams(lesson.params, ui.run), source, measured);
    BoundedTime before;
    std::optional<double> measured_speedup;
    if (previous) {
        const RunResult* p = ShownResult(c, reg, *previous, ui.run);
        before =
            BoundAndTime(*previous, chapter, ResolveParams(previous->params, ui.run), source, p);
        if (measured && p && measured->verified && p->verified && measured->median_ms > 0)
            measured_speedup = CompareResults(*measured, *p).ratio;
    }
    const GuessCheck check = CheckGuess(guess->second, mine, before, measured_speedup);
    const bool speedup = guess->second.speedup;
    const std::string row = speedup && previous
                                ? Fmt(Tr(ui, kGuessSpeedupRow), previous->label.c_str())
                                : std::string(Tr(ui, kGuessTimeRow));
    const std::array<std::string, 4> cells = {
        row, GuessFigure(check.guess, speedup),
        check.bound ? GuessFigure(*check.bound, speedup) : std::string(Tr(ui, kNoModel)),
        hidden           ? std::string(Tr(ui, kMeasuredHidden))
        : check.measured ? GuessFigure(*check.measured, speedup)
                         : std::string(Tr(ui, kNotMeasured))};
    if (ui.probe) ui.probe->guess_row = {cells[1], cells[2], cells[3]};
    if (ImGui::BeginTable("guess", 4,
                          ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit |
                              ImGuiTableFlags_NoHostExtendX)) {
        for (const char* header :
             {"", Tr(ui, kYourGuess), Tr(ui, kBoundColumn), Tr(ui, kMeasuredColumn)})
            ImGui::TableSetupColumn(header);
        ImGui::TableHeadersRow();
        ImGui::TableNextRow();
        for (size_t k = 0; k < cells.size(); ++k) {
            ImGui::TableNextColumn();
            if (k == 1)
                ImGui::TextColored(kAccent, "%s", cells[k].c_str());
            else if ((k == 2 && !check.bound) || (k == 3 && (hidden || !check.measured)))
                ImGui::TextDisabled("%s", cells[k].c_str());
            else
                ImGui::TextUnformatted(cells[k].c_str());
            if (k == 2 && !check.bound && ImGui::IsItemHovered()) Tooltip(Tr(ui, kNoModelWhy));
            if (k == 3 && hidden && ImGui::IsItemHovered()) Tooltip(Tr(ui, kMeasuredHiddenNote));
        }
        ImGui::EndTable();
    }
    Remember(ui, "guess_table");
    if (!hidden && check.measured && *check.measured > 0) {
        // Scored: how far off, kept in the progress (once per measurement).
        const std::optional<double> off = OffBy(check.guess, *check.measured);
        if (off) {
            const std::string scored =
                Fmt(Tr(ui, kGuessScored), GuessFigure(check.guess, speedup).c_str(),
                    GuessFigure(*check.measured, speedup).c_str(), Fixed(*off, 2).c_str());
            DrawWrappedText(scored);
            if (ui.probe) ui.probe->guess_scored = scored;
            ScoreGuess(ui, lesson.id, check.guess, speedup, *check.measured);
        }
    }
}

}  // namespace

void DrawPrediction(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    const ParamValues params = ResolveParams(lesson.params, ui.run);
    const CeilingSource source = PageCeilings(c, reg, lesson, ui.run);
    // With Hide answers on and before its run, the measurement is not shown (MeasuredHidden).
    const bool hidden = MeasuredHidden(ui, c, lesson);
    const RunResult* measured = hidden ? nullptr : ShownResult(c, reg, lesson, ui.run);
    DrawGuess(ui, c, reg, lesson, source, measured, hidden);
    const KernelAttributes* attributes =
        lesson.kind == StepKind::kGpu && !lesson.library && c.Mode(lesson) == LessonMode::kLive
            ? c.Attributes(lesson, ui.run)
            : nullptr;
    std::vector<std::string> lines = PredictionLines(
        ui.settings.language, lesson, reg.ChapterOf(lesson), params, source, measured, attributes);
    // Nothing measured at these settings: what the student can do about it, here.
    if (hidden) {
        if (!lines.empty() && lines.back() == Tr(ui, kPredNotYet)) lines.pop_back();
        lines.push_back(Tr(ui, kMeasuredHiddenNote));
    } else if (!measured) {
        const std::string cannot = CannotRunWhy(ui.settings.language, c, reg, lesson);
        lines.push_back(cannot.empty()
                            ? std::string(Tr(ui, kPredPressRun))
                            : Fmt(Tr(ui, kPredCannotMeasure),
                                  Say(ui.settings.language, c.UnavailableReason(lesson)).c_str()));
    }
    for (const std::string& line : lines) DrawWrappedText(line);
    if (ui.probe) ui.probe->prediction = std::move(lines);
    Remember(ui, "prediction");
}

namespace {

// A speed-up cell of the summary: "within noise" where the two results' noise intervals overlap
// (WithinNoise: the medians' confidence intervals), and
// "(live vs recorded on H100)" beside the number where one of them is recorded.
std::string SpeedupCell(const UiState& ui, const std::optional<double>& times, const RunResult* row,
                        const RunResult* other) {
    if (!times || !row || !other) return TimesText(times);
    const Speedup s = CompareResults(*row, *other);
    std::string text = s.noise && row != other ? std::string(Tr(ui, kNoiseCell)) : TimesText(times);
    if (s.mixed) text += Fmt(Tr(ui, kLiveVsRecorded), s.recorded_on.c_str());
    return text;
}

}  // namespace

void DrawSummary(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    const Lesson* base = nullptr;
    const std::vector<SummaryRow> rows = SummaryRows(
        reg, chapter, [&](const Lesson& l) { return ShownResult(c, reg, l, ui.run); }, &base);
    if (ui.probe) ui.probe->summary_rows = static_cast<int>(rows.size());
    const bool zh = ui.settings.language == "zh";
    constexpr int kColumns = 9;
    // Every cell's text first: the columns are as wide as their widest cell, on the first frame.
    const std::string vs_first =
        base ? Fmt(Tr(ui, kSumVsLesson), base->label.c_str()) : Tr(ui, kSumVsFirst);
    const std::array<std::string, kColumns> headers = {
        Tr(ui, kSumLesson), Tr(ui, kSumStep), Tr(ui, kSumTime),
        Tr(ui, kSumRate),   Tr(ui, kSumPct),  Tr(ui, kSumVsPrevious),
        vs_first,           Tr(ui, kSumSeed), Tr(ui, kSumOrigin)};
    std::vector<std::array<std::string, kColumns>> cells;
    const bool hidden = MeasuredHidden(ui, c, lesson);
    for (const SummaryRow& row : rows) {
        const Lesson& l = *row.lesson;
        const RunResult* r = row.result;
        if (hidden && l.number == lesson.number) {  // this lesson's figures: hidden, "?"
            std::array<std::string, kColumns> cell;
            cell[0] = l.label;
            cell[1] = Elide(LessonTitle(ui, l), ImGui::GetFontSize() * 9);
            for (size_t k = 2; k <= 6; ++k) cell[k] = Tr(ui, kMeasuredHidden);
            if (!l.seed.empty()) cell[7] = Tr(ui, kMeasuredHidden);
            cells.push_back(cell);
            continue;
        }
        const bool ok = r && r->verified;
        std::array<std::string, kColumns> cell;
        cell[0] = l.label;
        cell[1] = Elide(LessonTitle(ui, l), ImGui::GetFontSize() * 9);
        cell[2] = !r ? "-" : !r->verified ? Tr(ui, kWrongResult) : Ms(r->median_ms);
        if (ok) {
            // The rate with its time base (the time column is the whole run); the share with
            // the ceiling it is of.
            cell[3] = Fixed(r->Rate(), r->Rate() < 100 ? 1 : 0) + " " + r->RateUnit() +
                      Tr(ui, RateIsKernelOnly(*r) ? kKernelOnly : kWholeRun);
            if (r->pct_of_ceiling)
                cell[4] = Fmt(Tr(ui, kPctOf), Fixed(*r->pct_of_ceiling, 0).c_str(),
                              CeilingShortName(ui.settings.language, *r).c_str());
            cell[5] = SpeedupCell(ui, row.vs_previous, r, row.previous);
            cell[6] = SpeedupCell(ui, row.vs_first, r, row.first);
        }
        if (!l.seed.empty()) cell[7] = zh ? l.seed.text_zh : l.seed.text_en;
        if (r) cell[8] = Tr(ui, r->recorded ? kRecorded : kLive);
        cells.push_back(cell);
    }
    std::array<float, kColumns> widths{};
    for (int k = 0; k < kColumns; ++k) {
        widths[size_t(k)] = ImGui::CalcTextSize(headers[size_t(k)].c_str()).x;
        for (const auto& cell : cells)
            widths[size_t(k)] =
                std::max(widths[size_t(k)], ImGui::CalcTextSize(cell[size_t(k)].c_str()).x);
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                  ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
    // As tall as its rows: the sections below stay in view.
    const float height = ImGui::GetFrameHeightWithSpacing() * static_cast<float>(rows.size() + 1) +
                         ImGui::GetStyle().ScrollbarSize;
    if (!ImGui::BeginTable("summary", kColumns, flags, ImVec2(0, height))) return;
    for (int k = 0; k < kColumns; ++k)
        ImGui::TableSetupColumn(headers[size_t(k)].c_str(), ImGuiTableColumnFlags_WidthFixed,
                                widths[size_t(k)]);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < rows.size(); ++i) {
        const Lesson& l = *rows[i].lesson;
        const bool row_hidden = hidden && l.number == lesson.number;
        const RunResult* r = row_hidden ? nullptr : rows[i].result;
        const auto& cell = cells[i];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (l.number == lesson.number)
            ImGui::TextColored(kAccent, "%s", cell[0].c_str());
        else
            ImGui::TextUnformatted(cell[0].c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(cell[1].c_str());
        if (ImGui::IsItemHovered()) Tooltip(LessonTitle(ui, l).c_str());
        ImGui::TableNextColumn();
        if (!r) {
            ImGui::TextDisabled("%s", cell[2].c_str());
            if (ImGui::IsItemHovered())
                Tooltip(Tr(ui, row_hidden ? kMeasuredHiddenNote : kSumNotRun));
        } else if (!r->verified) {
            ImGui::TextColored(kRed, "%s", cell[2].c_str());
        } else {
            RightAligned(cell[2]);
        }
        for (size_t k = 3; k <= 6; ++k) {
            ImGui::TableNextColumn();
            RightAligned(cell[k]);
        }
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(cell[7].c_str());
        if (!l.seed.empty() && !row_hidden && ImGui::IsItemHovered())
            Tooltip(l.seed.source.c_str());
        ImGui::TableNextColumn();
        if (r && r->recorded)
            ImGui::TextColored(kAmber, "%s", cell[8].c_str());
        else
            ImGui::TextUnformatted(cell[8].c_str());
    }
    ImGui::EndTable();
    Remember(ui, "summary_table");
    DrawWrappedText(Tr(ui, kSumNote), &kGrey);
}

}  // namespace lessons::app
