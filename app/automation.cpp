#include "automation.h"

#include <imgui_internal.h>  // the tooltip window's rectangle, for the positions file
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "model/export.h"
#include "model/settings.h"
#include "model/student.h"
#include "panels/panels.h"
#include "screenshot.h"
#include "units.h"
#include "words/words.h"

namespace lessons::app {

int ParseFlags(int argc, char** argv, Flags* flags) {
    CLI::App cli{"CUDA Lessons: learn CUDA optimisation, one measured step at a time"};
    auto* lesson = cli.add_option(
        "--lesson", flags->lesson,
        "open this lesson: its number as the lesson list shows it (5.8), its id "
        "(gemm/double-buffering), or its number before chapters numbered their own lessons (39)");
    cli.add_flag("--run", flags->run, "run that lesson and the previous one at start");
    auto* lang = cli.add_option("--lang", flags->lang, "en or zh");
    auto* scale = cli.add_option("--scale", flags->scale, "UI scale, 0.5 to 4");
    auto* size = cli.add_option("--size", flags->size, "initial data size, e.g. 256MiB");
    auto* screenshot =
        cli.add_option("--screenshot", flags->screenshot,
                       "write a PNG once the page has settled and runs have finished, then exit");
    auto* worker = cli.add_option("--worker", flags->worker,
                                  "the worker program (default: cuda-lessons-cli beside this one)");
    cli.add_option("--code-tab", flags->code_tab, "the code view's tab at start: source, ptx, sass")
        ->check(CLI::IsMember({"source", "ptx", "sass"}));
    cli.add_flag("--presenter", flags->presenter,
                 "open in presenter mode (F5 switches): no lesson list nor code, the text one "
                 "section at a time beside a large chart");
    auto* reference = cli.add_option(
        "--reference-gpu", flags->reference_gpu,
        "show the results recorded on this GPU where nothing runs live, e.g. \"NVIDIA H200\" (the "
        "status bar's \"Recorded on\" lists them; kept as a setting)");
    cli.add_flag("--stats", flags->stats,
                 "print frame statistics at exit (frame time while running, idle wake-ups)");
    auto refuse = [](const std::string& message) {
        std::fprintf(stderr, "cuda-lessons: %s\nRun with --help for the flags.\n", message.c_str());
        return 2;
    };
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return cli.exit(e);  // --help
        return refuse(e.what());                         // CLI11's own codes are not ours
    }
    if (*scale && !(std::isfinite(flags->scale) && flags->scale >= 0.5f && flags->scale <= 4.0f))
        return refuse("--scale " + scale->as<std::string>() +
                      ": the scale must be a number from 0.5 to 4");
    if (*lesson && flags->lesson.empty())
        return refuse("--lesson: empty; give a lesson such as 5.8 or gemm/double-buffering");
    if (*lang && flags->lang != "en" && flags->lang != "zh")
        return refuse("--lang " + flags->lang + ": the language must be en or zh");
    if (*size && flags->size.empty()) return refuse("--size: empty; give a size such as 256MiB");
    if (*screenshot && flags->screenshot.empty())
        return refuse("--screenshot: empty; give the PNG file to write, such as page.png");
    if (*reference && flags->reference_gpu.empty())
        return refuse("--reference-gpu: empty; give a GPU's name, such as \"NVIDIA H200\"");
    if (*worker && flags->worker.empty())
        return refuse("--worker: empty; give the worker program, such as ./cuda-lessons-cli");
    return -1;
}

