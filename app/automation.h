// Everything the program does besides drawing the page, for people and scripts: the
// command-line flags, --run (run the lesson and the previous one once the worker has said
// what runs here), screenshots (--screenshot FILE once the page has settled, F12 at any
// time), the controls' positions for tests that drive the real window
// (CUDA_LESSONS_RECTS_FILE), and frame statistics (--stats).
#pragma once

#include <chrono>
#include <string>

#include "panels/ui.h"
#include "probe.h"
#include "registry.h"
#include "worker/controller.h"

namespace lessons::app {

struct Flags {
    // The lesson to open as Registry::FindLesson takes it: "5.8", "gemm/double-buffering", or
    // the old number "39"; empty: the one saved in the settings.
    std::string lesson;
    bool run = false;
    std::string lang, screenshot, worker, size;
    std::string code_tab;  // source, ptx or sass: the code view's tab at start
    float scale = 0;
    bool stats = false;
    bool presenter = false;  // open in presenter mode (F5)
    // The GPU whose recorded results to show (Controller::SetReferenceGpu); empty: the saved one.
    std::string reference_gpu;
};

// Reads the command line into `flags`. Returns -1 to go on, or the exit code: 0 after --help,
// 2 for bad arguments (with a message naming the flag and what it accepts).
int ParseFlags(int argc, char** argv, Flags* flags);

// The UI's starting state: the settings saved in `config_dir` (a corrupt file gives a
// message), then the flags over them. Returns -1 to go on, or 2 with a message (a bad --size,
// a --lesson the catalogue does not have). A saved lesson the catalogue no longer has opens the
// first lesson.
int InitUiState(const Flags& flags, const Registry& registry, const std::string& config_dir,
                UiState* ui);

class Automation {
public:
    // With CUDA_LESSONS_RECTS_FILE set, attaches its probe to `ui` (the page then records what
    // it draws, for the positions file); `ui` must not outlive it with the probe attached.
    Automation(const Flags& flags, UiState& ui);

    // Whether frames must keep coming without input (a --screenshot is pending).
    bool KeepDrawing() const { return !m_flags.screenshot.empty(); }
    // Called once the frame is rendered into the back buffer (`width` x `height`), before the
    // swap: reports the first frame, sends --run, takes screenshots, writes the positions file.
    void AfterFrame(UiState& ui, Controller& controller, const Registry& registry, int width,
                    int height);
    // Called after the swap with the time the frame took to build and draw; `busy`: a run was
    // under way from the frame's start to its end.
    void CountFrame(double ms, bool busy);
    // The --screenshot has been written (or failed): the window should close.
    bool Done() const { return m_done; }
    int ExitCode() const { return m_exit_code; }
    // Prints the frame statistics when --stats was given.
    void PrintStats() const;

private:
    using Clock = std::chrono::steady_clock;
    void Screenshot(UiState& ui, const Controller& controller, int width, int height);
    void WritePositions(const UiState& ui, const Controller& controller,
                        const Registry& registry) const;

    Flags m_flags;
    std::string m_positions_file;  // CUDA_LESSONS_RECTS_FILE; empty: none written
    Probe m_probe;                 // what the page drew, for the positions file
    Clock::time_point m_started = Clock::now();
    bool m_first_frame_reported = false;
    bool m_first_frame_counted = false;
    bool m_run_sent = false;
    int m_settled_frames = 0;
    bool m_done = false;
    int m_exit_code = 0;
    int m_busy_frames = 0, m_idle_frames = 0;
    double m_busy_ms = 0, m_busy_max_ms = 0;
};

}  // namespace lessons::app
