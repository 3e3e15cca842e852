// What the GUI remembers between runs, under $XDG_CONFIG_HOME/cuda-lessons/ (default
// ~/.config/cuda-lessons/), never in the working directory.
#pragma once

#include <string>

namespace lessons::app {

struct Settings {
    std::string language = "en";  // "en" or "zh"
    float scale = 0;              // 0: take the monitor's content scale
    int lesson = 1;
    int window_width = 1500;
    int window_height = 940;
};

// The folder, created if missing; empty when neither XDG_CONFIG_HOME nor HOME is set.
std::string ConfigDir();

// Reads `path`. A missing file gives the defaults silently; an unreadable or corrupt one
// gives the defaults and a message in `problem` (the file is left as it is until saved).
Settings LoadSettings(const std::string& path, std::string* problem);
bool SaveSettings(const std::string& path, const Settings& settings, std::string* problem);

}  // namespace lessons::app
