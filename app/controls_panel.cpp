// The lesson page's controls: block size (only the sizes the step accepts), data size (log
// scale, capped by this machine's memory), threads for OpenMP steps, data kind, cold L2; the
// run and sweep buttons, progress, and the kernel's resources at the chosen block size.
#include <algorithm>
#include <cmath>

#include "host.h"
#include "lesson_text.h"
#include "panels.h"
#include "units.h"

namespace lessons::app {
namespace {

// The largest size (a power of two) whose memory this machine has, for this lesson.
uint64_t SizeCap(const Controller& c, const Registry& reg, const Lesson& lesson, std::string* why) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    const uint64_t host = HostAvailableMemory() / 10 * 9;
    const Json& d = c.device();
    const uint64_t device =
        d.contains("free_memory_bytes") ? d["free_memory_bytes"].get<uint64_t>() : 0;
    uint64_t cap = uint64_t(1) << 36;
    *why = "64 GiB, the slider's end";
    while (cap > 1024) {
        const MemoryNeeds n = lesson.needs(cap);
        const bool host_ok = chapter.workload_host_bytes(cap) + n.host_bytes <= host;
        const bool dev_ok =
            lesson.kind != StepKind::kGpu || device == 0 || n.device_bytes <= device;
        if (host_ok && dev_ok) break;
        *why = host_ok ? "free GPU memory" : "available host memory";
        cap /= 2;
    }
    return cap;
}

}  // namespace

void DrawControls(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    const LessonMode mode = c.Mode(lesson);
    ImGui::PushItemWidth(
        std::min(ImGui::GetFontSize() * 16, ImGui::GetContentRegionAvail().x * 0.45f));
    if (lesson.blocks) {
        const std::vector<int> choices = lesson.blocks->Choices();
        int index = 0;
        for (size_t i = 0; i < choices.size(); ++i)
            if (choices[i] == ui.run.block) index = static_cast<int>(i);
        if (!lesson.blocks->Accepts(ui.run.block)) {
            ui.run.block = lesson.blocks->default_block;
            index = static_cast<int>(std::find(choices.begin(), choices.end(), ui.run.block) -
                                     choices.begin());
        }
        const std::string shown = std::to_string(ui.run.block);
        if (ImGui::SliderInt(Tr(ui, kBlock), &index, 0, static_cast<int>(choices.size()) - 1,
                             shown.c_str())) {
            ui.run.block = choices[std::clamp(index, 0, static_cast<int>(choices.size()) - 1)];
            Changed(ui);
        }
        Remember(ui, "block");
        if (!lesson.blocks->why.empty() && ImGui::IsItemHovered())
            ImGui::SetTooltip("Limited: %s.", lesson.blocks->why.c_str());
    } else if (lesson.library) {
        ImGui::TextDisabled("%s: chosen by the library", Tr(ui, kBlock));
    }

    std::string cap_why;
    const uint64_t cap = SizeCap(c, reg, lesson, &cap_why);
    float log_size =
        static_cast<float>(std::log2(std::max<double>(double(ui.run.size_bytes), 1024)));
    const std::string size_text = FormatSize(EffectiveSize(chapter, ui.run.size_bytes));
    if (ImGui::SliderFloat(Tr(ui, kSize), &log_size, 10.0f,
                           static_cast<float>(std::log2(double(cap))), size_text.c_str())) {
        // Whole powers of two and the halves between them keep the values readable.
        const double snapped = std::round(log_size * 2) / 2;
        ui.run.size_bytes = std::min<uint64_t>(cap, static_cast<uint64_t>(std::pow(2.0, snapped)));
        Changed(ui);
    }
    Remember(ui, "size");
    ImGui::SameLine();
    ImGui::TextDisabled("max %s (%s)", FormatSize(cap).c_str(), cap_why.c_str());

    if (lesson.uses_threads) {
        const int hw = GetHostInfo().hardware_threads;
        if (ui.run.threads <= 0) ui.run.threads = hw;
        if (ImGui::SliderInt(Tr(ui, kThreads), &ui.run.threads, 1, std::max(2 * hw, 2)))
            Changed(ui);
        Remember(ui, "threads");
        ImGui::SameLine();
        ImGui::TextDisabled("this machine: %d", hw);
    }
    const DataKind data = EffectiveData(chapter, ui.run.data);
    if (ImGui::BeginCombo(Tr(ui, kData), ToString(data))) {
        for (DataKind k : chapter.data_kinds)
            if (ImGui::Selectable(ToString(k), k == data)) {
                ui.run.data = k;
                Changed(ui);
            }
        ImGui::EndCombo();
    }
    if (lesson.kind == StepKind::kGpu) {
        ImGui::SameLine();
        if (ImGui::Checkbox(Tr(ui, kColdL2), &ui.run.cold_l2)) Changed(ui);
    }
    ImGui::PopItemWidth();

    const bool live =
        mode == LessonMode::kLive ||
        (lesson.previous && c.Mode(*reg.FindLesson(lesson.previous)) == LessonMode::kLive);
    ImGui::BeginDisabled(!live);
    if (ImGui::Button(Tr(ui, kRun))) c.RunWithPrevious(lesson, ui.run);
    Remember(ui, "run");
    ImGui::SameLine();
    ImGui::BeginDisabled(!lesson.blocks);
    if (ImGui::Button(Tr(ui, kSweepBlocks))) c.SweepBlocks(lesson, ui.run);
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(Tr(ui, kSweepSizes))) c.SweepSizes(lesson, ui.run);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::Checkbox(Tr(ui, kAutoRun), &ui.auto_run);
    if (c.Busy()) {
        const float p = c.Progress();
        ImGui::ProgressBar(p < 0 ? 0.0f : p, ImVec2(ImGui::GetFontSize() * 16, 0),
                           c.BusyWith().empty() ? "..." : c.BusyWith().c_str());
        ImGui::SameLine();
        if (ImGui::Button(Tr(ui, kCancel))) c.CancelAll();
    } else if (!live) {
        DrawWrappedText("This lesson cannot run here: " + c.UnavailableReason(lesson) +
                            ". Its recorded results are shown.",
                        &kAmber);
    }

    // Kernel resources at the chosen block size: asked of the worker, or, for a recorded
    // lesson, from a recorded result at that block size.
    if (lesson.kind == StepKind::kGpu && !lesson.library) {
        const KernelAttributes* a = c.Attributes(lesson, ui.run.block);
        const char* source = "";
        if (!a) {
            for (const StoredResult& s : c.results())
                if (s.origin == Origin::kRecorded && s.result.lesson == lesson.number &&
                    s.result.attributes && s.result.block == ui.run.block) {
                    a = &*s.result.attributes;
                    source = " (recorded)";
                }
        }
        if (a) {
            ImGui::TextDisabled(
                "%s at block %d: %d registers/thread, %d B static shared memory, %d blocks/SM, "
                "occupancy %.0f%%%s",
                a->kernel.c_str(), ui.run.block, a->registers, a->static_smem_bytes,
                a->active_blocks_per_sm, 100 * a->occupancy, source);
        } else {
            ImGui::TextDisabled(mode == LessonMode::kLive
                                    ? "Reading the kernel's registers and occupancy at block %d..."
                                    : "No kernel resources recorded at block %d.",
                                ui.run.block);
        }
        Remember(ui, "attributes");
    }
}

}  // namespace lessons::app
