// cuda-lessons: the desktop program. Window, fonts and the frame loop, in the shape of
// ImGui's own GLFW + OpenGL 3 example; the page is drawn by panels/ui.cpp and the panels, the
// worker and the results live in worker/controller.cpp, flags, screenshots and the positions
// file for scripts in automation.cpp.
#define GL_SILENCE_DEPRECATION
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <thread>

#include "automation.h"
#include "catalog.h"
#include "model/settings.h"
#include "out_of_memory.h"
#include "panels/fonts.h"
#include "panels/input_trickle.h"
#include "panels/panels.h"  // SaveExerciseNow
#include "panels/ui.h"
#include "popout.h"
#include "screenshot.h"
#include "worker/controller.h"
#include "worker/worker_process.h"

using namespace lessons;
using namespace lessons::app;

namespace {

// SIGINT / SIGTERM: close like the window's close button.
volatile std::sig_atomic_t g_quit = 0;

// While the worker runs, the longest the GUI waits for an event before drawing the next frame.
constexpr double kBusyFrameSeconds = 0.05;
// ... while the work in flight measures a CPU step.
constexpr double kCpuStepFrameSeconds = 1.0;

// The controller, with the recorded results and a worker started as `worker serve --nice=0`:
// it measures at the GUI's own priority, as the CLI does (issue 40: lowered by serve's default
// 10 levels, every other program at nice 0 took the measured threads' cores, and lesson 1.2
// measured 4 to 8 times slower in the GUI than in the CLI on a loaded machine). The GUI leaves
// the cores to a CPU step by drawing a frame a second while one is measured.
std::unique_ptr<Controller> MakeController(const Registry& registry, std::string worker,
                                           UiState& ui) {
    std::string problems;
    std::vector<RunResult> recorded = LoadRecordedResults(&problems);
    if (!problems.empty()) ui.messages.push_back("Recorded results: " + problems);
    WorkerLocation where;
    if (worker.empty()) {
        char self[4096];
        const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        std::string dir = n > 0 ? std::string(self, size_t(n)) : std::string(".");
        where = FindWorker(dir.substr(0, dir.rfind('/')));
    } else {
        where = {{worker, "serve"}, "The worker was named with --worker " + worker + "."};
    }
    where.command.push_back("--nice=0");
    auto controller = std::make_unique<Controller>(
        registry,
        [command = where.command] {
            return std::make_unique<WorkerProcess>(command, [] { glfwPostEmptyEvent(); });
        },
        std::move(recorded));
    controller->SetWorkerHint(where.hint);
    return controller;
}

// Keys and characters reach ImGui a frame at a time (InputTrickle), so that a quick tap or a
// script's keys are not lost between two frames (ImGui 1.86) and a chord keeps its modifier
// (1.87 and later: Ctrl+A whose Ctrl is let go at once, see input_trickle.h).
void QueueInput(GLFWwindow* window) {
    glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
        auto* trickle = static_cast<InputTrickle*>(glfwGetWindowUserPointer(w));
        trickle->Push({InputEvent::Kind::kKey, key, scancode, action, mods, 0});
    });
    glfwSetCharCallback(window, [](GLFWwindow* w, unsigned int c) {
        auto* trickle = static_cast<InputTrickle*>(glfwGetWindowUserPointer(w));
        trickle->Push({InputEvent::Kind::kChar, 0, 0, 0, 0, c});
    });
}

// What a person did since the last frame that the window can see without a callback of its
// own: a key or character queued (InputTrickle), the pointer moved, a mouse button changed. (A
// wheel turned alone is not seen: it waits for the next frame, a second at most.)
class InputWatch {
public:
    bool Arrived(GLFWwindow* window, const InputTrickle& trickle) {
        double x = 0, y = 0;
        glfwGetCursorPos(window, &x, &y);
        int buttons = 0;
        for (int b = 0; b < 3; ++b)
            if (glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_1 + b) == GLFW_PRESS)
                buttons |= 1 << b;
        const bool moved = x != m_x || y != m_y || buttons != m_buttons;
        m_x = x;
        m_y = y;
        m_buttons = buttons;
        return moved || trickle.Pending();
    }

