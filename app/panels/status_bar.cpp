// The status bar: the GPU and its measured ceilings (or why there is none), the worker's state and
// a restart button, the presenter scale, and the newest notice.
#include <optional>

#include "model/compare.h"
#include "panels/panels.h"
#include "report.h"
#include "units.h"
#include "words/words_student.h"

namespace lessons::app {
namespace {

// "GPU: NAME, read 3000, copy 2900 GB/s (datasheet 3350), fp32 60000 GFLOP/s, H2D 25, D2H 26
// GB/s, empty block 0.62 ns", with whatever figures the worker measured.
std::string DeviceLine(const UiState& ui, const GpuFacts& gpu) {
    const GpuCeilings& c = gpu.ceilings;
    std::string out = "GPU: " + (gpu.name.empty() ? std::string("?") : gpu.name);
    std::string gbps;
    auto add = [&gbps](const char* name, double v) {
        if (v > 0) gbps += std::string(gbps.empty() ? "" : ", ") + name + " " + Fixed(v, 0);
    };
    add(Tr(ui, kReadWord), c.read_gbps);
    add(Tr(ui, kCopyWord), c.copy_gbps);
    if (!gbps.empty()) {
        out += ", " + std::string(Tr(ui, kMeasured)) + " " + gbps + " GB/s";
        if (c.datasheet_gbps > 0)
            out += " (" + std::string(Tr(ui, kDatasheet)) + " " + Fixed(c.datasheet_gbps, 0) + ")";
    }
    if (c.fp32_gflops > 0) out += ", fp32 " + Fixed(c.fp32_gflops, 0) + " GFLOP/s";
    std::string pcie;
    if (c.h2d_gbps > 0) pcie += "H2D " + Fixed(c.h2d_gbps, 1);
    if (c.d2h_gbps > 0)
        pcie += (pcie.empty() ? "" : ", ") + std::string("D2H ") + Fixed(c.d2h_gbps, 1);
    if (!pcie.empty()) out += ", " + pcie + " GB/s";
    if (c.block_floor_ns > 0)
        out += ", " + Fmt(Tr(ui, kEmptyBlock), Fixed(c.block_floor_ns, 2).c_str());
    return out;
}

// The worker's state in the page's language (what it runs stays as the controller says it).
std::string WorkerStateText(const UiState& ui, const Controller& c) {
    const std::string state = c.WorkerState();
    for (const Word* w :
         {&kStateIdle, &kStateStopped, &kStateCannotStart, &kStateRefused, &kStateNotStarted})
        if (state == w->en) return Tr(ui, *w);
    if (state.rfind("running ", 0) == 0)
        return Fmt(Tr(ui, kStateRunning), c.BusyWith(ui.settings.language).c_str());
    return state;
}

// "Recorded on [H100 80GB HBM3 v]": which reference GPU's recordings the pages show, where
// results were recorded on more than one.
void DrawReferenceGpuChoice(UiState& ui, Controller& c) {
    const std::vector<std::string>& gpus = c.ReferenceGpus();
    if (gpus.size() < 2) {  // nothing to choose: the notice follows on the same row
        ImGui::SameLine();
        return;
    }
    // Its label before it ("Recorded on: ( ) H100  (*) H200"), as it reads in both languages;
    // one radio button per GPU: the mouse and the keyboard (Tab, then Space) choose at once,
    // with no popup to open.
    const ImGuiStyle& style = ImGui::GetStyle();
    float width = ImGui::CalcTextSize(Tr(ui, kReferenceGpu)).x + style.ItemSpacing.x;
    for (const std::string& name : gpus)
        width += CheckWidth(WithoutVendor(name).c_str()) + style.ItemSpacing.x;
    SameLineIfFits(width);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(Tr(ui, kReferenceGpu));
    if (ImGui::IsItemHovered()) Tooltip(Tr(ui, kReferenceGpuTip));
    for (size_t i = 0; i < gpus.size(); ++i) {
        const std::string& name = gpus[i];
        const std::string shown = WithoutVendor(name);
        SameLineIfFits(CheckWidth(shown.c_str()));
        const bool selected = name == c.ReferenceGpu();
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::RadioButton(shown.c_str(), selected) && !selected) {
            c.SetReferenceGpu(name);
            ui.settings.reference_gpu = name;
        }
        ImGui::PopID();
        if (ImGui::IsItemHovered()) Tooltip(Tr(ui, kReferenceGpuTip));
        Remember(ui, i == 0 ? "reference_gpu" : ("reference_gpu_" + std::to_string(i)).c_str());
    }
    ImGui::SameLine();
}

}  // namespace

