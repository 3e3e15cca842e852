#include "model/settings.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "files.h"

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
        if (const auto it = j.find("lesson"); it != j.end()) {
            // An id; files written before ids were stored hold the old global number.
            if (it->is_string())
                s.lesson = it->get<std::string>();
            else if (it->is_number_integer())
                s.lesson = std::to_string(it->get<long long>());
        }
        s.window_width = std::clamp(j.value("window_width", s.window_width), 640, 10000);
        s.window_height = std::clamp(j.value("window_height", s.window_height), 400, 10000);
        s.hide_answers = j.value("hide_answers", s.hide_answers);
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
                                   {"window_height", s.window_height},
                                   {"hide_answers", s.hide_answers}};
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

void ClampWindowToWorkArea(Settings* s, int work_width, int work_height) {
    if (work_width > 0) s->window_width = std::min(s->window_width, work_width);
    if (work_height > 0) s->window_height = std::min(s->window_height, work_height);
}

namespace {

size_t CountSections(const std::string& text) {
    size_t sections = 0;
    for (size_t line = 0; line < text.size();) {
        sections += text[line] == '[';
        const size_t newline = text.find('\n', line);
        if (newline == std::string::npos) break;
        line = newline + 1;
    }
    return sections;
}

}  // namespace

std::string ReadImGuiIni(const std::string& path, std::string* problem) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return {};  // none yet
    if (!S_ISREG(st.st_mode) || uint64_t(st.st_size) > kMaxIniBytes) {
        if (problem)
            *problem = path + (S_ISREG(st.st_mode) ? " is " + std::to_string(st.st_size) +
                                                         " bytes, more than this program ever "
                                                         "writes: ignored (it is rewritten at exit)"
                                                   : " is not a regular file: ignored");
        return {};
    }
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::string out = text.str();
    if (CountSections(out) > kMaxIniSections) {
        if (problem)
            *problem = path + " has more than " + std::to_string(kMaxIniSections) +
                       " sections: ignored (it is rewritten at exit)";
        return {};
    }
    return out;
}

bool WriteImGuiIni(const std::string& path, const std::string& text, std::string* problem) {
    if (text.size() > kMaxIniBytes || CountSections(text) > kMaxIniSections) {
        if (problem)
            *problem = "not saving " + path + ": " + std::to_string(text.size()) + " bytes in " +
                       std::to_string(CountSections(text)) + " sections is more than expected";
        return false;
    }
    try {
        WriteFileReplacing(path, text);
    } catch (const std::exception& e) {
        if (problem) *problem = e.what();
        return false;
    }
    return true;
}

}  // namespace lessons::app
