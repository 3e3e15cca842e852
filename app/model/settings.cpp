#include "model/settings.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "files.h"
#include "model/export.h"
#include "out_of_memory.h"

namespace lessons::app {

std::string ConfigDir() {
    std::string base;
    // Only absolute paths count (a relative XDG_CONFIG_HOME is ignored, as the XDG spec says),
    // so the folder does not depend on where the program was started.
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg == '/')
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home == '/')
        base = std::string(home) + "/.config";
    else
        return {};
    mkdir(base.c_str(), 0755);
    const std::string dir = base + "/cuda-lessons";
    mkdir(dir.c_str(), 0755);
    return dir;
}

namespace {

// A whole number setting, clamped to [low, high] as a double first: a value such as 1e12 or
// -1e30 would not fit an int.
int ClampedInt(const nlohmann::json& j, const char* key, int fallback, int low, int high) {
    const auto it = j.find(key);
    if (it == j.end()) return fallback;
    if (!it->is_number()) throw std::invalid_argument(std::string(key) + " is not a number");
    const double v = it->get<double>();
    if (!(v == v)) return fallback;  // NaN
    return static_cast<int>(std::clamp(v, double(low), double(high)));
}

// A progress list: an array of lesson ids. Entries that are not strings, are empty or too long,
// and those past kMaxProgressIds, are dropped; `notes` says what was dropped and why.
std::set<std::string> IdList(const nlohmann::json& j, const char* key, std::string* notes) {
    std::set<std::string> out;
    const auto it = j.find(key);
    if (it == j.end()) return out;
    auto note = [&](const std::string& what) {
        *notes += (notes->empty() ? "" : "; ") + std::string(key) + ": " + what;
    };
    if (!it->is_array()) {
        note("not a list of lesson ids, ignored");
        return out;
    }
    size_t bad = 0;
    for (const nlohmann::json& id : *it) {
        if (out.size() >= kMaxProgressIds) {
            note("more than " + std::to_string(kMaxProgressIds) + " ids, the rest ignored");
            break;
        }
        if (!id.is_string() || id.get_ref<const std::string&>().empty() ||
            id.get_ref<const std::string&>().size() > kMaxProgressIdBytes) {
            ++bad;
            continue;
        }
        out.insert(id.get<std::string>());
    }
    if (bad)
        note(std::to_string(bad) + " entr" + (bad == 1 ? "y" : "ies") +
             " that are not lesson ids (strings of 1 to " + std::to_string(kMaxProgressIdBytes) +
             " bytes) ignored");
    return out;
}

// The per-chapter Log scale choices: an object of chapter id to true or false. Entries of
// another type, empty or long keys, and those past kMaxProgressIds are dropped, with a note.
std::map<std::string, bool> ChoiceMap(const nlohmann::json& j, const char* key,
                                      std::string* notes) {
    std::map<std::string, bool> out;
    const auto it = j.find(key);
    if (it == j.end()) return out;
    if (!it->is_object()) {
        *notes += (notes->empty() ? "" : "; ") + std::string(key) + ": not an object, ignored";
        return out;
    }
    size_t bad = 0;
    for (const auto& [name, value] : it->items()) {
        if (out.size() >= kMaxProgressIds || !value.is_boolean() || name.empty() ||
            name.size() > kMaxProgressIdBytes) {
            ++bad;
            continue;
        }
        out[name] = value.get<bool>();
    }
    if (bad)
        *notes += (notes->empty() ? "" : "; ") + std::string(key) + ": " + std::to_string(bad) +
                  " entr" + (bad == 1 ? "y" : "ies") + " that are not chapter: true/false ignored";
    return out;
}

// The guesses: an object of lesson id to {"value": V, "unit": "ms" | "x"}; entries of another
// shape, a value that is not a finite number above 0, empty or long ids, and those past
// kMaxProgressIds are dropped, with a note.
std::map<std::string, Guess> GuessMap(const nlohmann::json& j, std::string* notes) {
    std::map<std::string, Guess> out;
    const auto it = j.find("guesses");
    if (it == j.end()) return out;
    if (!it->is_object()) {
        *notes += (notes->empty() ? "" : "; ") + std::string("guesses: not an object, ignored");
        return out;
    }
    size_t bad = 0;
    for (const auto& [id, entry] : it->items()) {
        const bool shaped = entry.is_object() && entry.contains("value") &&
                            entry["value"].is_number() && entry.contains("unit") &&
                            entry["unit"].is_string();
        const double v = shaped ? entry["value"].get<double>() : 0;
        const std::string unit = shaped ? entry["unit"].get<std::string>() : std::string();
        if (out.size() >= kMaxProgressIds || !shaped || !(v > 0) || !std::isfinite(v) ||
            (unit != "ms" && unit != "x") || id.empty() || id.size() > kMaxProgressIdBytes) {
            ++bad;
            continue;
        }
        out[id] = Guess{v, unit == "x"};
    }
    if (bad)
        *notes += (notes->empty() ? "" : "; ") + std::string("guesses: ") + std::to_string(bad) +
                  " entr" + (bad == 1 ? "y" : "ies") +
                  " that are not lesson: {value above 0, unit ms or x} ignored";
    return out;
}

}  // namespace

