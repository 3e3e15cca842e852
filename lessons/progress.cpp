#include "progress.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <thread>
#include <type_traits>
#include <variant>

#include "errors.h"
#include "files.h"
#include "host.h"
#include "out_of_memory.h"
#include "report.h"

namespace lessons {

using Json = nlohmann::ordered_json;

namespace {

constexpr const char* kFormat = "cuda-lessons progress 1";

bool Positive(double v) {
    return std::isfinite(v) && v > 0;
}

// The id's entries are bounded like the GUI's lists: short, printable.
bool GoodId(const std::string& id) {
    if (id.empty() || id.size() > 200) return false;
    for (unsigned char c : id)
        if (c < 0x20 || c == 0x7f) return false;
    return true;
}

std::string Text(const Json& j, const char* name) {
    const auto it = j.find(name);
    if (it == j.end() || it->is_null()) return "";
    if (!it->is_string()) throw UsageError(std::string(name) + " is not a string");
    std::string s = it->get<std::string>();
    if (s.size() > 200) throw UsageError(std::string(name) + " is too long");
    return s;
}

double Number(const Json& j, const char* name) {
    const auto it = j.find(name);
    if (it == j.end() || it->is_null()) return 0;
    if (!it->is_number()) throw UsageError(std::string(name) + " is not a number");
    const double v = it->get<double>();
    if (!std::isfinite(v) || v < 0) throw UsageError(std::string(name) + " is out of range");
    return v;
}

std::optional<double> Optional(const Json& j, const char* name) {
    const auto it = j.find(name);
    if (it == j.end() || it->is_null()) return std::nullopt;
    const double v = Number(j, name);
    if (!(v > 0)) throw UsageError(std::string(name) + " is not above 0");
    return v;
}

bool Flag(const Json& j, const char* name) {
    const auto it = j.find(name);
    if (it == j.end() || it->is_null()) return false;
    if (!it->is_boolean()) throw UsageError(std::string(name) + " is not true or false");
    return it->get<bool>();
}

int Count(const Json& j, const char* name) {
    const double v = Number(j, name);
    if (v > 1e9 || v != std::floor(v)) throw UsageError(std::string(name) + " is not a count");
    return static_cast<int>(v);
}

// A record's fields, each named once for both ways: written in this order after its "lesson",
// and read back with the reader of its type (Count, Flag, Text, Number, Optional). A number is
// written only when above 0 (null otherwise); a field of the guess (`guess`) is null, and not
// read, where the prediction was skipped.
template <class R>
struct Field {
    const char* name;
    std::variant<int R::*, bool R::*, std::string R::*, double R::*, std::optional<double> R::*>
        member;
    bool guess = false;
};

bool Skipped(const PredictionProgress& p) {
    return p.skipped;
}
template <class R>
bool Skipped(const R&) {
    return false;
}

template <class R>
Json RecordJson(const std::string& id, const R& r, const std::vector<Field<R>>& fields) {
    Json j{{"lesson", id}};
    for (const Field<R>& f : fields)
        j[f.name] = std::visit(
            [&](auto member) {
                const auto& v = r.*member;
                using V = std::decay_t<decltype(v)>;
                if (f.guess && Skipped(r)) return Json();
                if constexpr (std::is_same_v<V, double>)
                    return v > 0 ? Json(v) : Json();
                else if constexpr (std::is_same_v<V, std::optional<double>>)
                    return v ? Json(*v) : Json();
                else
                    return Json(v);
            },
            f.member);
    return j;
}

template <class R>
R RecordFrom(const Json& j, const std::vector<Field<R>>& fields) {
    R r;
    for (const Field<R>& f : fields) {
        if (f.guess && Skipped(r)) continue;
        std::visit(
            [&](auto member) {
                auto& v = r.*member;
                using V = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<V, int>)
                    v = Count(j, f.name);
                else if constexpr (std::is_same_v<V, bool>)
                    v = Flag(j, f.name);
                else if constexpr (std::is_same_v<V, std::string>)
                    v = Text(j, f.name);
                else if constexpr (std::is_same_v<V, double>)
                    v = Number(j, f.name);
                else
                    v = Optional(j, f.name);
            },
            f.member);
    }
    return r;
}

using E = ExerciseProgress;
const std::vector<Field<E>> kExerciseFields = {{"checks", &E::checks},
                                               {"correct", &E::correct},
                                               {"correct_at", &E::correct_at},
                                               {"speed_met", &E::speed_met},
                                               {"speed_met_at", &E::speed_met_at},
                                               {"best_ratio", &E::best_ratio},
                                               {"yours_ms", &E::yours_ms},
                                               {"step_ms", &E::step_ms},
                                               {"last_at", &E::last_at},
                                               {"last_correct", &E::last_correct},
                                               {"last_cases_failed", &E::last_cases_failed},
                                               {"last_cases_total", &E::last_cases_total},
                                               {"last_speed", &E::last_speed},
                                               {"last_change", &E::last_change}};

// "skipped" first: it decides whether the guess's fields are read.
using P = PredictionProgress;
const std::vector<Field<P>> kPredictionFields = {
    {"skipped", &P::skipped},    {"value", &P::value, true},       {"unit", &P::unit},
    {"made_at", &P::made_at},    {"measured", &P::measured, true}, {"off_by", &P::off_by, true},
    {"scored_at", &P::scored_at}};

using Q = ParsonsProgress;
const std::vector<Field<Q>> kParsonsFields = {{"attempts", &Q::attempts},
                                              {"solved", &Q::solved},
                                              {"solved_at", &Q::solved_at},
                                              {"last_at", &Q::last_at},
                                              {"last_result", &Q::last_result}};

bool GoodParsonsResult(const std::string& r) {
    return r == "solved" || r == "wrong" || r == "did not compile" || r == "not checked";
}

ParsonsProgress ParsonsFrom(const Json& j) {
    const ParsonsProgress p = RecordFrom(j, kParsonsFields);
    if (!p.last_result.empty() && !GoodParsonsResult(p.last_result))
        throw UsageError("last_result is not solved, wrong, did not compile or not checked");
    return p;
}

ExerciseProgress ExerciseFrom(const Json& j) {
    const ExerciseProgress e = RecordFrom(j, kExerciseFields);
    if (!e.last_speed.empty() && e.last_speed != "met" && e.last_speed != "not met" &&
        e.last_speed != "not judged")
        throw UsageError("last_speed is not met, not met or not judged");
    if (!e.last_change.empty() && e.last_change != "found" && e.last_change != "missing")
        throw UsageError("last_change is not found or missing");
    return e;
}

PredictionProgress PredictionFrom(const Json& j) {
    const PredictionProgress p = RecordFrom(j, kPredictionFields);
    if (!p.skipped) {
        if (!(p.value > 0)) throw UsageError("a prediction without its value");
        if (p.unit != "ms" && p.unit != "x") throw UsageError("unit is not ms or x");
    }
    return p;
}

// An exclusive lock on "<path>.lock" while it lives: the programs that record take turns.
class ProgressLock {
public:
    explicit ProgressLock(const std::string& path) {
        const std::string lock = path + ".lock";
        m_fd = open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (m_fd < 0)
            throw FileError("cannot open the progress lock '" + lock +
                            "': " + std::strerror(errno));
        // A few seconds at most: another program's write takes milliseconds.
        for (int tries = 0; flock(m_fd, LOCK_EX | LOCK_NB) != 0; ++tries) {
            if (tries >= 100) {
                close(m_fd);
                throw FileError("the progress file '" + path +
                                "' is being written by another program (its lock '" + lock +
                                "' was held for 5 s)");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    ~ProgressLock() {
        flock(m_fd, LOCK_UN);
        close(m_fd);
    }
    ProgressLock(const ProgressLock&) = delete;
    ProgressLock& operator=(const ProgressLock&) = delete;

private:
    int m_fd = -1;
};

void MakeFolders(const std::string& path) {
    const std::string dir = path.substr(0, path.rfind('/'));
    for (size_t at = 1; at <= dir.size(); ++at)
        if (at == dir.size() || dir[at] == '/') mkdir(dir.substr(0, at).c_str(), 0755);
}

std::string CsvCell(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// The CSV cells `cells_of` makes of the record of `id`, or as many empty ones where `records`
// has none.
template <class R, class CellsOf>
void AddCells(std::vector<std::string>& cells, const std::map<std::string, R>& records,
              const std::string& id, const CellsOf& cells_of) {
    const auto it = records.find(id);
    if (it == records.end()) {
        cells.insert(cells.end(), cells_of(R{}).size(), "");
        return;
    }
    for (const std::string& c : cells_of(it->second)) cells.push_back(CsvCell(c));
}

std::string Num(double v) {
    std::ostringstream out;
    out.precision(6);
    out << v;
    return out.str();
}

}  // namespace

std::optional<double> OffBy(double guess, double measured) {
    if (!Positive(guess) || !Positive(measured)) return std::nullopt;
    return std::max(guess / measured, measured / guess);
}

std::string ProgressPath(const std::function<const char*(const char*)>& getenv_fn) {
    return UserDataPath("progress.json", getenv_fn);
}

Json ToJson(const Progress& p) {
    Json exercises = Json::array(), predictions = Json::array();
    for (const auto& [id, e] : p.exercises) exercises.push_back(RecordJson(id, e, kExerciseFields));
    for (const auto& [id, q] : p.predictions)
        predictions.push_back(RecordJson(id, q, kPredictionFields));
    Json parsons = Json::array();
    for (const auto& [id, q] : p.parsons) parsons.push_back(RecordJson(id, q, kParsonsFields));
    return Json{{"format", kFormat},
                {"exercises", exercises},
                {"predictions", predictions},
                {"parsons", parsons}};
}

Progress ProgressFromJson(const Json& j, size_t* skipped) {
    Progress p;
    size_t bad = 0;
    const auto read = [&](const char* list, auto&& add) {
        const auto it = j.find(list);
        if (it == j.end()) return;
        if (!it->is_array()) {
            ++bad;
            return;
        }
        for (const Json& e : *it) {
            try {
                if (!e.is_object()) throw UsageError("not an object");
                const std::string id = Text(e, "lesson");
                if (!GoodId(id)) throw UsageError("no lesson id");
                add(id, e);
            } catch (const std::exception& error) {
                RethrowIfOutOfMemory(error, "load the progress file");  // not a bad entry
                ++bad;
            }
        }
    };
    read("exercises", [&](const std::string& id, const Json& e) {
        if (p.exercises.size() >= kMaxProgressEntries) throw UsageError("too many");
        p.exercises[id] = ExerciseFrom(e);
    });
    read("predictions", [&](const std::string& id, const Json& e) {
        if (p.predictions.size() >= kMaxProgressEntries) throw UsageError("too many");
        p.predictions[id] = PredictionFrom(e);
    });
    read("parsons", [&](const std::string& id, const Json& e) {
        if (p.parsons.size() >= kMaxProgressEntries) throw UsageError("too many");
        p.parsons[id] = ParsonsFrom(e);
    });
    if (skipped) *skipped = bad;
    return p;
}

Progress ReadProgress(const std::string& path, std::string* problem, bool* corrupt) {
    if (corrupt) *corrupt = false;
    struct stat st {};
    if (path.empty() || lstat(path.c_str(), &st) != 0) return {};  // none yet
    const auto refuse = [&](const std::string& why) {
        if (problem) *problem = path + ": " + why;
        if (corrupt) *corrupt = true;
        return Progress{};
    };
    if (!S_ISREG(st.st_mode)) return refuse("not a regular file");
    if (static_cast<uint64_t>(st.st_size) > kMaxProgressBytes)
        return refuse(std::to_string(st.st_size) + " bytes, more than this program writes");
    std::string text;
    try {
        text.resize(RegularFileSize(path, "progress file"));
        ReadRegularFile(path, text.data(), text.size(), nullptr, "progress file");
    } catch (const std::exception& e) {
        RethrowIfOutOfMemory(e, "load the progress file");
        // Unreadable (permissions, a read error) is not corrupt: it is left as it is.
        if (problem) *problem = path + ": " + e.what();
        return {};
    }
    const Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded()) return refuse("not JSON");
    if (!j.is_object() || j.value("format", Json()) != Json(kFormat))
        return refuse(std::string("not a progress file of this program (no \"format\": \"") +
                      kFormat + "\")");
    size_t skipped = 0;
    Progress p = ProgressFromJson(j, &skipped);
    if (skipped) {
        if (problem)
            *problem = path + ": " + std::to_string(skipped) + " entr" +
                       (skipped == 1 ? "y" : "ies") + " of the wrong shape";
        if (corrupt) *corrupt = true;
    }
    return p;
}

void UpdateProgress(const std::string& path, const std::function<void(Progress&)>& change,
                    std::string* notice) {
    if (path.empty())
        throw UsageError("no folder to keep the progress in: set HOME or XDG_DATA_HOME");
    MakeFolders(path);
    const ProgressLock lock(path);
    std::string problem;
    bool corrupt = false;
    Progress p = ReadProgress(path, &problem, &corrupt);
    if (!problem.empty() && !corrupt) throw FileError("cannot record progress: " + problem);
    if (corrupt) {
        // Set aside, never lost: a name no file has yet.
        std::string aside = path + ".corrupt-" + UtcTimestamp();
        struct stat st {};
        for (int n = 2; lstat(aside.c_str(), &st) == 0; ++n)
            aside = path + ".corrupt-" + UtcTimestamp() + "-" + std::to_string(n);
        if (std::rename(path.c_str(), aside.c_str()) != 0)
            throw FileError("cannot record progress: " + problem +
                            ", and it cannot be set aside (" + std::strerror(errno) + ")");
        if (notice)
            *notice = problem + ": it was set aside as " + aside + " and a new one started" +
                      (p.empty() ? "" : " with the entries that could be read");
    }
    change(p);
    WriteFileReplacing(path, ToJson(p).dump(1) + "\n");
}

void RecordCheck(Progress& p, const std::string& id, const CheckRecord& r,
                 const std::string& when) {
    ExerciseProgress& e = p.exercises[id];
    ++e.checks;
    e.last_at = when;
    e.last_correct = r.correct;
    e.last_change = r.change;
    e.last_cases_failed = r.cases_failed;
    e.last_cases_total = r.cases_total;
    const bool timed = r.correct && r.speed_judged && Positive(r.yours_ms) && Positive(r.step_ms);
    e.last_speed = !timed ? "not judged" : r.speed_met ? "met" : "not met";
    if (r.correct && r.change != "missing" && !e.correct) {
        e.correct = true;
        e.correct_at = when;
    }
    if (timed) {
        const double ratio = r.yours_ms / r.step_ms;
        if (e.best_ratio == 0 || ratio < e.best_ratio) {
            e.best_ratio = ratio;
            e.yours_ms = r.yours_ms;
            e.step_ms = r.step_ms;
        }
        if (r.speed_met && !e.speed_met) {
            e.speed_met = true;
            e.speed_met_at = when;
        }
    }
}

void RecordPrediction(Progress& p, const std::string& id, double value, const std::string& unit,
                      const std::string& when) {
    if (!Positive(value) || (unit != "ms" && unit != "x")) return;
    PredictionProgress& q = p.predictions[id];
    if (!q.skipped && q.value == value && q.unit == unit) return;  // unchanged: its score stays
    q = PredictionProgress{};
    q.value = value;
    q.unit = unit;
    q.made_at = when;
}

void RecordSkip(Progress& p, const std::string& id, const std::string& when) {
    PredictionProgress& q = p.predictions[id];
    q = PredictionProgress{};
    q.skipped = true;
    q.made_at = when;
}

void RecordParsons(Progress& p, const std::string& id, const std::string& result,
                   const std::string& when) {
    if (!GoodParsonsResult(result)) return;
    ParsonsProgress& q = p.parsons[id];
    ++q.attempts;
    q.last_at = when;
    q.last_result = result;
    if (result == "solved" && !q.solved) {
        q.solved = true;
        q.solved_at = when;
    }
}

void ForgetPrediction(Progress& p, const std::string& id) {
    p.predictions.erase(id);
}

bool ScorePrediction(Progress& p, const std::string& id, double measured, const std::string& when) {
    const auto it = p.predictions.find(id);
    if (it == p.predictions.end() || it->second.skipped) return false;
    PredictionProgress& q = it->second;
    const std::optional<double> off = OffBy(q.value, measured);
    if (!off) return false;
    if (q.measured && *q.measured == measured) return false;
    q.measured = measured;
    q.off_by = off;
    q.scored_at = when;
    return true;
}

std::string ProgressCsv(const Progress& p, const std::string& student,
                        const std::function<std::string(const std::string& id)>& label) {
    std::string out =
        "student,lesson,label,exercise_correct,correct_at,speed_met,speed_met_at,yours_ms,step_ms,"
        "checks,last_checked_at,last_cases_failed,last_cases_total,predicted,unit,measured,"
        "off_by,prediction_skipped,predicted_at,scored_at,parsons_solved,parsons_solved_at,"
        "parsons_attempts,parsons_last\n";
    std::set<std::string> ids;
    for (const auto& [id, e] : p.exercises) ids.insert(id);
    for (const auto& [id, q] : p.predictions) ids.insert(id);
    for (const auto& [id, q] : p.parsons) ids.insert(id);
    for (const std::string& id : ids) {
        std::vector<std::string> cells = {CsvCell(student), CsvCell(id),
                                          CsvCell(label ? label(id) : "")};
        AddCells(cells, p.exercises, id, [](const ExerciseProgress& x) {
            return std::vector<std::string>{std::string(x.correct ? "yes" : "no"),
                                            x.correct_at,
                                            std::string(x.speed_met ? "yes" : "no"),
                                            x.speed_met_at,
                                            x.yours_ms > 0 ? Num(x.yours_ms) : "",
                                            x.step_ms > 0 ? Num(x.step_ms) : "",
                                            std::to_string(x.checks),
                                            x.last_at,
                                            std::to_string(x.last_cases_failed),
                                            std::to_string(x.last_cases_total)};
        });
        AddCells(cells, p.predictions, id, [](const PredictionProgress& x) {
            return std::vector<std::string>{x.skipped ? "" : Num(x.value),
                                            x.skipped ? "" : x.unit,
                                            x.measured ? Num(*x.measured) : "",
                                            x.off_by ? Num(*x.off_by) : "",
                                            std::string(x.skipped ? "yes" : "no"),
                                            x.made_at,
                                            x.scored_at};
        });
        AddCells(cells, p.parsons, id, [](const ParsonsProgress& x) {
            return std::vector<std::string>{std::string(x.solved ? "yes" : "no"), x.solved_at,
                                            std::to_string(x.attempts), x.last_result};
        });
        for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + cells[i];
        out += "\n";
    }
    return out;
}

Json ProgressExport(const Progress& p, const std::string& student,
                    const std::function<std::string(const std::string& id)>& label) {
    Json exercises = Json::array(), predictions = Json::array();
    for (const auto& [id, e] : p.exercises) {
        Json j = RecordJson(id, e, kExerciseFields);
        j["label"] = label ? label(id) : "";
        exercises.push_back(std::move(j));
    }
    for (const auto& [id, q] : p.predictions) {
        Json j = RecordJson(id, q, kPredictionFields);
        j["label"] = label ? label(id) : "";
        predictions.push_back(std::move(j));
    }
    Json parsons = Json::array();
    for (const auto& [id, q] : p.parsons) {
        Json j = RecordJson(id, q, kParsonsFields);
        j["label"] = label ? label(id) : "";
        parsons.push_back(std::move(j));
    }
    return Json{{"student", student},
                {"exported_at", UtcTimestamp()},
                {"exercises", exercises},
                {"predictions", predictions},
                {"parsons", parsons}};
}

std::string StudentName() {
    for (const char* name : {"USER", "LOGNAME"})
        if (const char* v = std::getenv(name); v && *v) return v;
    return "";
}

}  // namespace lessons
