// cuda-lessons: the desktop program. Window, fonts and the frame loop; everything else is in
// ui.cpp (drawing) and controller.cpp (the worker and the results).
#define GL_SILENCE_DEPRECATION
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "catalog.h"
#include "controller.h"
#include "screenshot.h"
#include "ui.h"
#include "units.h"
#include "worker_process.h"

using namespace lessons;
using namespace lessons::app;

namespace {

volatile std::sig_atomic_t g_quit = 0;  // SIGINT / SIGTERM: close like the window's close button

struct Flags {
    int lesson = 0;
    bool run = false;
    std::string lang, screenshot, worker, size;
    float scale = 0;
    bool stats = false;
};

// The worker sits next to this program (install or build tree), else on PATH.
std::string FindWorker() {
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        std::string dir(self);
        dir = dir.substr(0, dir.rfind('/'));
        for (const std::string& candidate :
             {dir + "/cuda-lessons-cli", dir + "/../cli/cuda-lessons-cli"})
            if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return "/usr/bin/env";  // with "cuda-lessons-cli" as its argument: found on PATH
}

void RebuildFonts(UiState& ui, const Registry& registry) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ui.fonts = BuildFonts(ui.settings.scale, UiTexts(registry));
    ImGui_ImplOpenGL3_CreateFontsTexture();
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    ImGui::StyleColorsDark(&style);
    style.FrameRounding = 3;
    style.ScaleAllSizes(ui.settings.scale);
    if (!ui.fonts.notice.empty()) ui.messages.push_back(ui.fonts.notice);
    ui.fonts_dirty = false;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App cli{"CUDA Lessons: learn CUDA optimisation, one measured step at a time"};
    Flags flags;
    cli.add_option("--lesson", flags.lesson, "open this lesson (number)");
    cli.add_flag("--run", flags.run, "run that lesson and the previous one at start");
    cli.add_option("--lang", flags.lang, "en or zh")->check(CLI::IsMember({"en", "zh"}));
    cli.add_option("--scale", flags.scale, "UI scale, 0.5 to 4")->check(CLI::Range(0.5f, 4.0f));
    cli.add_option("--size", flags.size, "initial data size, e.g. 256MiB");
    cli.add_option("--screenshot", flags.screenshot,
                   "write a PNG once the page has settled and runs have finished, then exit");
    cli.add_option("--worker", flags.worker,
                   "the worker program (default: cuda-lessons-cli beside this one)");
    cli.add_flag("--stats", flags.stats,
                 "print frame statistics at exit (frame time while running, idle wake-ups)");
    CLI11_PARSE(cli, argc, argv);

    const std::vector<std::string>& problems = CatalogProblems();
    if (!problems.empty()) {
        for (const std::string& p : problems)
            std::fprintf(stderr, "catalogue problem: %s\n", p.c_str());
        return 1;
    }
    const Registry& registry = Catalog();

