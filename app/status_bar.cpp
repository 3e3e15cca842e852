// The status bar: the GPU (or why there is none), the worker's state and a restart button,
// the presenter scale, and the newest notice.
#include "panels.h"
#include "report.h"
#include "units.h"

namespace lessons::app {

void DrawStatusBar(UiState& ui, Controller& c) {
    const Json& d = c.device();
    std::string device = "GPU: waiting for the worker";
    if (d.contains("available")) {
        if (d["available"].get<bool>()) {
            device = "GPU: " + d.value("name", std::string("?")) + ", measured copy " +
                     Fixed(d.value("measured_copy_gbps", 0.0), 0) + " GB/s (datasheet " +
                     Fixed(d.value("datasheet_gbps", 0.0), 0) + ")";
        } else {
            device = "No GPU: " + d.value("reason", std::string("?")) +
                     " - GPU lessons show recorded results";
        }
    }
    ImGui::TextUnformatted(device.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled(
        "|  worker: %s%s", c.WorkerState().c_str(),
        c.restarts() ? (", restarted " + std::to_string(c.restarts()) + "x").c_str() : "");
    if (c.WorkerState() == "stopped" || c.WorkerState() == "cannot start" ||
        c.WorkerState() == "refused") {
        ImGui::SameLine();
        if (ImGui::Button("Restart worker")) c.RestartWorker();
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
        ImGui::TextColored(kAmber, "%s", notice->c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton("dismiss")) {
            if (from_controller)
                c.notices().pop_back();
            else
                ui.messages.pop_back();
        }
    }
}

}  // namespace lessons::app