private:
    double m_x = -1, m_y = -1;
    int m_buttons = 0;
};

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

// The address space the window's OpenGL needs, checked before the window is made: under a
// smaller limit (ulimit -v), Mesa's software renderer crashes inside its own allocations (in the
// context or in ImGui's shader compile), which no message could follow. Measured on 2026-11-29
// on the 2-core build machine (Xvfb, Mesa llvmpipe): with the whole GUI and its first frame,
// 780,000 KiB started 1 time in 3, 800,000 KiB 2 in 3, 820,000 KiB 3 in 3; below that it died
// by SIGSEGV in swrast_dri.so. llvmpipe starts a thread per core, so more cores need more: 1 GiB.
constexpr unsigned long long kOpenGlAddressSpace = 1ull << 30;

// The GUI, inside main()'s out-of-memory boundary.
int RunGui(int argc, char** argv);

}  // namespace

// Out of memory anywhere (the catalogue, the recordings, the settings, a frame) ends with a
// message and exit code 1, never an abort or a crash inside ImGui.
int main(int argc, char** argv) {
    EndWithAMessageWhenOutOfMemory("cuda-lessons: ", "go on");
    try {
        return RunGui(argc, argv);
    } catch (const std::exception& e) {
        if (!IsOutOfMemory(e)) throw;
        char text[480];
        std::fprintf(stderr, "cuda-lessons: %s\n",
                     OutOfMemoryText(e, "start the program", text, sizeof text));
        return 1;
    }
}