    UiState ui;
    const std::string config = ConfigDir();
    const std::string settings_path = config.empty() ? std::string() : config + "/settings.json";
    std::string problem;
    if (!settings_path.empty()) ui.settings = LoadSettings(settings_path, &problem);
    if (!problem.empty()) ui.messages.push_back(problem);
    if (flags.lesson) ui.settings.lesson = flags.lesson;
    if (!flags.lang.empty()) ui.settings.language = flags.lang;
    if (const char* home = std::getenv("HOME"))
        ui.export_dir = std::string(home) + "/cuda-lessons-exports";
    SelectLesson(ui, registry, ui.settings.lesson);
    if (!flags.size.empty()) {
        try {
            ui.run.size_bytes = std::max<uint64_t>(ParseSize(flags.size), 1024);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "cuda-lessons: --size: %s\n", e.what());
            return 2;
        }
    }

    std::signal(SIGINT, [](int) { g_quit = 1; });
    std::signal(SIGTERM, [](int) { g_quit = 1; });
    glfwSetErrorCallback([](int code, const char* text) {
        std::fprintf(stderr, "GLFW error %d: %s\n", code, text);
    });
    if (!glfwInit()) {
        std::fprintf(stderr,
                     "cuda-lessons: cannot open a window (no display?). The CLI, cuda-lessons-cli, "
                     "works without one.\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    GLFWwindow* window = glfwCreateWindow(ui.settings.window_width, ui.settings.window_height,
                                          "CUDA Lessons", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "cuda-lessons: cannot create an OpenGL 3.3 window\n");
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    float content_scale = 1, unused = 1;
    glfwGetWindowContentScale(window, &content_scale, &unused);
    if (flags.scale > 0)
        ui.settings.scale = flags.scale;
    else if (ui.settings.scale <= 0)
        ui.settings.scale = std::clamp(content_scale, 0.5f, 4.0f);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    const std::string ini = config.empty() ? std::string() : config + "/imgui.ini";
    ImGui::GetIO().IniFilename = ini.empty() ? nullptr : ini.c_str();
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330");

    std::string problems_text;
    std::vector<RunResult> recorded = LoadRecordedResults(&problems_text);
    if (!problems_text.empty()) ui.messages.push_back("Recorded results: " + problems_text);
    const std::string worker = flags.worker.empty() ? FindWorker() : flags.worker;
    auto controller_owner = std::make_unique<Controller>(
        registry,
        [worker] {
            std::vector<std::string> command{worker};
            if (worker == "/usr/bin/env") command.push_back("cuda-lessons-cli");
            command.push_back("serve");
            return std::make_unique<WorkerProcess>(command, [] { glfwPostEmptyEvent(); });
        },
        std::move(recorded));
    Controller& controller = *controller_owner;
    controller.Start();

    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    bool first_frame_reported = false, run_sent = false;
    int settled_frames = 0;
    int exit_code = 0;
    struct {
        int busy_frames = 0, idle_frames = 0;
        double busy_ms = 0, busy_max_ms = 0;
    } stats;
    while (!glfwWindowShouldClose(window)) {
        const bool animating =
            controller.Busy() || ui.changed_at >= 0 || !flags.screenshot.empty() || ui.fonts_dirty;
        if (animating)
            glfwPollEvents();
        else
            glfwWaitEventsTimeout(2.0);  // idle: sleep until input, a worker message or a signal
        if (g_quit) glfwSetWindowShouldClose(window, 1);
        const auto frame_start = Clock::now();
        controller.Update();
        if (ui.fonts_dirty) RebuildFonts(ui, registry);

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        DrawUi(ui, controller, registry);
        ImGui::Render();
        int w = 0, h = 0;
        glfwGetFramebufferSize(window, &w, &h);
        glViewport(0, 0, w, h);
        glClearColor(0.10f, 0.10f, 0.12f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        if (!first_frame_reported) {
            first_frame_reported = true;
            std::fprintf(stderr, "first frame after %.0f ms\n",
                         std::chrono::duration<double, std::milli>(Clock::now() - started).count());
        }
        // --run: once the worker has said which lessons run here.
        const Lesson* lesson = registry.FindLesson(ui.settings.lesson);
        if (flags.run && !run_sent && lesson && controller.Mode(*lesson) != LessonMode::kUnknown) {
            controller.RunWithPrevious(*lesson, ui.run);
            run_sent = true;
        }
        if (ui.screenshot_requested || !flags.screenshot.empty()) {
            const bool settled =
                !controller.Busy() && (!flags.run || run_sent) && !controller.device().empty();
            settled_frames = settled ? settled_frames + 1 : 0;
            const bool timeout = Clock::now() - started > std::chrono::seconds(300);
            if (ui.screenshot_requested || settled_frames >= 5 || timeout) {
                std::string path = flags.screenshot;
                if (ui.screenshot_requested) {
                    mkdir(ui.export_dir.c_str(), 0755);
                    path = ui.export_dir + "/screenshot-" + std::to_string(std::time(nullptr)) +
                           ".png";
                }
                std::string error;
                if (SaveFramebufferPng(path, w, h, &error))
                    ui.messages.push_back("Screenshot written to " + path);
                else
                    ui.messages.push_back("Screenshot failed: " + error);
                if (!flags.screenshot.empty()) {
                    std::fprintf(stderr, "%s%s\n",
                                 error.empty() ? "screenshot: " : "screenshot failed: ",
                                 error.empty() ? path.c_str() : error.c_str());
                    if (timeout) std::fprintf(stderr, "screenshot taken after a 300 s timeout\n");
                    exit_code = error.empty() && !timeout ? 0 : 1;
                    glfwSetWindowShouldClose(window, 1);
                }
                ui.screenshot_requested = false;
            }
        }
        // For tests that drive the real window with xdotool: where the controls are.
        if (const char* rects_file = std::getenv("CUDA_LESSONS_RECTS_FILE");
            rects_file && *rects_file) {
            nlohmann::ordered_json j = nlohmann::ordered_json::object();
            for (const auto& [name, r] : ui.rects) j[name] = {r.x, r.y, r.z, r.w};
            j["state"] = {{"lesson", ui.settings.lesson},
                          {"threads", ui.run.threads},
                          {"busy", controller.Busy()},
                          {"results", controller.results().size()}};
            std::ofstream(std::string(rects_file) + ".tmp") << j.dump() << "\n";
            std::rename((std::string(rects_file) + ".tmp").c_str(), rects_file);
        }
        glfwSwapBuffers(window);
        const double frame_ms =
            std::chrono::duration<double, std::milli>(Clock::now() - frame_start).count();
        if (controller.Busy()) {
            ++stats.busy_frames;
            stats.busy_ms += frame_ms;
            stats.busy_max_ms = std::max(stats.busy_max_ms, frame_ms);
        } else {
            ++stats.idle_frames;
        }
        if (animating) {  // vsync does not throttle under every display: cap at about 60 fps
            const auto spent = Clock::now() - frame_start;
            if (spent < std::chrono::milliseconds(16))
                std::this_thread::sleep_for(std::chrono::milliseconds(16) - spent);
        }
    }

    if (flags.stats) {
        const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
        std::fprintf(stderr,
                     "frames while running: %d, mean %.2f ms to build and draw (max %.2f ms)\n"
                     "frames while idle: %d in %.1f s\n",
                     stats.busy_frames, stats.busy_frames ? stats.busy_ms / stats.busy_frames : 0.0,
                     stats.busy_max_ms, stats.idle_frames, seconds);
    }
    glfwGetWindowSize(window, &ui.settings.window_width, &ui.settings.window_height);
    if (!settings_path.empty()) SaveSettings(settings_path, ui.settings, nullptr);
    controller_owner.reset();  // the worker's reader thread wakes GLFW: stop it first
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return exit_code;
}
