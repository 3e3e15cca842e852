// The evidence section: the step's counters from NVIDIA Nsight Compute, asked of the worker
// (live where it can profile, else recorded on the reference GPU, labelled), beside the
// previous step's when that one has been profiled too, with their ratio; the counters of the
// step's focus (what its "why" rests on) first and highlighted.
#include <algorithm>
#include <cstdio>

#include "glossary.h"
#include "machine_code.h"  // NcuMetrics, FocusClasses
#include "model/page_params.h"
#include "panels/panels.h"
#include "probe.h"
#include "profile.h"
#include "text/lesson_text.h"
#include "words/words_student.h"

namespace lessons::app {
namespace {

// The last launch of each kernel: the timed one (the earlier are the check and the warm-up).
std::vector<ProfiledKernel> LastLaunches(const Json& profile) {
    std::vector<ProfiledKernel> out;
    for (ProfiledKernel& k : KernelsFromJson(profile)) {
        bool seen = false;
        for (ProfiledKernel& o : out)
            if (o.name == k.name) o = k, seen = true;
        if (!seen) out.push_back(std::move(k));
    }
    return out;
}

std::string ValueText(const NcuCounter* c) {
    if (!c) return "-";
    if (!c->value) return c->text;
    char buf[64];
    const double v = *c->value;
    if (v == static_cast<double>(static_cast<long long>(v)) && v < 1e15 && v > -1e15)
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    else
        std::snprintf(buf, sizeof buf, "%.3g", v);
    return c->unit.empty() ? std::string(buf) : std::string(buf) + " " + c->unit;
}

// A string field of the worker's profile, or `fallback` (it may be missing or of another type).
std::string Str(const Json& j, const char* key, const char* fallback) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string(fallback);
}

std::string Source(UiState& ui, const Json& profile) {
    const std::string device = Str(profile, "device", "?");
    const std::string when = Str(profile, "recorded_at", "?");
    const bool live = Str(profile, "source", "") == "live";
    return Fmt(Tr(ui, live ? kProfileLiveOn : kProfileRecordedOn), device.c_str(), when.c_str());
}

// The settings a recorded profile was taken at where they are not the page's (a chapter's
// counters are recorded at its benchmark size; a setting without a profile of its own shows the
// defaults'), described as the controls name them; empty when there are none.
std::string RecordedAt(UiState& ui, const Lesson& lesson, const Json& profile) {
    if (Str(profile, "source", "") == "live") return {};
    const ParamValues recorded =
        RecordedAtOtherSettings(lesson, ResolveParams(lesson.params, ui.run), profile);
    std::vector<ParamSpec> differing;
    for (const ParamSpec& spec : lesson.params)
        if (recorded.Find(spec.name)) differing.push_back(spec);
    return differing.empty() ? std::string()
                             : DescribeParams(differing, recorded, ui.settings.language);
}

// The glossary's entry of a counter (lessons/glossary.*.md: its plain name and what it says),
// or null.
const GlossaryEntry* EntryOf(const UiState& ui, const std::string& counter) {
    const TextLanguage language =
        ui.settings.language == "zh" ? TextLanguage::kChinese : TextLanguage::kEnglish;
    for (const GlossaryEntry& e : Glossary(language))
        if (e.key == counter) return &e;
    return nullptr;
}

// The first sentence of a definition: the counter's one-line explanation, ending as a sentence
// ends (one cut at a semicolon ends with a full stop: "...; high means" was shown as "...;").
std::string FirstSentence(const std::string& text) {
    size_t at = std::string::npos;
    std::string_view end;
    for (const std::string_view e : {". ", "\xE3\x80\x82", "; ", "\xEF\xBC\x9B"}) {
        const size_t found = text.find(e);
        if (found != std::string::npos && found > 0 && found < at) {
            at = found;
            end = e;
        }
    }
    if (at == std::string::npos) return text;
    if (end == "; ") return text.substr(0, at) + ".";
    if (end == "\xEF\xBC\x9B") return text.substr(0, at) + "\xE3\x80\x82";
    return text.substr(0, at + (end == ". " ? 1 : end.size()));
}

}  // namespace

