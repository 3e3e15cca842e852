// The status bar: the GPU and its measured ceilings (or why there is none), the worker's state and
// a restart button, the presenter scale, and the newest notice.
#include <optional>

#include "panels.h"
#include "report.h"
#include "units.h"

namespace lessons::app {
namespace {

// A figure of the worker's device object, at its top level or under "ceilings"; read
// defensively: a worker that does not send it shows nothing.
std::optional<double> Figure(const Json& d, const char* key) {
    for (const Json* o : {&d, d.contains("ceilings") ? &d["ceilings"] : nullptr})
        if (o && o->is_object() && o->contains(key) && (*o)[key].is_number() &&
            (*o)[key].get<double>() > 0)
            return (*o)[key].get<double>();
    return std::nullopt;
}

// "GPU: NAME, read 3000, copy 2900 GB/s (datasheet 3350), fp32 60000 GFLOP/s, H2D 25, D2H 26
// GB/s", with whatever figures the worker measured.
std::string DeviceLine(const UiState& ui, const Json& d) {
    std::string out = "GPU: " + d.value("name", std::string("?"));
    std::string gbps;
    auto add = [&gbps](const char* name, std::optional<double> v) {
        if (v) gbps += std::string(gbps.empty() ? "" : ", ") + name + " " + Fixed(*v, 0);
    };
    add(Tr(ui, kReadWord), Figure(d, "read_gbps"));
    const std::optional<double> copy = Figure(d, "copy_gbps");
    add(Tr(ui, kCopyWord), copy ? copy : Figure(d, "measured_copy_gbps"));
    if (!gbps.empty()) {
        out += ", " + std::string(Tr(ui, kMeasured)) + " " + gbps + " GB/s";
        if (const auto sheet = Figure(d, "datasheet_gbps"))
            out += " (" + std::string(Tr(ui, kDatasheet)) + " " + Fixed(*sheet, 0) + ")";
    }
    if (const auto fp32 = Figure(d, "fp32_gflops")) out += ", fp32 " + Fixed(*fp32, 0) + " GFLOP/s";
    std::string pcie;
    const auto h2d = Figure(d, "h2d_gbps"), d2h = Figure(d, "d2h_gbps");
    if (h2d) pcie += "H2D " + Fixed(*h2d, 1);
    if (d2h) pcie += (pcie.empty() ? "" : ", ") + std::string("D2H ") + Fixed(*d2h, 1);
    if (!pcie.empty()) out += ", " + pcie + " GB/s";
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

}  // namespace

void DrawStatusBar(UiState& ui, Controller& c) {
    const Json& d = c.device();
    std::string device = Tr(ui, kGpuWaiting);
    if (d.contains("available")) {
        if (d["available"].get<bool>()) {
            device = DeviceLine(ui, d);
            if (c.devices().is_array() && c.devices().size() > 1)
                device += Fmt(Tr(ui, kMoreGpus), static_cast<int>(c.devices().size() - 1));
        } else {
            device = Fmt(Tr(ui, kNoGpu),
                         Say(ui.settings.language, d.value("reason", std::string("?"))).c_str());
        }
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
    ImGui::TextUnformatted(Elide(device, room - worker_w - spacing).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", device.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("%s", Elide(worker, worker_w).c_str());
    if (restart) {
        ImGui::SameLine();
        if (ImGui::Button(Tr(ui, kRestartWorker))) c.RestartWorker();
    }
    float scale = ui.settings.scale;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    if (ImGui::SliderFloat(Tr(ui, kScale), &scale, 0.75f, 3.0f, "%.2fx")) SetScale(ui, scale);
    Remember(ui, "scale");
    ImGui::SameLine();
    // Newest notice, from the controller or the GUI itself.
    std::string* notice = nullptr;
    bool from_controller = false;
    if (!c.notices().empty()) {
        notice = &c.notices().back();
        from_controller = true;
    } else if (!ui.messages.empty()) {
        notice = &ui.messages.back();
    }
    if (notice) {
        const std::string shown = Say(ui.settings.language, *notice);
        room = ImGui::GetContentRegionAvail().x - spacing -
               (ImGui::CalcTextSize(Tr(ui, kDismiss)).x + ImGui::GetStyle().FramePadding.x * 2);
        ImGui::TextColored(kAmber, "%s", Elide(shown, room).c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", shown.c_str());
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
