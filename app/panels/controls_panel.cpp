// The lesson page's controls, built from the lesson's parameters (page_params.h): a slider over
// the accepted values (block sizes), an integer slider (threads), a log slider capped by this
// machine's memory (data and matrix sizes), a combo for choices (data kind, tile); cold L2; the
// run and sweep buttons, progress, and the kernel's resources at the chosen parameters.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "host.h"
#include "model/compare.h"
#include "model/sweeps.h"
#include "panels/panels.h"
#include "probe.h"
#include "text/lesson_text.h"
#include "tuning.h"
#include "units.h"
#include "words/words_student.h"

namespace lessons::app {
namespace {

// Text shown inside a slider is a printf format: a '%' must be doubled.
std::string Escaped(const std::string& text) {
    std::string out;
    for (char ch : text) out += ch == '%' ? std::string("%%") : std::string(1, ch);
    return out;
}

// A slider over the few values the parameter accepts (block sizes): never an unaccepted one.
bool ValuesSlider(UiState& ui, const ParamSpec& spec, const char* label) {
    const std::vector<ParamValue> values = spec.Values(64);
    const ParamValue current = ResolveParam(spec, ui.run);
    const auto found = std::find(values.begin(), values.end(), current);
    int index = found == values.end() ? 0 : static_cast<int>(found - values.begin());
    const int last = static_cast<int>(values.size()) - 1;
    const std::string shown = Escaped(spec.Format(values[index]));
    const bool changed = ImGui::SliderInt(label, &index, 0, last, shown.c_str());
    if (changed) SetParam(&ui.run, spec.name, values[std::clamp(index, 0, last)]);
    Remember(ui, spec.name.c_str());
    if (!spec.why.empty() && ImGui::IsItemHovered()) {
        Tooltip(Fmt(Tr(ui, kLimitedTo), spec.Describe().c_str(), spec.why.c_str()));
    }
    return changed;
}

// An integer slider (threads: 1 to twice this machine's hardware threads).
bool IntSlider(UiState& ui, const ParamSpec& spec, const char* label) {
    const auto [lo, hi] = IntRange(spec);
    int value = static_cast<int>(std::clamp(ResolveParam(spec, ui.run).number, lo, hi));
    const bool changed = ImGui::SliderInt(label, &value, static_cast<int>(lo), static_cast<int>(hi),
                                          "%d", ImGuiSliderFlags_AlwaysClamp);
    if (changed) {
        uint64_t v = static_cast<uint64_t>(std::max(value, 0));
        if (spec.step > 1) v = std::max(v / spec.step * spec.step, spec.step);
        SetParam(&ui.run, spec.name, ParamValue::Number(v));
    }
    Remember(ui, spec.name.c_str());
    if (spec.dynamic_default) {
        ImGui::SameLine();
        const unsigned long long machine = spec.Default().number;
        ImGui::TextDisabled(Tr(ui, kThisMachine), machine);
        // Past this machine's hardware threads on purpose (the range goes to twice them): said.
        if (static_cast<unsigned long long>(value) > machine && machine > 0)
            DrawWrappedText(Fmt(Tr(ui, kOversubscribed), value, machine), &kAmber);
    }
    return changed;
}

// LogCap's reason in the page's language.
const char* WhyCapped(const UiState& ui, const std::string& why) {
    for (const Word* w : {&kWhySliderEnd, &kWhyLargest, &kWhyGpu, &kWhyHost})
        if (why == w->en) return Tr(ui, *w);
    return why.c_str();
}

// What the data-size cap is and where its figures come from, in the tooltip.
void CapTooltip(const UiState& ui, const Controller& c, const std::string& cap, const char* why,
                uint64_t device_free) {
    const double device_age =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - c.InfoTime()).count();
    const std::string text =
        CapExplanation(ui.settings.language, cap, why, ui.host_available,
                       ImGui::GetTime() - ui.host_available_at, device_free, device_age);
    Tooltip(text);
}

// A log slider over powers of two and the halves between them, capped by this machine's
// memory (and the GPU's, once the worker has said how much is free). The figures are read
// again every few seconds and whenever a page is shown (DrawControls).
bool LogSlider(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson,
               const ParamSpec& spec, const char* label) {
    std::string why;
    const GpuFacts* gpu = c.devices().First();
    const uint64_t device_free = gpu ? gpu->free_memory_bytes : 0;
    // One cap for the whole chapter: the smallest of its lessons that take this parameter, so
    // that the slider's end does not move from one lesson to the next (each needs its own
    // buffers: 2 GiB on one, 1 GiB on the next, as the review found).
    uint64_t cap = LogCap(reg, lesson, spec, ui.run, ui.host_available / 10 * 9, device_free, &why);
    for (const Lesson* other : reg.LessonsOf(reg.ChapterOf(lesson))) {
        const ParamSpec* same = other->FindParam(spec.name);
        if (other == &lesson || !same || same->type != spec.type) continue;
        std::string other_why;
        const uint64_t other_cap =
            LogCap(reg, *other, *same, ui.run, ui.host_available / 10 * 9, device_free, &other_why);
        if (other_cap < cap) {
            cap = other_cap;
            why = other_why;
        }
    }
    const ParamValue current = ResolveParam(spec, ui.run);
    const uint64_t lo = LogMin(spec);
    float position = static_cast<float>(std::log2(double(std::max(current.number, lo))));
    const std::string shown = Escaped(spec.Format(current));
    const bool changed =
        ImGui::SliderFloat(label, &position, static_cast<float>(std::log2(double(lo))),
                           static_cast<float>(std::log2(double(std::max(cap, lo)))), shown.c_str());
    if (changed) SetParam(&ui.run, spec.name, ParamValue::Number(SnapLog(spec, position, cap)));
    Remember(ui, spec.name.c_str());
    const std::string cap_text = spec.Format(ParamValue::Number(cap));
    const bool hovered = ImGui::IsItemHovered() && !ImGui::IsItemActive();
    // Beside the slider where it fits, else under it, cut to the column's width.
    const std::string max_text = Fmt(Tr(ui, kMax), cap_text.c_str(), WhyCapped(ui, why));
    SameLineIfFits(ImGui::CalcTextSize(max_text.c_str()).x);
    ImGui::TextDisabled("%s", Elide(max_text, ImGui::GetContentRegionAvail().x).c_str());
    Remember(ui, (spec.name + "_cap").c_str());
    if (hovered || ImGui::IsItemHovered())
        CapTooltip(ui, c, cap_text, WhyCapped(ui, why),
                   lesson.kind == StepKind::kGpu ? device_free : 0);
    return changed;
}

// A choice: each one's note is its tooltip.
bool ChoiceCombo(UiState& ui, const ParamSpec& spec, const char* label) {
    const ParamValue current = ResolveParam(spec, ui.run);
    const bool zh = ui.settings.language == "zh";
    auto note = [&spec, zh](size_t i) {
        if (zh && i < spec.choice_notes.size() && !spec.choice_notes[i].empty()) {
            if (i < spec.choice_notes_zh.size() && !spec.choice_notes_zh[i].empty())
                return spec.choice_notes_zh[i];
            RecordTranslationMiss(spec.choice_notes[i]);
        }
        return i < spec.choice_notes.size() ? spec.choice_notes[i] : std::string();
    };
    bool changed = false;
    const std::string preview = SayChoice(ui.settings.language, spec, current.choice);
    if (ImGui::BeginCombo(label, preview.c_str())) {
        for (size_t i = 0; i < spec.choices.size(); ++i) {
            const std::string item =
                SayChoice(ui.settings.language, spec, spec.choices[i]) + "##" + spec.choices[i];
            if (ImGui::Selectable(item.c_str(), spec.choices[i] == current.choice)) {
                SetParam(&ui.run, spec.name, ParamValue::Choice(spec.choices[i]));
                changed = true;
            }
            if (!note(i).empty() && ImGui::IsItemHovered()) Tooltip(note(i).c_str());
        }
        ImGui::EndCombo();
    }
    Remember(ui, spec.name.c_str());
    const auto at = std::find(spec.choices.begin(), spec.choices.end(), current.choice);
    const std::string current_note = note(static_cast<size_t>(at - spec.choices.begin()));
    if (!current_note.empty() && ImGui::IsItemHovered()) Tooltip(current_note.c_str());
    return changed;
}

// The reason a disabled button gives on hover (an enabled one gives none).
void WhyDisabled(const std::string& why) {
    if (why.empty() || !ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
    Tooltip(why);
}

// Whether `lesson`, or the lesson before it, runs here (what Run and the sweeps need).
bool RunsHere(const Controller& c, const Registry& reg, const Lesson& lesson) {
    const Lesson* previous = lesson.previous ? reg.FindLesson(lesson.previous) : nullptr;
    return c.Mode(lesson) == LessonMode::kLive ||
           (previous && c.Mode(*previous) == LessonMode::kLive);
}

// What Tune found (and the page set to it), or why it did not finish; and the values a lesson
// opened at from a tuning.
void DrawTuning(UiState& ui, Controller& c, const Lesson& lesson) {
    const Controller::TuneAnswer* a = c.TuningOf(lesson);
    const auto seen = ui.tune_seen.find(lesson.number);
    if (a && !a->pending && (seen == ui.tune_seen.end() || seen->second != a->serial)) {
        ui.tune_seen[lesson.number] = a->serial;
        ui.tuned_note.clear();
        if (a->tuning) {
            // The page takes the tuned values, and auto-run measures them beside the previous.
            for (const auto& [name, v] : a->tuning->values.entries()) SetParam(&ui.run, name, v);
            Changed(ui);
        }
    }
    if (a && !a->pending && a->tuning) {
        const Tuning& t = *a->tuning;
        std::string values;
        for (const auto& [name, v] : t.values.entries()) {
            const ParamSpec* spec = lesson.FindParam(name);
            values += (values.empty() ? "" : ", ") + name + " " + (spec ? spec->Format(v) : "?");
        }
        DrawWrappedText(Fmt(Tr(ui, kTunedHere), t.machine.c_str(), t.when.c_str(), values.c_str(),
                            Ms(t.best_ms).c_str(), Ms(t.default_ms).c_str(),
                            t.best_ms > 0 ? t.default_ms / t.best_ms : 0.0),
                        &kGreen);
        if (!a->saved_to.empty())
            DrawWrappedText(Fmt(Tr(ui, kTunedKept), a->saved_to.c_str()), &kGrey);
        else
            DrawWrappedText(Tr(ui, kTuneNotKept), &kAmber);
        if (ui.probe) ui.probe->tuned = values;
    } else if (a && !a->pending && !a->error.empty()) {
        DrawWrappedText(Fmt(Tr(ui, kTuneFailed), Say(ui.settings.language, a->error).c_str()),
                        &kAmber);
    } else if (!ui.tuned_note.empty()) {
        const std::string note = TunedNoteText(ui);
        DrawWrappedText(note, &kGrey);
        if (ui.probe) ui.probe->tuned = note;
    }
}

}  // namespace

bool HasRecordedBlockSweep(const UiState& ui, const Controller& c, const Registry& reg,
                           const Lesson& lesson) {
    for (const Lesson* l : {&lesson, lesson.previous ? reg.FindLesson(lesson.previous) : nullptr}) {
        const ParamSpec* block = l ? BlockSizeParam(*l) : nullptr;
        if (block && SweepOf(c.results(), *l, block->name, ui.run).recorded) return true;
    }
    return false;
}

std::string CannotRunWhy(std::string_view language, const Controller& c, const Registry& reg,
                         const Lesson& lesson, bool with_note) {
    if (RunsHere(c, reg, lesson)) return {};
    std::string why =
        Fmt(Tr(language, kWhyNoRun), Say(language, c.UnavailableReason(lesson)).c_str());
    if (with_note && c.Mode(lesson) == LessonMode::kRecorded)
        why += std::string(language == "zh" ? "" : " ") + Tr(language, kWhyRecordedShown);
    return why;
}

std::string CannotSweepWhy(std::string_view language, const Controller& c, const Registry& reg,
                           const Lesson& lesson, const std::string& param) {
    for (const Lesson* l : SweptLessons(reg, lesson, param))
        if (c.Mode(*l) == LessonMode::kLive) return {};
    return Fmt(Tr(language, kWhyNoRun), Say(language, c.UnavailableReason(lesson)).c_str());
}

std::string CannotRunChapterWhy(std::string_view language, const Controller& c, const Registry& reg,
                                const Lesson& lesson) {
    for (const Lesson* l : reg.LessonsOf(reg.ChapterOf(lesson)))
        if (c.Mode(*l) == LessonMode::kLive) return {};
    return Fmt(Tr(language, kWhyNoChapterRun), Say(language, c.UnavailableReason(lesson)).c_str());
}

std::string CapExplanation(const std::string& language, const std::string& cap, const char* why,
                           uint64_t host_available, double host_age_s, uint64_t device_free,
                           double device_age_s) {
    char buf[512];
    std::string out;
    std::snprintf(buf, sizeof buf, Tr(language, kCapLimit), cap.c_str(), why);
    out += buf;
    std::snprintf(buf, sizeof buf, Tr(language, kCapHost), FormatSize(host_available).c_str(),
                  host_age_s);
    out += std::string("\n") + buf;
    if (device_free) {
        std::snprintf(buf, sizeof buf, Tr(language, kCapGpu), FormatSize(device_free).c_str(),
                      device_age_s);
        out += std::string("\n") + buf;
    } else {
        out += std::string("\n") + Tr(language, kCapGpuUnknown);
    }
    return out + "\n" + Tr(language, kCapRefresh);
}

void DrawParamControl(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson,
                      const ParamSpec& spec) {
    const char* label = Label(spec, ui.settings.language);
    bool changed = false;
    switch (ControlFor(spec)) {
        case ControlKind::kValues:
            changed = ValuesSlider(ui, spec, label);
            break;
        case ControlKind::kInt:
            changed = IntSlider(ui, spec, label);
            break;
        case ControlKind::kLog:
            changed = LogSlider(ui, c, reg, lesson, spec, label);
            break;
        case ControlKind::kCombo:
            changed = ChoiceCombo(ui, spec, label);
            break;
    }
    if (changed) Changed(ui);
}

void DrawProgress(UiState& ui, Controller& c) {
    if (!c.Busy()) return;
    const float p = c.Progress();
    // What runs, how much of it is done and, once the pace is known, the time left; the
    // label is cut to the bar (its end, the estimate, matters most).
    std::string busy = c.BusyWith(ui.settings.language), tail;
    if (busy.empty()) busy = "...";
    if (p >= 0) tail += "  " + std::to_string(static_cast<int>(p * 100 + 0.5f)) + "%";
    const std::string left = TimeLeftText(ui.settings.language, c.SecondsLeft());
    if (!left.empty()) tail += "  \xC2\xB7  " + left;
    const float bar_w = std::min(ImGui::GetFontSize() * 26, ImGui::GetContentRegionAvail().x);
    const float room =
        bar_w - ImGui::GetStyle().FramePadding.x * 2 - ImGui::CalcTextSize(tail.c_str()).x;
    const std::string label = Elide(busy, std::max(room, 0.0f)) + tail;
    ImGui::ProgressBar(p < 0 ? 0.0f : p, ImVec2(bar_w, 0), label.c_str());
    Remember(ui, "progress");
    if (ImGui::IsItemHovered()) Tooltip((busy + tail).c_str());
    SameLineIfFits(ButtonWidth(Tr(ui, kCancel)));
    if (ImGui::Button(Tr(ui, kCancel))) c.CancelAll();
    Remember(ui, "cancel");
}

void DrawControls(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    const LessonMode mode = c.Mode(lesson);
    const ParamSpec* shape = LaunchShapeParam(lesson);
    // The memory the data-size caps are taken from: read again every few seconds (cheap) and
    // when a page is shown; the GPU's free memory is asked of an idle worker at the same time.
    if (ui.host_available_at < 0 ||
        ImGui::GetTime() - ui.host_available_at > kMemoryRefreshSeconds) {
        ui.host_available = HostAvailableMemory();
        ui.host_available_at = ImGui::GetTime();
        if (lesson.kind == StepKind::kGpu && c.devices().available) c.RefreshDeviceInfo();
    }
    ImGui::PushItemWidth(
        std::min(ImGui::GetFontSize() * 16, ImGui::GetContentRegionAvail().x * 0.45f));
    if (!shape && lesson.library) ImGui::TextDisabled(Tr(ui, kChosenByLibrary), Tr(ui, kBlock));
    for (const ParamSpec& spec : lesson.params) DrawParamControl(ui, c, reg, lesson, spec);
    if (lesson.kind == StepKind::kGpu) {
        if (!lesson.params.empty() && ControlFor(lesson.params.back()) == ControlKind::kCombo)
            SameLineIfFits(CheckWidth(Tr(ui, kColdL2)));
        if (ImGui::Checkbox(Tr(ui, kColdL2), &ui.run.cold_l2)) Changed(ui);
        Remember(ui, "cold_l2");
    }
    ImGui::PopItemWidth();

    // Each button that cannot act here is disabled and says why on hover.
    const std::string cannot = CannotRunWhy(ui.settings.language, c, reg, lesson, true);
    const bool live = cannot.empty();
    // The buttons flow onto more rows where the column is narrow.
    ImGui::BeginDisabled(!live);
    if (ImGui::Button(Tr(ui, kRun))) c.RunWithPrevious(lesson, ui.run);
    ImGui::EndDisabled();
    Remember(ui, "run");
    WhyDisabled(cannot);
    const std::string cannot_chapter = CannotRunChapterWhy(ui.settings.language, c, reg, lesson);
    SameLineIfFits(ButtonWidth(Tr(ui, kRunChapter)));
    ImGui::BeginDisabled(!cannot_chapter.empty());
    if (ImGui::Button(Tr(ui, kRunChapter))) c.RunChapter(lesson, ui.run);
    ImGui::EndDisabled();
    Remember(ui, "run_chapter");
    WhyDisabled(cannot_chapter);
    // A sweep runs the lessons (this one, the previous one) that have the parameter and run here.
    const ParamSpec* block = BlockSizeParam(lesson);
    const std::string cannot_blocks =
        !block ? std::string(Tr(ui, kWhyNoBlock))
               : CannotSweepWhy(ui.settings.language, c, reg, lesson, block->name);
    // Where it cannot run, a recorded sweep is shown instead (its section opened), saying so.
    const bool show_recorded =
        block && !cannot_blocks.empty() && HasRecordedBlockSweep(ui, c, reg, lesson);
    SameLineIfFits(ButtonWidth(Tr(ui, kSweepBlocks)));
    ImGui::BeginDisabled(!cannot_blocks.empty() && !show_recorded);
    if (ImGui::Button(Tr(ui, kSweepBlocks))) {
        if (show_recorded)
            ui.open_section = "block_sweep_header";
        else
            c.SweepBlocks(lesson, ui.run);
    }
    ImGui::EndDisabled();
    Remember(ui, "sweep_blocks");
    if (show_recorded && ImGui::IsItemHovered())
        Tooltip(cannot_blocks + (ui.settings.language == "zh" ? "" : " ") +
                Tr(ui, kShowsRecordedSweep));
    else
        WhyDisabled(cannot_blocks);
    const ParamSpec* size = DataSizeParam(lesson);
    const std::string cannot_sizes =
        !size ? std::string(Tr(ui, kWhyNoSize))
              : CannotSweepWhy(ui.settings.language, c, reg, lesson, size->name);
    SameLineIfFits(ButtonWidth(Tr(ui, kSweepSizes)));
    ImGui::BeginDisabled(!cannot_sizes.empty());
    if (ImGui::Button(Tr(ui, kSweepSizes))) {
        c.SweepSizes(lesson, ui.run);
        ui.open_section = "size_sweep_header";  // its chart in view, as S opens the block sweep
    }
    ImGui::EndDisabled();
    Remember(ui, "sweep_sizes");
    WhyDisabled(cannot_sizes);
    const std::string cannot_tune =
        TunedParams(lesson).empty() ? std::string(Tr(ui, kWhyNoTune)) : cannot;
    SameLineIfFits(ButtonWidth(Tr(ui, kTune)));
    ImGui::BeginDisabled(!cannot_tune.empty());
    if (ImGui::Button(Tr(ui, kTune))) c.Tune(lesson, ui.run);
    ImGui::EndDisabled();
    Remember(ui, "tune");
    if (cannot_tune.empty() && ImGui::IsItemHovered()) Tooltip(Tr(ui, kTuneHint));
    WhyDisabled(cannot_tune);
    SameLineIfFits(CheckWidth(Tr(ui, kAutoRun)));
    ImGui::Checkbox(Tr(ui, kAutoRun), &ui.auto_run);
    Remember(ui, "auto_run");
    DrawProgress(ui, c);
    DrawTuning(ui, c, lesson);
    if (!c.Busy() && !live) {
        DrawWrappedText(Fmt(Tr(ui, kCannotRunHere),
                            Say(ui.settings.language, c.UnavailableReason(lesson)).c_str()),
                        &kAmber);
    }

    // Kernel resources at the chosen parameters: asked of the worker, or, for a recorded
    // lesson, from a recorded result made with them.
    if (lesson.kind == StepKind::kGpu && !lesson.library) {
        const std::vector<ParamSpec> own = OwnParams(reg, lesson);
        const ParamValues own_values = ResolveParams(own, ui.run);
        const std::string at = DescribeParams(own, own_values, ui.settings.language);
        const KernelAttributes* a = c.Attributes(lesson, ui.run);
        const char* source = "";
        if (!a) {
            for (const StoredResult& s : c.results())
                if (s.origin == Origin::kRecorded && s.result.lesson == lesson.number &&
                    s.result.attributes && MatchesParams(s.result, own_values)) {
                    a = &*s.result.attributes;
                    source = Tr(ui, kRecordedSuffix);
                }
        }
        if (a) {
            ImGui::TextDisabled(Tr(ui, kAttributes), a->kernel.c_str(), at.c_str(), a->registers,
                                a->static_smem_bytes, a->active_blocks_per_sm, 100 * a->occupancy,
                                source);
        } else {
            ImGui::TextDisabled(
                Tr(ui, mode == LessonMode::kLive ? kReadingAttributes : kNoAttributes), at.c_str());
        }
        Remember(ui, "attributes");
    }
}

}  // namespace lessons::app