std::string LimiterRule(std::string_view language, const ProfiledKernel& k) {
    const NcuCounter* dram = k.Find("dram__throughput.avg.pct_of_peak_sustained_elapsed");
    const NcuCounter* sm = k.Find("sm__throughput.avg.pct_of_peak_sustained_elapsed");
    if (!dram || !sm || !dram->value || !sm->value) return {};
    const double d = *dram->value, s = *sm->value;
    // As Nsight Compute's speed-of-light rule: a unit above 60% of its peak is the limiter.
    constexpr double kBusy = 60;
    if (d >= kBusy && d >= s) return Fmt(Tr(language, kRuleDram), d, s);
    if (s >= kBusy) return Fmt(Tr(language, kRuleSm), s, d);
    return Fmt(Tr(language, kRuleLatency), d, s);
}

void DrawEvidence(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    if (ui.probe) ui.probe->evidence_rows = ui.probe->evidence_highlighted = 0;
    const Controller::ProfileAnswer* answer = c.Profile(lesson);
    const bool busy = answer && answer->pending;
    // Without a GPU, profiling here cannot work whatever is installed: the button says so.
    const DeviceFacts& devices = c.devices();
    const bool no_gpu = devices.reported && !devices.available;
    ImGui::BeginDisabled(busy || no_gpu);
    if (ImGui::Button(Tr(ui, kProfileLive))) c.RequestProfile(lesson, ui.run, false);
    if (no_gpu && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        Tooltip(Tr(ui, kProfileNeedsGpu));
    Remember(ui, "profile_live");
    ImGui::EndDisabled();
    SameLineIfFits(ButtonWidth(Tr(ui, kProfileRecorded)));
    ImGui::BeginDisabled(busy);
    if (ImGui::Button(Tr(ui, kProfileRecorded))) c.RequestProfile(lesson, ui.run, true);
    Remember(ui, "profile_recorded");
    ImGui::EndDisabled();
    if (no_gpu) {
        DrawWrappedText(Tr(ui, kProfileNeedsGpu), &kAmber);
        if (ui.probe) ui.probe->evidence_needs_gpu = true;
    }
    if (!answer) {
        if (!no_gpu) DrawWrappedText(Tr(ui, kProfileHint), &kGrey);
        return;
    }
    if (busy) {
        DrawWrappedText(Tr(ui, kProfiling), &kGrey);
        return;
    }
    if (answer->profile.is_null()) {
        DrawWrappedText(Fmt(Tr(ui, kProfileNone), Say(ui.settings.language, answer->error).c_str()),
                        &kGrey);
        return;
    }
    const Json& profile = answer->profile;
    DrawWrappedText(Source(ui, profile), &kGrey);
    if (const std::string at = RecordedAt(ui, lesson, profile); !at.empty())
        DrawWrappedText(Fmt(Tr(ui, kProfileRecordedAt), at.c_str()), &kGrey);
    if (const auto why = profile.find("live_failure"); why != profile.end() && why->is_string())
        DrawWrappedText(Fmt(Tr(ui, kProfileWhyNotLive),
                            Say(ui.settings.language, why->get<std::string>()).c_str()),
                        &kGrey);
    const std::vector<ProfiledKernel> kernels = LastLaunches(profile);
    // The previous step's, when it has been profiled: its first kernel's counters by name.
    std::vector<ProfiledKernel> previous;
    if (const Lesson* prev = reg.FindLesson(lesson.previous))
        if (const Controller::ProfileAnswer* p = c.Profile(*prev); p && !p->profile.is_null())
            previous = LastLaunches(p->profile);
    // The counters the step's "why" rests on: those of its focus (the instruction classes its
    // text is about), beside the previous step's.
    std::vector<std::string> focus = NcuMetrics(lesson);
    focus.erase(std::remove(focus.begin(), focus.end(), "gpu__time_duration.sum"), focus.end());
    std::string classes;
    for (const std::string& f : FocusClasses(lesson)) classes += (classes.empty() ? "" : ", ") + f;
    DrawWrappedText(Fmt(Tr(ui, kEvidenceFocus), classes.empty() ? "LDG, STG" : classes.c_str()),
                    &kAccent);
    if (previous.empty() && lesson.previous)
        DrawWrappedText(Tr(ui, kEvidenceProfilePrevious), &kGrey);
    int rows = 0, highlighted = 0;
    for (const ProfiledKernel& k : kernels) {
        ImGui::TextWrapped("%s", k.name.c_str());
        // The rule line: what limits this kernel, from its throughput counters.
        if (const std::string rule = LimiterRule(ui.settings.language, k); !rule.empty()) {
            DrawWrappedText(rule, &kAmber);
            if (ui.probe) ui.probe->evidence_rule = rule;
        }
        const int columns = previous.empty() ? 2 : 4;
        if (!ImGui::BeginTable(("counters_" + k.name).c_str(), columns,
                               ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                   ImGuiTableFlags_SizingStretchProp))
            continue;
        ImGui::TableSetupColumn(Tr(ui, kCounterColumn));
        ImGui::TableSetupColumn(Tr(ui, kThisStepColumn));
        if (columns == 4) {
            ImGui::TableSetupColumn(Tr(ui, kPreviousStepColumn));
            ImGui::TableSetupColumn(Tr(ui, kChangeColumn));
        }
        ImGui::TableHeadersRow();
        // The step's focus first, highlighted; then the rest.
        std::vector<const NcuCounter*> order;
        for (int pass = 0; pass < 2; ++pass)
            for (const NcuCounter& counter : k.counters) {
                const bool in_focus =
                    std::find(focus.begin(), focus.end(), counter.name) != focus.end();
                if (in_focus == (pass == 0)) order.push_back(&counter);
            }
        for (const NcuCounter* counter : order) {
            const bool in_focus =
                std::find(focus.begin(), focus.end(), counter->name) != focus.end();
            ImGui::TableNextRow();
            if (in_focus) {
                ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(40, 70, 120, 150));
                ++highlighted;
            }
            ImGui::TableNextColumn();
            // Its plain name and, under it, what it says in one line (the glossary, in the
            // page's language); on hover the whole definition and ncu's own name.
            const GlossaryEntry* entry = EntryOf(ui, counter->name);
            const std::string& name = entry ? entry->term : counter->name;
            ImGui::PushTextWrapPos(0);
            if (in_focus)
                ImGui::TextColored(kAccent, "%s", name.c_str());
            else
                ImGui::TextUnformatted(name.c_str());
            const bool hovered = ImGui::IsItemHovered();
            if (entry) {
                const std::string explained = FirstSentence(entry->definition);
                ImGui::TextDisabled("%s", explained.c_str());
                if (ui.probe) ui.probe->evidence_explanations.push_back(explained);
                if (ui.probe && ui.probe->evidence_first_explained.empty())
                    ui.probe->evidence_first_explained = name;
            }
            ImGui::PopTextWrapPos();
            if (rows == 0) Remember(ui, "evidence_first_counter");
            if (hovered || ImGui::IsItemHovered())
                Tooltip((entry ? entry->definition + "\n\n" : std::string()) + counter->name);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(ValueText(counter).c_str());
            if (columns == 4) {
                const NcuCounter* before = previous.front().Find(counter->name);
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(ValueText(before).c_str());
                ImGui::TableNextColumn();
                if (before && before->value && counter->value && *before->value != 0)
                    ImGui::Text("\xC3\x97%.3g", *counter->value / *before->value);
                else
                    ImGui::TextUnformatted("-");
            }
            ++rows;
        }
        ImGui::EndTable();
    }
    if (ui.probe) {
        ui.probe->evidence_rows = rows;
        ui.probe->evidence_highlighted = highlighted;
    }
}

}  // namespace lessons::app