void DrawStatusBar(UiState& ui, Controller& c) {
    const DeviceFacts& devices = c.devices();
    std::string device = Tr(ui, kGpuWaiting);
    if (devices.available && devices.First()) {
        device = DeviceLine(ui, *devices.First());
        if (devices.gpus.size() > 1)
            device += Fmt(Tr(ui, kMoreGpus), static_cast<int>(devices.gpus.size() - 1));
    } else if (devices.reported) {
        device = Fmt(
            Tr(ui, kNoGpu),
            Say(ui.settings.language, devices.reason.empty() ? Message::Plain("?") : devices.reason)
                .c_str());
    }
    // One row each, cut with "…" where the window is narrow (hover for the whole line).
    const std::string worker =
        "|  " + Fmt(Tr(ui, kWorker), WorkerStateText(ui, c).c_str()) +
        (c.restarts() ? Fmt(Tr(ui, kRestarted), c.restarts()) : std::string());
    const bool restart = c.WorkerState() == "stopped" || c.WorkerState() == "cannot start" ||
                         c.WorkerState() == "refused";
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    float room = ImGui::GetContentRegionAvail().x -
                 (restart ? ButtonWidth(Tr(ui, kRestartWorker)) + spacing : 0.0f);
    const float worker_w = std::min(ImGui::CalcTextSize(worker.c_str()).x, room * 0.5f);
    if (ui.presenter) {
        // One row in presenter mode (the chart takes the height; the run's progress shows
        // beside it): no GPU and worker line, only the way out of a stopped worker.
        if (restart) {
            if (ImGui::Button(Tr(ui, kRestartWorker))) c.RestartWorker();
            ImGui::SameLine();
        }
    } else {
        ImGui::TextUnformatted(Elide(device, room - worker_w - spacing).c_str());
        if (ImGui::IsItemHovered()) Tooltip(device.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("%s", Elide(worker, worker_w).c_str());
        if (restart) {
            ImGui::SameLine();
            if (ImGui::Button(Tr(ui, kRestartWorker))) c.RestartWorker();
        }
    }
    float scale = ui.settings.scale;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    if (ImGui::SliderFloat(Tr(ui, kScale), &scale, 0.75f, 3.0f, "%.2fx")) SetScale(ui, scale);
    Remember(ui, "scale");
    SameLineIfFits(CheckWidth(Tr(ui, kPresenterToggle)));
    ImGui::Checkbox(Tr(ui, kPresenterToggle), &ui.presenter);
    Remember(ui, "presenter_toggle");
    DrawReferenceGpuChoice(ui, c);
    // Newest notice, from the controller or the GUI itself.
    std::optional<std::string> shown;
    bool from_controller = false;
    if (!c.notices().empty()) {
        shown = Say(ui.settings.language, c.notices().back());
        from_controller = true;
    } else if (!ui.messages.empty()) {
        const UiState::Notice& n = ui.messages.back();
        shown =
            ui.settings.language == "zh" && !n.zh.empty() ? n.zh : Say(ui.settings.language, n.en);
    }
    if (shown) {
        room = ImGui::GetContentRegionAvail().x - spacing -
               (ImGui::CalcTextSize(Tr(ui, kDismiss)).x + ImGui::GetStyle().FramePadding.x * 2);
        ImGui::TextColored(kAmber, "%s", Elide(*shown, room).c_str());
        if (ImGui::IsItemHovered()) Tooltip(shown->c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton(Tr(ui, kDismiss))) {
            if (from_controller)
                c.notices().pop_back();
            else
                ui.messages.pop_back();
        }
    }
}

}  // namespace lessons::app