Settings LoadSettings(const std::string& path, std::string* problem) {
    Settings s;
    // Only a regular file of a sensible size is read: a FIFO would block the start, and
    // /dev/zero (or any huge file) would be read without end.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return s;  // none yet (or unreadable: the defaults, and saving says so)
    struct stat st {};
    std::string text;
    const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    bool too_big = regular && uint64_t(st.st_size) > kMaxSettingsBytes;
    if (regular && !too_big) {
        char chunk[4096];
        ssize_t n;
        while (text.size() <= kMaxSettingsBytes &&
               ((n = ::read(fd, chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR)))
            if (n > 0) text.append(chunk, size_t(n));
    }
    ::close(fd);
    too_big = too_big || text.size() > kMaxSettingsBytes;  // it grew while being read
    if (!regular || too_big) {
        if (problem)
            *problem = "the settings file " + path +
                       (regular ? " is larger than " + std::to_string(kMaxSettingsBytes) +
                                      " bytes, more than this program ever writes"
                                : std::string(" is not a regular file")) +
                       ": ignored; using defaults";
        return s;
    }
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
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
        s.window_width = ClampedInt(j, "window_width", s.window_width, 640, 10000);
        s.window_height = ClampedInt(j, "window_height", s.window_height, 400, 10000);
        s.hide_answers = j.value("hide_answers", s.hide_answers);
        s.first_run_closed = j.value("first_run_closed", s.first_run_closed);
        // Pane sizes out of range (or not numbers) are dropped: the panes open at their default.
        const auto share = [&](const char* key, float low, float high) {
            const auto it = j.find(key);
            if (it == j.end() || !it->is_number()) return 0.0f;
            const double v = it->get<double>();
            return v >= low && v <= high ? static_cast<float>(v) : 0.0f;
        };
        s.sidebar_em = share("sidebar_em", kMinSidebarEm, kMaxSidebarEm);
        s.text_share = share("text_share", kMinTextShare, kMaxTextShare);
        s.exercise_text_share = share("exercise_text_share", kMinTextShare, kMaxTextShare);
        // Out of range or not a number: the default.
        const float limit = share("kernel_limit_s", kMinKernelLimitS, kMaxKernelLimitS);
        if (limit > 0) s.kernel_limit_s = limit;
        // A name of the wrong type or longer than any GPU's: the default.
        if (const auto it = j.find("reference_gpu");
            it != j.end() && it->is_string() &&
            it->get<std::string>().size() <= kMaxProgressIdBytes)
            s.reference_gpu = it->get<std::string>();
    } catch (const std::exception& e) {
        RethrowIfOutOfMemory(e, "load the settings");  // not a bad value: kept as it is
        if (problem)
            *problem =
                "the settings file " + path + " has a bad value (" + e.what() + "); using defaults";
        return Settings{};
    }
    // The progress lists are read on their own: a bad one costs only itself.
    std::string notes;
    s.visited = IdList(j, "visited", &notes);
    s.ran = IdList(j, "run", &notes);
    s.answered = IdList(j, "answered", &notes);
    s.unfolded = IdList(j, "unfolded", &notes);
    s.log_scale = ChoiceMap(j, "log_scale", &notes);
    s.guesses = GuessMap(j, &notes);
    if (!notes.empty() && problem) *problem = "the settings file " + path + ": " + notes;
    return s;
}