int InitUiState(const Flags& flags, const Registry& registry, const std::string& config_dir,
                UiState* ui) {
    std::string problem;
    if (!config_dir.empty()) ui->settings = LoadSettings(config_dir + "/settings.json", &problem);
    ui->log_choice.by_chapter = ui->settings.log_scale;
    if (!problem.empty()) ui->messages.push_back(problem);
    ForgetUnknownLessons(registry, &ui->settings);
    // The first-run page opens at the very first start, unless a lesson was named: a script,
    // or a teacher sending the class to one page.
    ui->first_run_page = !ui->settings.first_run_closed && flags.lesson.empty();
    if (!flags.lesson.empty()) {
        const Lesson* lesson = registry.FindLesson(flags.lesson);
        if (!lesson) {
            const auto& all = registry.lessons();
            std::fprintf(stderr,
                         "cuda-lessons: --lesson %s: no lesson %s; name one by its number (%s), "
                         "its id (%s) or its old number (cuda-lessons-cli list shows them)\n",
                         flags.lesson.c_str(), flags.lesson.c_str(),
                         all.empty() ? "" : all.front().label.c_str(),
                         all.empty() ? "" : all.front().id.c_str());
            return 2;
        }
        ui->settings.lesson = lesson->id;
    }
    if (!flags.lang.empty()) ui->settings.language = flags.lang;
    if (!flags.reference_gpu.empty()) ui->settings.reference_gpu = flags.reference_gpu;
    ui->presenter = flags.presenter;
    if (!flags.code_tab.empty())
        ui->machine.select_tab = flags.code_tab == "ptx" ? 1 : flags.code_tab == "sass" ? 2 : 0;
    std::string notice;
    ui->export_dir =
        DefaultExportDir(std::getenv("HOME"), std::getenv("XDG_DATA_HOME"), getuid(), &notice);
    if (!notice.empty()) ui->messages.push_back(notice);
    SelectLesson(*ui, registry, ui->settings.lesson);
    if (!flags.size.empty()) {
        try {
            // The data size, in every chapter whose data is sized in bytes.
            const ParamValue size =
                ParamValue::Number(std::max<uint64_t>(ParseSize(flags.size), 1024));
            // This chapter's now, every other chapter's when it is entered (CarryParams).
            const Lesson* current = CurrentLesson(*ui, registry);
            for (const Lesson& l : registry.lessons())
                if (const ParamSpec* spec = DataSizeParam(l)) {
                    ui->kept_params[l.chapter][spec->name] = size;
                    if (current && current->chapter == l.chapter) ui->run.params[spec->name] = size;
                }
            ui->explicit_params = true;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "cuda-lessons: --size %s: %s\n", flags.size.c_str(), e.what());
            return 2;
        }
    }
    return -1;
}

Automation::Automation(const Flags& flags, UiState& ui) : m_flags(flags) {
    if (const char* file = std::getenv("CUDA_LESSONS_RECTS_FILE"); file && *file) {
        m_positions_file = file;
        ui.probe = &m_probe;
    }
}

void Automation::AfterFrame(UiState& ui, Controller& controller, const Registry& registry,
                            int width, int height) {
    if (!m_first_frame_reported) {
        m_first_frame_reported = true;
        std::fprintf(stderr, "first frame after %.0f ms\n",
                     std::chrono::duration<double, std::milli>(Clock::now() - m_started).count());
    }
    // --run: once the worker has said which lessons run here.
    const Lesson* lesson = CurrentLesson(ui, registry);
    if (m_flags.run && !m_run_sent && lesson && !controller.AwaitingList()) {
        controller.RunWithPrevious(*lesson, ui.run);
        m_run_sent = true;
    }
    if (ui.screenshot_requested || !m_flags.screenshot.empty())
        Screenshot(ui, controller, width, height);

    WritePositions(ui, controller, registry);
}

void Automation::Screenshot(UiState& ui, const Controller& controller, int width, int height) {
    const bool settled =
        !controller.Busy() && (!m_flags.run || m_run_sent) && controller.devices().reported;
    m_settled_frames = settled ? m_settled_frames + 1 : 0;
    const bool timeout = Clock::now() - m_started > std::chrono::seconds(300);
    if (!ui.screenshot_requested && m_settled_frames < 5 && !timeout) return;
    // F12 asked for it: a new file in the export folder; else the file --screenshot names.
    std::string path = ui.screenshot_requested ? std::string() : m_flags.screenshot;
    std::string error;
    TakeScreenshot(ui, path, width, height, &error);
    if (!m_flags.screenshot.empty()) {
        std::fprintf(stderr, "%s%s\n", error.empty() ? "screenshot: " : "screenshot failed: ",
                     error.empty() ? path.c_str() : error.c_str());
        if (timeout) std::fprintf(stderr, "screenshot taken after a 300 s timeout\n");
        m_exit_code = error.empty() && !timeout ? 0 : 1;
        m_done = true;
    }
    ui.screenshot_requested = false;
}

