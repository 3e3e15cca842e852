// The charts of the lesson page: every step of the chapter side by side (noise whiskers,
// the speedup over the previous lesson; in ms, or in the rate the results are judged by), the
// host-to-device / kernel / device-to-host breakdown of GPU steps (the sweeps: sweep_charts.cpp).
// Bars match every parameter of their lesson (ShownResult).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>

#include "charts/chart.h"
#include "model/compare.h"
#include "panels/panels.h"
#include "panels/result_bars.h"
#include "probe.h"
#include "report.h"
#include "text/lesson_text.h"
#include "units.h"
#include "words/words_student.h"

namespace lessons::app {
namespace {

const char* CeilingName(const UiState& ui, Bound bound) {
    const Word* word = CeilingWord(bound, false);
    return word ? Tr(ui, *word) : "";
}

// The chapter's values without `name` (a sweep over it matches everything else).
ParamValues Without(const ParamValues& values, const std::string& name) {
    ParamValues out;
    for (const auto& [n, v] : values.entries())
        if (n != name) out.Set(n, v);
    return out;
}

// The chapter's lessons and the result each one's bar shows (null where there is none).
struct StepResults {
    std::vector<const Lesson*> lessons;
    std::vector<const RunResult*> shown;
    const RunResult* any_recorded = nullptr;  // shown here
    const RunResult* other_values = nullptr;  // recorded with other values
    std::string unit;                         // the rate's unit: the current lesson's first
};

// Each lesson's bar is its result at every one of its parameters as this page runs it (block
// size, ablation toggles, the chapter's size and data): a run with a toggle switched is drawn
// only when the page has it switched too. A recorded result appears at the values it was
// recorded with.
StepResults GatherStepResults(const UiState& ui, const Controller& c, const Registry& reg,
                              const Chapter& chapter, const Lesson& lesson) {
    StepResults s;
    s.lessons = reg.LessonsOf(chapter);
    s.shown.assign(s.lessons.size(), nullptr);
    for (size_t i = 0; i < s.lessons.size(); ++i) {
        const Lesson* l = s.lessons[i];
        const RunResult* r = ShownResult(c, reg, *l, ui.run, &s.other_values);
        if (!r) continue;
        s.shown[i] = r;
        if (r->recorded) s.any_recorded = r;
        if (s.unit.empty() || l->number == lesson.number) s.unit = r->RateUnit();
    }
    if (s.unit.empty()) s.unit = "GB/s";
    return s;
}

// The tooltip of a lesson with no bar: recorded only at other values, or not measured yet.
std::string MissingBarTooltip(const UiState& ui, const Controller& c, const Chapter& chapter,
                              const Lesson& l, const RunResult* other_values) {
    if (c.Mode(l) == LessonMode::kRecorded && other_values)
        return Fmt(
            Tr(ui, kRecordedAtOnly), l.label.c_str(),
            DescribeParams(chapter.params, other_values->params, ui.settings.language).c_str());
    return Fmt(
        Tr(ui, kNotMeasuredYet), l.label.c_str(),
        DescribeParams(l.params, ResolveParams(l.params, ui.run), ui.settings.language).c_str());
}

// Annotates the current lesson's bar with its speedup over the previous lesson, when both
// results are verified: "within noise" where their medians' intervals overlap, and "live vs
// recorded on H100" beside the number where one of them was recorded. Returns the comparison
// (none: nothing was compared).
std::optional<Speedup> AnnotateSpeedup(const UiState& ui, const Registry& reg, const Lesson& lesson,
                                       const RunResult* current, const RunResult* previous,
                                       std::vector<chart::Bar>* bars) {
    const Lesson* previous_lesson = lesson.previous ? reg.FindLesson(lesson.previous) : nullptr;
    if (!current || !previous || !previous_lesson || !current->verified || !previous->verified ||
        !(current->median_ms > 0))
        return std::nullopt;
    const Speedup speedup = CompareResults(*current, *previous);
    const double x = speedup.ratio;
    std::string text = speedup.noise ? Fmt(Tr(ui, kWithinNoise), previous_lesson->label.c_str())
                                     : Fmt(Tr(ui, x >= 1 ? kFaster : kSlower), x >= 1 ? x : 1 / x,
                                           previous_lesson->label.c_str());
    if (speedup.mixed) text += Fmt(Tr(ui, kLiveVsRecorded), speedup.recorded_on.c_str());
    for (chart::Bar& b : *bars)
        if (b.highlight) b.annotation = text;
    return speedup;
}

// One bar per lesson of the chapter: the current lesson's highlighted (and annotated with its
// speedup), the previous one's in its own color.
std::vector<chart::Bar> StepBars(const UiState& ui, const Controller& c, const Registry& reg,
                                 const Chapter& chapter, const Lesson& lesson,
                                 const StepResults& steps, std::optional<Speedup>* speedup) {
    std::vector<chart::Bar> bars;
    const RunResult *current = nullptr, *previous = nullptr;
    const bool hidden = MeasuredHidden(ui, c, lesson);
    for (size_t i = 0; i < steps.lessons.size(); ++i) {
        const Lesson* l = steps.lessons[i];
        chart::Bar b;
        b.label = l->label;
        b.highlight = l->number == lesson.number;
        b.color = b.highlight                    ? kCurrentColor
                  : l->number == lesson.previous ? kPreviousColor
                                                 : kOtherColor;
        if (b.highlight && hidden) {
            b.tooltip = Tr(ui, kMeasuredHiddenNote);  // no bar, no speed-up: the student guesses
        } else if (const RunResult* r = steps.shown[i]) {
            if (b.highlight) current = r;
            if (l->number == lesson.previous) previous = r;
            SetBarValues(ui, *r, steps.unit, &b);
            b.invalid = !r->verified;
            b.hatched = r->recorded;
            b.tooltip = ResultTooltip(ui, reg, *r);
        } else {
            b.tooltip = MissingBarTooltip(ui, c, chapter, *l, steps.other_values);
        }
        bars.push_back(b);
    }
    *speedup = AnnotateSpeedup(ui, reg, lesson, current, previous, &bars);
    return bars;
}

// Draws the bar chart itself, in ms or in the rate the results are judged by; on a log axis
// where the student chose it for this chapter, or else where its values span more than 20x.
void DrawStepBars(UiState& ui, const Chapter& chapter, const std::vector<chart::Bar>& bars,
                  const std::string& unit) {
    std::vector<double> values;
    for (const chart::Bar& b : bars)
        if (!b.invalid) values.push_back(b.value);
    ui.log_scale = ui.log_choice.Resolve(chapter.id, ui.log_scale, values);
    if (ui.probe) {
        ui.probe->step_bars = bars;
        ui.probe->step_log = ui.log_scale;
        ui.probe->experiments.clear();
    }
    const std::string axis =
        ui.rate_axis ? Fmt(Tr(ui, kAxisRate), unit.c_str()) : std::string(Tr(ui, kAxisMs));
    chart::BarOptions o;
    o.unit = axis.c_str();
    o.log_scale = ui.log_scale;
    o.height = ui.step_chart_height > 0 ? ui.step_chart_height : ImGui::GetFontSize() * 14;
    o.layout = ui.probe ? &ui.probe->step_layout : nullptr;
    o.wrong_text = Tr(ui, kWrongResult);
    chart::BarChart("steps", bars, o);
    Remember(ui, "step_chart");
    // (Not in presenter mode: its notes are whole there, and the Log box shows the scale.)
    if (!ui.log_choice.Chosen(chapter.id) && ui.log_scale && !ui.presenter)
        ImGui::TextDisabled("%s", Tr(ui, kLogAuto));
}

// A grey note under the step chart, wrapped: never cut, in presenter mode too (a class cannot
// hover; the chart there gives the notes the height they took in the last frame).
void Note(const UiState&, const std::string& text) {
    DrawWrappedText(text, &kGrey);
}

// The note under hatched bars: every GPU they were recorded on ("2x NVIDIA H200" for a two-GPU
// result), at which values and when.
void DrawHatchedNote(const UiState& ui, const Chapter& chapter, const StepResults& steps) {
    if (!steps.any_recorded) return;
    std::vector<std::string> on;
    for (const RunResult* r : steps.shown) {
        if (!r || !r->recorded || r->devices.empty()) continue;
        // In presenter mode without the vendor ("H100 80GB HBM3"): the note stays short.
        std::string name = ui.presenter ? WithoutVendor(r->Device()) : r->Device();
        if (r->devices.size() > 1) name = std::to_string(r->devices.size()) + "x " + name;
        if (std::find(on.begin(), on.end(), name) == on.end()) on.push_back(name);
    }
    std::string devices;
    for (const std::string& name : on) devices += (devices.empty() ? "" : " / ") + name;
    Note(ui, Fmt(Tr(ui, kHatched), devices.c_str(),
                 DescribeParams(chapter.params, steps.any_recorded->params, ui.settings.language)
                     .c_str(),
                 steps.any_recorded->timestamp.substr(0, 10).c_str()));
}

// The note on a recording made at other values, with a button that switches the page to them.
void DrawOtherValuesNote(UiState& ui, const Chapter& chapter, const RunResult* other_values) {
    if (!other_values) return;
    const std::string at =
        DescribeParams(chapter.params, other_values->params, ui.settings.language);
    Note(ui, Fmt(Tr(ui, kRecordedOn), other_values->Device().c_str(), at.c_str()));
    const std::string label = Fmt(Tr(ui, kCompareAt), at.c_str());
    if (ImGui::SmallButton(label.c_str())) {
        for (const ParamSpec& spec : chapter.params)
            if (const ParamValue* v = other_values->params.Find(spec.name))
                SetParam(&ui.run, spec.name, *v);
        Changed(ui);
    }
    Remember(ui, "compare_recorded");
}

// A lesson on several GPUs: the results recorded with more GPUs than this machine ran, beside
// the live bars (a one-GPU machine runs these lessons with one GPU).
void DrawMultiGpuRecordings(const UiState& ui, const Controller& c, const Chapter& chapter,
                            const Lesson& lesson) {
    const ParamSpec* gpu_count = GpuCountParam(lesson);
    if (!gpu_count) return;
    std::map<uint64_t, const RunResult*> by_gpus;  // the newest recorded one per GPU count
    for (const StoredResult& s : c.results())
        if (s.origin == Origin::kRecorded && s.result.lesson == lesson.number &&
            s.result.Number(gpu_count->name).value_or(1) > 1)
            by_gpus[*s.result.Number(gpu_count->name)] = &s.result;
    for (const auto& [gpus, r] : by_gpus) {
        std::string devices;
        for (const std::string& d : r->devices) devices += (devices.empty() ? "" : ", ") + d;
        Note(ui, Fmt(Tr(ui, kRecordedWithGpus), int(gpus), devices.c_str(),
                     r->timestamp.substr(0, 10).c_str(), Ms(r->median_ms).c_str(), r->Rate(),
                     r->RateUnit(),
                     DescribeParams(chapter.params, r->params, ui.settings.language).c_str()));
    }
}

// The parameter a lesson of independent experiments varies: its first own choice parameter
// (variant, divergence, memory), else its first own parameter that is not its launch shape
// (stride); null when it has none.
const ParamSpec* ExperimentParam(const Chapter& chapter, const Lesson& lesson) {
    const ParamSpec* shape = LaunchShapeParam(lesson);
    const ParamSpec* other = nullptr;
    for (const ParamSpec& p : lesson.params) {
        const bool shared = std::any_of(chapter.params.begin(), chapter.params.end(),
                                        [&](const ParamSpec& c) { return c.name == p.name; });
        if (shared || &p == shape) continue;
        if (p.type == ParamType::kChoice) return &p;
        if (!other) other = &p;
    }
    return other;
}

// One experiment's bars: its results at the page's settings, one per value of the parameter it
// varies (live preferred, then the newest), in the parameter's order.
std::vector<chart::Bar> ExperimentBars(const UiState& ui, const Controller& c, const Registry& reg,
                                       const Chapter& chapter, const Lesson& lesson, bool current,
                                       std::string* unit) {
    const ParamSpec* along = ExperimentParam(chapter, lesson);
    const ParamValues page = ResolveParams(lesson.params, ui.run);
    const ParamValues match = along ? Without(page, along->name) : page;
    std::map<std::string, const StoredResult*> by_value;
    for (const StoredResult& s : c.results()) {
        const RunResult& r = s.result;
        if (r.lesson != lesson.number || !MatchesParams(r, match)) continue;
        if (s.origin == Origin::kRecorded && c.Mode(lesson) == LessonMode::kLive) continue;
        const ParamValue* v = along ? r.params.Find(along->name) : nullptr;
        const std::string key = along && v ? along->Format(*v) : std::string();
        const StoredResult*& kept = by_value[key];
        if (!kept || s.sequence > kept->sequence) kept = &s;
    }
    std::vector<std::string> order;
    if (along) {
        if (along->type == ParamType::kChoice) {
            order = along->choices;
        } else {
            std::vector<std::pair<uint64_t, std::string>> numbers;
            for (const auto& [key, s] : by_value)
                if (const ParamValue* v = s->result.params.Find(along->name))
                    numbers.emplace_back(v->number, key);
            std::sort(numbers.begin(), numbers.end());
            for (const auto& n : numbers) order.push_back(n.second);
        }
    } else {
        order.push_back(std::string());
    }
    const std::string shown_value =
        along && page.Find(along->name) ? along->Format(*page.Find(along->name)) : std::string();
    std::vector<chart::Bar> bars;
    for (const std::string& key : order) {
        const auto it = by_value.find(key);
        if (it == by_value.end()) continue;
        const RunResult& r = it->second->result;
        if (unit->empty()) *unit = r.RateUnit();
        chart::Bar b;
        b.label = !along                              ? lesson.label
                  : along->type == ParamType::kChoice ? SayChoice(ui.settings.language, *along, key)
                                                      : key;
        // The variant the page shows, in the current lesson's chart only.
        b.highlight = current && key == shown_value;
        b.color = b.highlight ? kCurrentColor : kOtherColor;
        SetBarValues(ui, r, *unit, &b);
        b.invalid = !r.verified;
        b.hatched = r.recorded;
        b.tooltip = ResultTooltip(ui, reg, r);
        bars.push_back(std::move(b));
    }
    return bars;
}

// A chapter of independent experiments (Chapter::independent_steps): one small chart per
// lesson, each on its own axis and in its own unit (GB/s beside GFLOP/s), with its variants
// side by side and no speed-up between lessons.
void DrawExperiments(UiState& ui, const Controller& c, const Registry& reg, const Chapter& chapter,
                     const Lesson& lesson) {
    // Where the layout gives the chart a height (presenter mode): this lesson's chart alone,
    // that tall.
    const bool alone = ui.step_chart_height > 0;
    if (!alone) DrawWrappedText(Tr(ui, kExperiments), &kGrey);
    // The Log checkbox is the chapter's choice for all of them (unticked while none is made:
    // each chart then follows its own span).
    ui.log_scale = ui.log_choice.Resolve(chapter.id, ui.log_scale, {});
    const std::optional<bool> chosen = ui.log_choice.Chosen(chapter.id);
    const std::vector<const Lesson*> lessons =
        alone ? std::vector<const Lesson*>{&lesson} : reg.LessonsOf(chapter);
    const float font = ImGui::GetFontSize();
    // Two side by side only where each still has room for its labels (2.2 has six variants).
    const int columns = !alone && ImGui::GetContentRegionAvail().x >= font * 56 ? 2 : 1;
    const float chart_h =
        alone ? std::max(font * 8, ui.step_chart_height - ImGui::GetTextLineHeightWithSpacing())
              : font * 10;
    if (ui.probe) {
        ui.probe->experiments.clear();
        ui.probe->step_bars.clear();
        ui.probe->step_headline.clear();
        ui.probe->step_noise = false;
    }
    if (!ImGui::BeginTable("experiments", columns, ImGuiTableFlags_SizingStretchSame)) return;
    for (const Lesson* l : lessons) {
        ImGui::TableNextColumn();
        ImGui::PushID(l->id.c_str());
        std::string unit;
        std::vector<chart::Bar> bars = ExperimentBars(ui, c, reg, chapter, *l, l == &lesson, &unit);
        if (unit.empty()) unit = "GB/s";
        const std::string title = l->label + "  " + LessonTitle(ui, *l);
        const float avail = ImGui::GetContentRegionAvail().x;
        if (l->number == lesson.number)
            ImGui::TextColored(kAccent, "%s", Elide(title, avail).c_str());
        else
            ImGui::TextUnformatted(Elide(title, avail).c_str());
        std::vector<double> values;
        for (const chart::Bar& b : bars)
            if (!b.invalid) values.push_back(b.value);
        const std::string axis =
            ui.rate_axis ? Fmt(Tr(ui, kAxisRate), unit.c_str()) : std::string(Tr(ui, kAxisMs));
        if (l == &lesson && MeasuredHidden(ui, c, lesson)) {
            DrawWrappedText(Tr(ui, kMeasuredHiddenNote), &kGrey);
            bars.clear();
        } else if (bars.empty()) {
            ImGui::TextDisabled("%s", Tr(ui, kExperimentNoResult));
        } else {
            chart::BarOptions o;
            o.unit = axis.c_str();
            o.log_scale = chosen ? *chosen : chart::SpansLogRange(values);
            o.height = chart_h;
            o.wrong_text = Tr(ui, kWrongResult);
            chart::BarChart("experiment", bars, o);
        }
        if (l->number == lesson.number) Remember(ui, "step_chart");
        if (ui.probe) ui.probe->experiments.push_back(bars);
        ImGui::PopID();
    }
    ImGui::EndTable();
}

}  // namespace

void DrawStepChart(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    if (chapter.independent_steps) {
        DrawExperiments(ui, c, reg, chapter, lesson);
        return;
    }
    const StepResults steps = GatherStepResults(ui, c, reg, chapter, lesson);
    std::optional<Speedup> speedup;
    const std::vector<chart::Bar> bars = StepBars(ui, c, reg, chapter, lesson, steps, &speedup);
    DrawStepBars(ui, chapter, bars, steps.unit);
    if (ui.probe) {
        ui.probe->step_headline.clear();
        for (const chart::Bar& b : bars)
            if (b.highlight) ui.probe->step_headline = b.annotation;
        ui.probe->step_noise = speedup && speedup->noise;
    }
    if (speedup && speedup->noise) {
        // Too close to call: say why, and offer the cure (longer timing, more samples).
        DrawWrappedText(Tr(ui, kNoiseExplained), &kAmber);
        const bool live = c.Mode(lesson) == LessonMode::kLive;
        // In presenter mode a button that cannot act here (recorded results) is left out: its
        // line is the chart's (at 1280x720, scale 2 the notes would push the chart to nothing).
        if (live || !ui.presenter) {
            ImGui::BeginDisabled(!live || c.Busy());
            if (ImGui::SmallButton(Tr(ui, kRerunMoreReps)))
                c.RunWithPrevious(lesson, ui.run, kPreciseMinTimeS);
            Remember(ui, "rerun_more_reps");
            ImGui::EndDisabled();
        }
    }
    DrawHatchedNote(ui, chapter, steps);
    DrawOtherValuesNote(ui, chapter, steps.other_values);
    DrawMultiGpuRecordings(ui, c, chapter, lesson);
}

namespace {

// The parts a result's bar is made of: the whole-step parts it reports ("h2d", "peer",
// "kernel", "d2h", "host add", "reduce-scatter", ...), not each GPU's ("gpu1 h2d"). Steps
// that report only their kernel (the reduction's one-GPU steps) have no breakdown.
std::vector<const TimedPart*> WholeStepParts(const RunResult& r) {
    std::vector<const TimedPart*> out;
    for (const TimedPart& p : r.parts)
        if (p.name.rfind("gpu", 0) != 0) out.push_back(&p);
    if (out.size() == 1 && out.front()->name == "kernel") out.clear();
    return out;
}

// A part's name in the legend and tooltips, in the page's language: every chapter's four by
// the app's words, the chapter's own as it names them (Chapter::part_names), one GPU's or one
// rank's ("gpu1 h2d", "rank0 nccl") from its own, anything else as reported.
std::string PartLabel(const UiState& ui, const Chapter& chapter, const std::string& name) {
    const bool zh = ui.settings.language == "zh";
    for (const char* prefix : {"gpu", "rank"}) {
        const size_t n = std::strlen(prefix);
        const size_t space = name.find(' ');
        if (name.compare(0, n, prefix) != 0 || space == std::string::npos || space == n ||
            name.find_first_not_of("0123456789", n) != space)
            continue;
        const std::string who = name.substr(n, space - n), part = name.substr(space + 1);
        const std::string label = PartLabel(ui, chapter, part);
        if (prefix[0] == 'g') return "GPU " + who + " " + label;
        return zh ? "rank " + who + " 的 " + label : "rank " + who + " " + label;
    }
    if (name == "h2d") return Tr(ui, kHostToDevice);
    if (name == "peer") return Tr(ui, kGpuToGpu);
    if (name == "kernel") return Tr(ui, kKernel);
    if (name == "d2h") return Tr(ui, kDeviceToHost);
    for (const Chapter::PartName& p : chapter.part_names)
        if (p.part == name) return zh ? p.zh : p.en;
    return Say(ui.settings.language, name);  // a part no chapter named: a translation miss
}

}  // namespace

void DrawBreakdown(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    std::vector<const RunResult*> shown;
    // The legend: the usual parts first, in the order a copy-scan-copy step runs them, then
    // any other part the chapter's steps report (the all-reduce chapter), in the order they appear.
    std::vector<std::string> names = {"h2d", "peer", "kernel", "d2h"};
    std::vector<bool> used(names.size(), false);
    for (const Lesson* l : reg.LessonsOf(chapter)) {
        const RunResult* r = ShownResult(c, reg, *l, ui.run);
        if (!r) continue;
        const std::vector<const TimedPart*> parts = WholeStepParts(*r);
        if (parts.empty()) continue;
        shown.push_back(r);
        for (const TimedPart* p : parts) {
            const auto at = std::find(names.begin(), names.end(), p->name);
            if (at == names.end()) {
                names.push_back(p->name);
                used.push_back(true);
            } else {
                used[size_t(at - names.begin())] = true;
            }
        }
    }
    if (shown.empty()) {
        ImGui::TextDisabled("%s", Tr(ui, kNoBreakdown));
        return;
    }
    const ImU32 palette[] = {IM_COL32(230, 150, 60, 255),  IM_COL32(90, 190, 120, 255),
                             IM_COL32(80, 160, 255, 255),  IM_COL32(170, 110, 230, 255),
                             IM_COL32(230, 200, 80, 255),  IM_COL32(240, 110, 130, 255),
                             IM_COL32(120, 210, 220, 255), IM_COL32(250, 240, 170, 255),
                             IM_COL32(150, 120, 90, 255),  IM_COL32(200, 200, 200, 255)};
    chart::BarOptions o;
    std::vector<std::string> kept;  // the legend's parts, by name
    for (size_t i = 0; i < names.size(); ++i) {
        if (!used[i]) continue;
        kept.push_back(names[i]);
        o.part_names.push_back(PartLabel(ui, chapter, names[i]));
        o.part_colors.push_back(palette[std::min(i, std::size(palette) - 1)]);
    }
    std::vector<chart::Bar> bars;
    const bool hidden = MeasuredHidden(ui, c, lesson);
    for (const RunResult* r : shown) {
        chart::Bar b;
        const Lesson* of = reg.FindLesson(r->lesson);
        if (hidden && r->lesson == lesson.number) {  // its place kept, its figures not shown
            b.label = lesson.label;
            b.highlight = true;
            b.tooltip = Tr(ui, kMeasuredHiddenNote);
            bars.push_back(b);
            continue;
        }
        b.label = of ? of->label : r->id;
        for (const std::string& name : kept) b.parts.push_back(r->Part(name).value_or(0));
        b.value = 0;
        for (double p : b.parts) b.value += p;
        b.highlight = r->lesson == lesson.number;
        b.hatched = r->recorded;
        b.invalid = !r->verified;
        const auto h2d = r->Part("h2d"), kernel = r->Part("kernel"), d2h = r->Part("d2h");
        if (h2d && kernel && d2h)
            b.tooltip =
                Fmt(Tr(ui, kBreakdownTip), Ms(*h2d).c_str(), Ms(*kernel).c_str(), Ms(*d2h).c_str());
        // The other parts, and each GPU's own ("gpu1 h2d", "gpu1 peer", ...), as reported.
        for (const TimedPart& p : r->parts) {
            if (h2d && kernel && d2h && (p.name == "h2d" || p.name == "kernel" || p.name == "d2h"))
                continue;
            b.tooltip += (b.tooltip.empty() ? "" : "\n") + PartLabel(ui, chapter, p.name) + " " +
                         Ms(p.ms) + " ms";
        }
        bars.push_back(b);
    }
    if (o.part_names.size() > 4) {
        // More parts than the chart's one-line legend holds (the all-reduce chapter): a legend that
        // wraps.
        const float font = ImGui::GetFontSize(), avail = ImGui::GetContentRegionAvail().x;
        float line = 0;  // the width used on the legend's current line
        for (size_t i = 0; i < o.part_names.size(); ++i) {
            const float w = font * 1.2f + ImGui::CalcTextSize(o.part_names[i].c_str()).x;
            if (line > 0 && line + w <= avail) {
                ImGui::SameLine(0, font * 0.6f);
            } else {
                line = 0;
            }
            line += w + font * 0.6f;
            const ImVec2 at = ImGui::GetCursorScreenPos();
            ImGui::GetWindowDrawList()->AddRectFilled(
                ImVec2(at.x, at.y + font * 0.1f), ImVec2(at.x + font * 0.8f, at.y + font * 0.9f),
                o.part_colors[i]);
            ImGui::Dummy(ImVec2(font, font));
            ImGui::SameLine(0, font * 0.2f);
            ImGui::TextUnformatted(o.part_names[i].c_str());
        }
        o.part_names.clear();
    }
    o.unit = "ms";
    // Its own scale: the chapter's choice where the student made one, else by its own span.
    std::vector<double> values;
    for (const chart::Bar& b : bars) values.push_back(b.value);
    const std::optional<bool> chosen = ui.log_choice.Chosen(chapter.id);
    o.log_scale = chosen ? *chosen : chart::SpansLogRange(values);
    o.height = ImGui::GetFontSize() * 12;
    o.wrong_text = Tr(ui, kWrongResult);
    chart::BarChart("breakdown", bars, o);
}

// The results' rates, times and tooltips (result_bars.h).
// The result's rate in `unit` ("GB/s" or "GFLOP/s"), so that a chapter's bars share one axis.
double RateIn(const RunResult& r, const std::string& unit) {
    return unit == "GFLOP/s" ? r.gflops.value_or(0) : r.gbps;
}

// The time a sweep plots: the part the rates are taken over (the kernel), else the whole run.
double RateMs(const RunResult& r) {
    return r.rate_ms > 0 ? r.rate_ms : r.median_ms;
}

std::string ResultTooltip(const UiState& ui, const Registry& reg, const RunResult& r) {
    const Lesson* lesson = reg.FindLesson(r.lesson);
    std::string t = (lesson ? Fmt(Tr(ui, kLessonN), lesson->label.c_str()) + "  " : std::string()) +
                    r.id + "\n";
    if (lesson) t += DescribeParams(lesson->params, r.params, ui.settings.language) + "\n";
    t += Fmt(Tr(ui, kMedianLine), Ms(r.median_ms).c_str(), Ms(r.min_ms).c_str(),
             Ms(r.max_ms).c_str(), r.reps) +
         "\n";
    if (r.trials > 1) t += Fmt(Tr(ui, kTrialsLine), r.trials) + "\n";
    t += Fixed(r.gbps, 1) + " GB/s";
    if (r.gflops) t += ", " + Fixed(*r.gflops, 1) + " GFLOP/s";
    if (r.pct_of_ceiling) {
        // A tensor-core step without its ceiling was compared with the fp32 peak: named as such.
        const bool fallback = IsTensor(r.work.bound) && !r.ceiling_note.empty();
        t += ", " + Fmt(Tr(ui, kPctOf), Fixed(*r.pct_of_ceiling, 1).c_str(),
                        CeilingName(ui, fallback ? Bound::kFp32 : r.work.bound));
        if (r.ceiling) t += " (" + Fixed(*r.ceiling, 0) + " " + r.RateUnit() + ")";
        if (fallback)
            t += "\n" + std::string(
                            Tr(ui, r.work.bound == Bound::kBf16 ? kNoBf16Ceiling : kNoTf32Ceiling));
    }
    t += "\n";
    t += r.verified ? std::string(Tr(ui, kVerified))
                    : Fmt(Tr(ui, kWrongWith), Say(ui.settings.language, r.CheckMessage()).c_str());
    if (r.recorded)
        t += "\n" +
             Fmt(Tr(ui, kRecordedOnDate), r.Device().c_str(), r.timestamp.substr(0, 10).c_str());
    return t;
}

// The bar's value and whiskers, in ms or in `unit`.
void SetBarValues(const UiState& ui, const RunResult& r, const std::string& unit, chart::Bar* b) {
    // Whiskers: the noise interval "within noise" is judged by (the median's confidence
    // interval; the min-max spread of a result without one).
    const Interval noise = NoiseInterval(r);
    if (ui.rate_axis) {
        // The rate at the interval's slow and fast ends.
        b->value = RateIn(r, unit);
        if (noise.lo > 0 && noise.hi > 0) {
            b->lo = b->value * r.median_ms / noise.hi;
            b->hi = b->value * r.median_ms / noise.lo;
        }
    } else {
        b->value = r.median_ms;
        b->lo = noise.lo;
        b->hi = noise.hi;
    }
}

}  // namespace lessons::app
