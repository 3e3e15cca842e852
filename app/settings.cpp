#include "settings.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lessons::app {

std::string ConfigDir() {
    std::string base;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = std::string(home) + "/.config";
    else
        return {};
    mkdir(base.c_str(), 0755);
    const std::string dir = base + "/cuda-lessons";
    mkdir(dir.c_str(), 0755);
    return dir;
}

Settings LoadSettings(const std::string& path, std::string* problem) {
    Settings s;
    std::ifstream in(path);
    if (!in) return s;
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
    if (!j.is_object()) {
        if (problem) *problem = "the settings file " + path + " is not valid JSON; using defaults";
        return s;
    }
    try {
        s.language = j.value("language", s.language) == "zh" ? "zh" : "en";
        s.scale = j.value("scale", s.scale);
        if (!(s.scale == 0 || (s.scale >= 0.5f && s.scale <= 4.0f))) s.scale = 0;
        s.lesson = j.value("lesson", s.lesson);
        s.window_width = std::clamp(j.value("window_width", s.window_width), 640, 10000);
        s.window_height = std::clamp(j.value("window_height", s.window_height), 400, 10000);
    } catch (const nlohmann::json::exception& e) {
        if (problem)
            *problem =
                "the settings file " + path + " has a bad value (" + e.what() + "); using defaults";
        return Settings{};
    }
    return s;
}

bool SaveSettings(const std::string& path, const Settings& s, std::string* problem) {
    const nlohmann::ordered_json j{{"language", s.language},
                                   {"scale", s.scale},
                                   {"lesson", s.lesson},
                                   {"window_width", s.window_width},
                                   {"window_height", s.window_height}};
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp);
        if (!out || !(out << j.dump(2) << "\n")) {
            if (problem) *problem = "cannot write " + tmp;
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        if (problem) *problem = "cannot replace " + path;
        return false;
    }
    return true;
}

}  // namespace lessons::app