namespace {

// The tooltip drawn in the last frame, [x0, y0, x1, y1] in the window; empty when none is.
nlohmann::ordered_json TooltipRect() {
    nlohmann::ordered_json rect = nlohmann::ordered_json::array();
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    for (const ImGuiWindow* w : g.Windows)
        if ((w->Flags & ImGuiWindowFlags_Tooltip) && w->Active && !w->Hidden) {
            rect = {w->Pos.x, w->Pos.y, w->Pos.x + w->Size.x, w->Pos.y + w->Size.y};
            break;
        }
    return rect;
}

// How many of the roofline key's entries lie over its plot (none should: the key lists the
// labels that found no clear place in it).
int RoofKeyOverPlot(const Probe& probe) {
    const auto plot = probe.rects.find("roofline_plot");
    if (plot == probe.rects.end()) return 0;
    const ImVec4 p = plot->second;
    return static_cast<int>(std::count_if(
        probe.roof_key_rects.begin(), probe.roof_key_rects.end(),
        [&](const ImVec4& r) { return r.x < p.z && p.x < r.z && r.y < p.w && p.y < r.w; }));
}

}  // namespace

// For tests that drive the real window with xdotool: where the controls are.
void Automation::WritePositions(const UiState& ui, const Controller& controller,
                                const Registry& registry) const {
    if (m_positions_file.empty()) return;
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& [name, r] : m_probe.rects) j[name] = {r.x, r.y, r.z, r.w};
    const Lesson* lesson = CurrentLesson(ui, registry);
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (const auto& [name, value] : ui.run.params)
        params[name] = value.choice.empty() ? nlohmann::ordered_json(std::to_string(value.number))
                                            : nlohmann::ordered_json(value.choice);
    nlohmann::ordered_json sweeps = nlohmann::ordered_json::object();
    for (const auto& [key, sweep] : m_probe.sweeps)
        sweeps[key] = {{"param", sweep.param},
                       {"series", sweep.series},
                       {"points", sweep.points},
                       {"recorded", sweep.recorded},
                       {"note", sweep.note}};
    // The nice value the worker's hello said it lowered itself to (null before the hello):
    // gui_e2e.sh checks the worker's threads once it is known.
    nlohmann::ordered_json worker_nice = nullptr;
    if (controller.WorkerNice()) worker_nice = *controller.WorkerNice();
    j["state"] = {{"lesson", ui.settings.lesson},
                  {"label", lesson ? lesson->label : std::string()},
                  {"params", params},
                  {"busy", controller.Busy()},
                  {"worker_pid", controller.WorkerPid()},
                  {"worker_nice", worker_nice},
                  {"results", controller.results().size()},
                  {"language", ui.settings.language},
                  {"prediction_lines", m_probe.prediction.size()},
                  {"prediction", m_probe.prediction},
                  {"summary_rows", m_probe.summary_rows},
                  {"code_tab", ui.machine.tab},
                  {"listing_lines", ui.machine.lines.size()},
                  {"roof_points", m_probe.roof_points},
                  {"evidence_rows", m_probe.evidence_rows},
                  {"evidence_highlighted", m_probe.evidence_highlighted},
                  {"exercise_compile", m_probe.exercise_compile},
                  {"exercise_marked_lines", m_probe.exercise_marked_lines},
                  {"exercise_yours_ms", m_probe.exercise_yours_ms},
                  {"exercise_file", ui.exercise.file.path},
                  {"exercise_dirty", ui.exercise.file.Dirty()},
                  {"text_input", ImGui::GetIO().WantTextInput},
                  {"roof_label_overlaps", m_probe.roof_label_overlaps},
                  {"roof_legend", m_probe.roof_legend},
                  {"roof_dropped", m_probe.roof_dropped},
                  {"roof_key_over_plot", RoofKeyOverPlot(m_probe)},
                  {"bench_chapter", m_probe.bench_chapter},
                  {"roof_trace_points", m_probe.roof_trace_points},
                  {"roof_trace_recorded", m_probe.roof_trace_recorded},
                  {"sweeps", sweeps},
                  {"recorded_block_sweep",
                   lesson && HasRecordedBlockSweep(ui, controller, registry, *lesson)},
                  {"chart_points", lesson ? ChartPoints(controller, registry, *lesson, ui.run) : 0},
                  {"first_run_page", ui.first_run_page},
                  {"presenter", ui.presenter},
                  {"list_pane", m_probe.list_drawn},
                  {"code_pane", m_probe.code_drawn},
                  {"section", m_probe.section},
                  {"sections", m_probe.sections},
                  {"measured_hidden", m_probe.measured_hidden},
                  {"section_fits", m_probe.section_fits},
                  {"page_in_model", m_probe.page_in_model},
                  {"page_unresolved", m_probe.page_unresolved},
                  {"page_unresolved_sass", m_probe.page_unresolved_sass},
                  {"build_has_sass", m_probe.build_has_sass},
                  {"page_footer", m_probe.page_footer},
                  {"page_open", m_probe.page_open},
                  {"glance_rows", m_probe.glance_rows},
                  {"guess", m_probe.guess_row},
                  {"frame", ImGui::GetFrameCount()},
                  {"window", {ImGui::GetIO().DisplaySize.x, ImGui::GetIO().DisplaySize.y}},
                  {"tooltip", TooltipRect()},
                  {"text_scroll_y", m_probe.text_scroll_y},
                  {"text_scroll_max", m_probe.text_scroll_max},
                  {"code_scroll_y", m_probe.code_scroll_y},
                  {"code_open_y", m_probe.code_open_y},
                  {"work_scroll_y", m_probe.work_scroll_y},
                  {"editor_scroll_y", m_probe.editor_scroll_y},
                  {"focused", m_probe.focused},
                  {"active", m_probe.active},
                  // The mouse as ImGui saw it in this frame (in the window), and its wheel.
                  {"mouse", {ImGui::GetIO().MousePos.x, ImGui::GetIO().MousePos.y}},
                  {"mouse_down", ImGui::GetIO().MouseDown[0]},
                  {"wheel_taken", m_probe.wheel_taken},
                  {"focus_stops", ui.focus_ring.size()},
                  {"presenter_view", m_probe.presenter_view},
                  {"presenter_scroll_y", m_probe.presenter_scroll_y},
                  {"presenter_room", m_probe.presenter_room},
                  {"presenter_code_lines", m_probe.presenter_code_lines},
                  {"sass_jump_line", m_probe.sass_jump_line},
                  {"evidence_rule", m_probe.evidence_rule},
                  {"evidence_first_explained", m_probe.evidence_first_explained},
                  {"evidence_needs_gpu", m_probe.evidence_needs_gpu},
                  {"exercise_not_checked", m_probe.exercise_not_checked},
                  {"check", m_probe.check_state},
                  {"check_cases", m_probe.check_cases},
                  {"check_failed", m_probe.check_failed},
                  {"guess_scored", m_probe.guess_scored},
                  {"editor_maximised", ui.exercise.maximised},
                  {"editor_popout", ui.exercise.popout_open},
                  {"popout_text_input", ui.exercise.popout_open && ui.exercise.popout_text_input},
                  {"parsons_drawn", m_probe.parsons_drawn},
                  {"parsons_order", m_probe.parsons_order},
                  {"parsons_aside", m_probe.parsons_aside},
                  {"parsons_selected", m_probe.parsons_selected},
                  {"parsons_result", m_probe.parsons_result},
                  {"parsons_out_of_place", m_probe.parsons_out_of_place},
                  {"progress_marks", m_probe.progress_marks},
                  {"inline_code_runs", m_probe.inline_code_runs},
                  {"roof_key", m_probe.roof_key},
                  {"list_tooltip", m_probe.list_tooltip},
                  {"presenter_code_from", m_probe.presenter_code_from},
                  {"linked_source", m_probe.linked_source},
                  {"linked_listing_lines", m_probe.linked_listing_lines},
                  {"listing_line_info", ui.machine.has_line_info},
                  {"translation_misses", TranslationMisses()}};
    std::ofstream(m_positions_file + ".tmp") << j.dump() << "\n";
    std::rename((m_positions_file + ".tmp").c_str(), m_positions_file.c_str());
}

void Automation::CountFrame(double ms, bool busy) {
    // The first frame compiles the shaders and uploads the font atlas: start-up, reported as
    // "first frame after", not what a frame costs while a lesson runs.
    if (!m_first_frame_counted) {
        m_first_frame_counted = true;
        return;
    }
    if (busy) {
        ++m_busy_frames;
        m_busy_ms += ms;
        m_busy_max_ms = std::max(m_busy_max_ms, ms);
    } else {
        ++m_idle_frames;
    }
}

void Automation::PrintStats() const {
    if (!m_flags.stats) return;
    const double seconds = std::chrono::duration<double>(Clock::now() - m_started).count();
    std::fprintf(stderr,
                 "frames while running: %d, mean %.2f ms to build and draw (max %.2f ms)\n"
                 "frames while idle: %d in %.1f s\n",
                 m_busy_frames, m_busy_frames ? m_busy_ms / m_busy_frames : 0.0, m_busy_max_ms,
                 m_idle_frames, seconds);
}

}  // namespace lessons::app