namespace {

int RunGui(int argc, char** argv) {
    KeepMemoryForOutOfMemory();  // so that running out of memory can still be said
    Flags flags;
    if (const int code = ParseFlags(argc, argv, &flags); code >= 0) return code;
    // Whether the address space allows the window at all, before anything is loaded.
    if (const unsigned long long limit = AddressSpaceLimit();
        limit > 0 && limit < kOpenGlAddressSpace) {
        std::fprintf(stderr,
                     "cuda-lessons: the address space is limited to %llu MiB (ulimit -v %llu); "
                     "the window's OpenGL needs more: Mesa's software renderer took about 800 MiB "
                     "on the machine this was measured on. Raise the limit to at least %llu MiB "
                     "(ulimit -v %llu), or use the CLI, cuda-lessons-cli, which needs under "
                     "100 MiB.\n",
                     limit >> 20, limit >> 10, kOpenGlAddressSpace >> 20,
                     kOpenGlAddressSpace >> 10);
        return 1;
    }
    if (!CatalogProblems().empty()) {
        for (const std::string& p : CatalogProblems())
            std::fprintf(stderr, "catalogue problem: %s\n", p.c_str());
        return 1;
    }
    const Registry& registry = Catalog();
    const std::string config = ConfigDir();
    UiState ui;
    if (const int code = InitUiState(flags, registry, config, &ui); code >= 0) return code;

    // Window and OpenGL context.
    std::signal(SIGINT, [](int) { g_quit = 1; });
    std::signal(SIGTERM, [](int) { g_quit = 1; });
    std::signal(SIGXFSZ, SIG_IGN);  // a file over the size limit is a failed write, reported
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
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
        int x = 0, y = 0, w = 0, h = 0;
        glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h);
        ClampWindowToWorkArea(&ui.settings, w, h);
    }
    GLFWwindow* window = glfwCreateWindow(ui.settings.window_width, ui.settings.window_height,
                                          "CUDA Lessons", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "cuda-lessons: cannot create an OpenGL 3.3 window\n");
        glfwTerminate();
        return 1;
    }
    // Narrower than this, nothing of the page can be read (the layout is tested down to 1 px).
    glfwSetWindowSizeLimits(window, 320, 240, GLFW_DONT_CARE, GLFW_DONT_CARE);
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    float content_scale = 1, unused = 1;
    glfwGetWindowContentScale(window, &content_scale, &unused);
    if (flags.scale > 0)
        ui.settings.scale = flags.scale;
    else if (ui.settings.scale <= 0)
        ui.settings.scale = std::clamp(content_scale, 0.5f, 4.0f);

    // Dear ImGui and its GLFW and OpenGL 3 backends.
    IMGUI_CHECKVERSION();
    ImGuiAllocationsThrowWhenOutOfMemory();
    ImGui::CreateContext();
    SetEditorClock(ImGui::GetCurrentContext());
    // imgui.ini is read and written here, bounded (ReadImGuiIni), not by ImGui itself.
    const std::string ini = config.empty() ? std::string() : config + "/imgui.ini";
    ImGui::GetIO().IniFilename = nullptr;
    if (!ini.empty()) {
        std::string problem;
        const std::string text = ReadImGuiIni(ini, &problem);
        if (!text.empty()) ImGui::LoadIniSettingsFromMemory(text.data(), text.size());
        if (!problem.empty()) {
            std::fprintf(stderr, "cuda-lessons: %s\n", problem.c_str());
            ui.messages.push_back(problem);
        }
    }
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330");
    InputTrickle trickle;
    glfwSetWindowUserPointer(window, &trickle);
    QueueInput(window);

    std::unique_ptr<Controller> controller = MakeController(registry, flags.worker, ui);
    if (!controller->SetReferenceGpu(ui.settings.reference_gpu) &&
        !ui.settings.reference_gpu.empty()) {
        std::string names;
        for (const std::string& name : controller->ReferenceGpus())
            names += (names.empty() ? "" : ", ") + name;
        ui.messages.push_back("No results were recorded on " + ui.settings.reference_gpu +
                              "; showing those recorded on " + controller->ReferenceGpu() +
                              " (recorded on: " + names + ")");
        ui.settings.reference_gpu = controller->ReferenceGpu();
    }
    controller->Start();
    Automation automation(flags, ui);
    EditorPopout popout;  // the exercise editor's own window, while ui.exercise.popout asks

    using Clock = std::chrono::steady_clock;
    InputWatch input;
    auto last_frame = Clock::now();
    try {
        while (!glfwWindowShouldClose(window)) {
            const bool measuring_cpu = controller->Busy() && controller->MeasuringCpuStep();
            if (measuring_cpu) {
                // A CPU step measures this machine's cores: one frame a second, and at once on
                // input. A worker's message (progress, a result) waits for that frame, and so
                // do the settling frames of a page just opened: each frame drawn would take
                // CPU from the threads being timed (issue 40: 1.3 against 1.2 measured 0.74x
                // in the GUI and 1.5x in the CLI, the GUI's frames busy on a core).
                const double since =
                    std::chrono::duration<double>(Clock::now() - last_frame).count();
                if (since < kCpuStepFrameSeconds)
                    glfwWaitEventsTimeout(kCpuStepFrameSeconds - since);
                if (g_quit) glfwSetWindowShouldClose(window, 1);
                if (!input.Arrived(window, trickle) &&
                    std::chrono::duration<double>(Clock::now() - last_frame).count() <
                        kCpuStepFrameSeconds &&
                    !glfwWindowShouldClose(window))
                    continue;
            }
            const bool settling = ui.changed_at >= 0 || ui.fonts_dirty || ui.redraw_frames > 0;
            ui.redraw_frames = std::max(ui.redraw_frames - 1, 0);
            const bool animating = controller->Busy() || settling || automation.KeepDrawing();
            if (measuring_cpu)
                glfwPollEvents();  // waited for above
            else if (controller->Busy() && !settling)
                // A run: the page changes with the worker's messages (each wakes this wait) and
                // input; otherwise a progress bar needs no more than kBusyFrameSeconds, and every
                // frame not drawn is CPU left to the work being measured.
                glfwWaitEventsTimeout(kBusyFrameSeconds);
            else if (animating)
                glfwPollEvents();
            else  // idle: sleep until input, a worker message or a signal
                glfwWaitEventsTimeout(2.0);
            if (g_quit) glfwSetWindowShouldClose(window, 1);
            const auto frame_start = Clock::now();
            // A frame counts as drawn during a run only if the run was under way before it began:
            // the frame that takes the worker's list and sends --run, or that takes the result,
            // does one-off work that is not the GUI's cost while a lesson runs.
            const bool busy_throughout = controller->Busy();
            controller->Update();
            if (ui.fonts_dirty) RebuildFonts(ui, registry);

            FeedInput(window, trickle, ui);
            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            ImGui::NewFrame();
            DrawUi(ui, *controller, registry);

            int width = 0, height = 0;
            DrawFrame(window, &width, &height);
            popout.Frame(window, ui, *controller, registry);  // back in this context on return
            automation.AfterFrame(ui, *controller, registry, width, height);
            if (automation.Done()) glfwSetWindowShouldClose(window, 1);
            glfwSwapBuffers(window);

            last_frame = Clock::now();
            input.Arrived(window, trickle);  // the pointer as this frame left it
            const auto spent = last_frame - frame_start;
            automation.CountFrame(std::chrono::duration<double, std::milli>(spent).count(),
                                  busy_throughout && controller->Busy());
            // Vsync does not throttle under every display: cap at about 60 frames a second.
            if (animating && spent < std::chrono::milliseconds(16))
                std::this_thread::sleep_for(std::chrono::milliseconds(16) - spent);
        }
    } catch (const std::exception& e) {
        // Out of memory inside a frame (the font atlas, a draw list, a result): ImGui's frame is
        // left half-built, so nothing is drawn or saved from it but the student's kernel.
        if (!IsOutOfMemory(e)) throw;
        char text[480];
        std::fprintf(stderr, "cuda-lessons: %s\n",
                     OutOfMemoryText(e, "draw the window", text, sizeof text));
        try {
            SaveExerciseNow(ui);
        } catch (const std::exception& again) {
            std::fprintf(stderr, "cuda-lessons: the exercise file was not saved: %s\n",
                         again.what());
        }
        popout.Close(nullptr);  // its window and ImGui context, before GLFW ends
        glfwHideWindow(window);
        controller.reset();
        glfwDestroyWindow(window);
        glfwTerminate();
        return 1;
    }

    // Shutdown.
    popout.Close(&ui);
    SaveExerciseNow(ui);  // the student's kernel, typed in the last fraction of a second
    automation.PrintStats();
    glfwGetWindowSize(window, &ui.settings.window_width, &ui.settings.window_height);
    if (!config.empty()) {
        std::string problem;
        ui.settings.log_scale = ui.log_choice.by_chapter;
        if (!SaveSettings(config + "/settings.json", ui.settings, &problem))
            std::fprintf(stderr, "cuda-lessons: %s\n", problem.c_str());
    }
    if (!ini.empty()) {
        size_t size = 0;
        const char* text = ImGui::SaveIniSettingsToMemory(&size);
        std::string problem;
        if (!WriteImGuiIni(ini, std::string(text, size), &problem))
            std::fprintf(stderr, "cuda-lessons: %s\n", problem.c_str());
    }
    // Closing must not wait for a busy or stuck worker with the window frozen: hide it, then
    // end the worker (shutdown, a short wait, SIGTERM, SIGKILL: a few seconds at most).
    glfwHideWindow(window);
    glfwPollEvents();
    controller.reset();  // the worker's reader thread wakes GLFW: stop it first
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    SetEditorClock(nullptr);
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return automation.ExitCode();
}

}  // namespace