bool SaveSettings(const std::string& path, const Settings& s, std::string* problem) {
    nlohmann::ordered_json j{{"language", s.language},
                             {"scale", s.scale},
                             {"lesson", s.lesson},
                             {"window_width", s.window_width},
                             {"window_height", s.window_height},
                             {"hide_answers", s.hide_answers},
                             {"first_run_closed", s.first_run_closed},
                             {"visited", s.visited},
                             {"run", s.ran},
                             {"answered", s.answered},
                             {"unfolded", s.unfolded},
                             {"log_scale", s.log_scale},
                             {"sidebar_em", s.sidebar_em},
                             {"text_share", s.text_share},
                             {"exercise_text_share", s.exercise_text_share},
                             {"kernel_limit_s", s.kernel_limit_s},
                             {"reference_gpu", s.reference_gpu},
                             {"guesses", nlohmann::ordered_json::object()}};
    for (const auto& [id, guess] : s.guesses)
        j["guesses"][id] = {{"value", guess.value}, {"unit", guess.speedup ? "x" : "ms"}};
    // A file the user made read-only (no write permission for anyone, or none for this user)
    // is theirs: it is not replaced. Nor is anything that is not a regular file.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        const char* why = !S_ISREG(st.st_mode)                ? "it is not a regular file"
                          : (st.st_mode & 0222) == 0          ? "it is read-only"
                          : ::access(path.c_str(), W_OK) != 0 ? "it is read-only for this user"
                                                              : nullptr;
        if (why) {
            if (problem) *problem = "settings not saved to " + path + ": " + why;
            return false;
        }
    }
    return WriteReplacing(path, j.dump(2) + "\n", problem, "settings not saved: ");
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

// ImGui (1.86 to 1.90) reads imgui.ini thus: a line ends at '\n' or '\r'; a line that starts
// with '[' and ends with ']' opens a section, its type up to the first ']', its name from the
// next '[' to the last ']' ("[Table] [0x1A2B3C4D,5]" and "[Table]x[...]" are tables too). A
// table's name is read with sscanf("0x%08X,%d") and that many columns are allocated and filled
// unchecked: a negative or huge count crashes it or takes gigabytes. So the text is split and
// its headers found exactly so, the table's count read with the same sscanf, and the section
// dropped whole unless the count is 1 to kMaxIniTableColumns. The lines kept are joined with
// '\n', so ImGui reads what was checked.
bool SectionIsSafe(std::string_view line) {
    if (line.size() < 2 || line.front() != '[' || line.back() != ']') return true;  // no header
    const std::string_view inner = line.substr(1, line.size() - 2);
    const size_t type_end = inner.find(']');
    if (type_end == std::string_view::npos) return true;  // ImGui skips it
    const size_t name_start = inner.find('[', type_end + 1);
    if (name_start == std::string_view::npos) return true;  // ImGui skips it
    if (inner.substr(0, type_end) != "Table") return true;
    const std::string name(inner.substr(name_start + 1));
    unsigned id = 0;
    int columns = 0;
    if (std::sscanf(name.c_str(), "0x%08X,%d", &id, &columns) < 2) return false;
    return columns >= 1 && columns <= kMaxIniTableColumns;
}

}  // namespace

std::string SanitizeImGuiIni(const std::string& text, size_t* dropped) {
    std::string out;
    bool keep = true;
    size_t count = 0;
    for (size_t line = 0; line < text.size();) {
        size_t end = text.find_first_of("\r\n", line);
        if (end == std::string::npos) end = text.size();
        const std::string_view l(text.data() + line, end - line);
        if (!l.empty() && l.front() == '[' && l.back() == ']') {
            keep = SectionIsSafe(l);
            count += !keep;
        }
        if (keep) out.append(l).append(end < text.size() ? "\n" : "");
        line = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
    }
    if (dropped) *dropped = count;
    return out;
}

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
    size_t dropped = 0;
    out = SanitizeImGuiIni(out, &dropped);
    if (dropped && problem)
        *problem = path + ": " + std::to_string(dropped) + " table section" +
                   (dropped == 1 ? "" : "s") + " with a column count outside 1 to " +
                   std::to_string(kMaxIniTableColumns) + " ignored (the file is rewritten at exit)";
    return out;
}

bool WriteImGuiIni(const std::string& path, const std::string& text, std::string* problem) {
    if (text.size() > kMaxIniBytes || CountSections(text) > kMaxIniSections) {
        if (problem)
            *problem = "not saving " + path + ": " + std::to_string(text.size()) + " bytes in " +
                       std::to_string(CountSections(text)) + " sections is more than expected";
        return false;
    }
    return WriteReplacing(path, text, problem);
}

}  // namespace lessons::app
