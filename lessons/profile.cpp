#include "profile.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <thread>
#include <unordered_map>

#include "catalog.h"
#include "errors.h"
#include "files.h"
#include "machine_code.h"
#include "out_of_memory.h"
#include "report.h"
#include "resources.h"

extern char** environ;

namespace lessons {

using Json = nlohmann::ordered_json;

namespace {

bool IsExecutableFile(const std::string& path) {
    struct stat st {};
    return !path.empty() && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           access(path.c_str(), X_OK) == 0;
}

// One CSV line into its fields: quoted fields may hold commas and doubled quotes.
std::vector<std::string> CsvFields(std::string_view line) {
    std::vector<std::string> out;
    std::string field;
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.push_back(std::move(field));
            field.clear();
        } else if (c != '\r') {
            field += c;
        }
    }
    out.push_back(std::move(field));
    return out;
}

// "1,073,741,824", "93.5", "-2", "1.5e+06" as a number; anything else (n/a, names) as none.
std::optional<double> Number(const std::string& text) {
    std::string digits;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != ',') {
            digits += text[i];
            continue;
        }
        // A thousands separator: three digits follow, then the end, a '.' or another ','.
        const size_t next = i + 4;
        const bool grouped =
            i > 0 && std::isdigit(static_cast<unsigned char>(text[i - 1])) && next <= text.size() &&
            std::all_of(text.begin() + long(i) + 1, text.begin() + long(next),
                        [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
            (next == text.size() || text[next] == '.' || text[next] == ',');
        if (!grouped) return std::nullopt;
    }
    if (digits.empty()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(digits.c_str(), &end);
    if (end != digits.c_str() + digits.size()) return std::nullopt;
    return v;
}

// The step's counters of evidence, beside NcuMetrics' per-focus ones.
constexpr const char* kEvidence[] = {
    "gpu__time_duration.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "lts__t_sector_hit_rate.pct",
    "launch__registers_per_thread",
    "launch__occupancy_limit_registers",
    "launch__occupancy_limit_shared_mem",
    "launch__occupancy_limit_warps",
    "launch__occupancy_limit_blocks",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__maximum_warps_per_active_cycle_pct",
    "smsp__issue_active.avg.pct_of_peak_sustained_active",
    "smsp__inst_executed.sum",
    "smsp__thread_inst_executed_per_inst_executed.ratio",
    "smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio",
    "smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio",
    "smsp__average_warp_latency_issue_stalled_barrier.ratio",
    "smsp__average_warp_latency_issue_stalled_mio_throttle.ratio",
    "smsp__average_warp_latency_issue_stalled_lg_throttle.ratio",
    "smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio",
    "smsp__average_warp_latency_issue_stalled_wait.ratio",
    "smsp__average_warp_latency_issue_stalled_not_selected.ratio",
};

constexpr uint64_t kMaxReportBytes = 64ull << 20;  // a step's report is a few KiB

std::string TempPath(const char* what) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern =
        std::string(dir && *dir == '/' ? dir : "/tmp") + "/cuda-lessons-" + what + "-XXXXXX";
    const int fd = mkstemp(pattern.data());
    if (fd < 0)
        throw UnavailableError("cannot create a temporary file for ncu's report in " +
                               pattern.substr(0, pattern.rfind('/')));
    close(fd);
    return pattern;
}

// At most `limit` bytes of the file ncu wrote. Whatever the profiled program put at that path
// instead (a FIFO, a device, a link) is not read: opened without blocking and without following
// a link, and refused unless it is a regular file.
std::string ReadBounded(const std::string& path, uint64_t limit) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return {};
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw UnavailableError("ncu's output '" + path +
                               "' was replaced by something that is not a regular file: not read");
    }
    std::string out;
    char chunk[65536];
    while (out.size() < limit) {
        const ssize_t n = ::read(fd, chunk, std::min<uint64_t>(sizeof chunk, limit - out.size()));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        out.append(chunk, size_t(n));
    }
    ::close(fd);
    return out;
}

// Ends every process of this user whose environment carries `tag` ("NAME=VALUE", as one entry),
// except this one: what ncu or the profiled program started and left behind, even in a
// session of its own (setsid), out of reach of the process-group kill. A process that clears
// its environment escapes this; what it could reach the same user can reach anyway.
void KillTagged(const std::string& tag) {
    for (int round = 0; round < 3; ++round) {  // a tagged process may fork while being found
        int found = 0;
        DIR* proc = opendir("/proc");
        if (!proc) return;
        while (const dirent* e = readdir(proc)) {
            if (!std::isdigit(static_cast<unsigned char>(e->d_name[0]))) continue;
            const pid_t pid = static_cast<pid_t>(std::atoi(e->d_name));
            if (pid <= 1 || pid == getpid()) continue;
            const int fd = ::open(("/proc/" + std::string(e->d_name) + "/environ").c_str(),
                                  O_RDONLY | O_CLOEXEC);
            if (fd < 0) continue;  // another user's, or gone
            std::string env;
            char chunk[8192];
            ssize_t n;
            while (env.size() < (1u << 20) && (n = ::read(fd, chunk, sizeof chunk)) > 0)
                env.append(chunk, size_t(n));
            ::close(fd);
            for (size_t at = 0; at < env.size();) {
                const size_t end = std::min(env.find('\0', at), env.size());
                if (env.compare(at, end - at, tag) == 0) {
                    ::kill(pid, SIGKILL);
                    ++found;
                    break;
                }
                at = end + 1;
            }
        }
        closedir(proc);
        if (found == 0) return;
    }
}

struct ChildResult {
    int status = -1;  // exit status; -1 when it was stopped
    bool timed_out = false;
    bool cancelled = false;
};

// Runs argv with stdout discarded and stderr into `err_path`, in a process group of its own so
// that a timeout or a cancel ends ncu and the program it profiles together.
ChildResult RunChild(const std::vector<std::string>& argv, const std::string& err_path,
                     double timeout_s, const std::atomic<bool>* cancel,
                     const std::function<void(int)>& tick) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // The environment with LC_ALL=C (numbers as 1234.5, never 1.234,5), made before fork: the
    // worker has threads, and between fork and exec only async-signal-safe calls are made.
    // A tag in the environment of everything ncu starts, to find what it leaves behind.
    static std::atomic<unsigned> runs{0};
    const std::string tag =
        "CUDA_LESSONS_PROFILE_RUN=" + std::to_string(getpid()) + "-" + std::to_string(runs++) +
        "-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    // No timing hold under ncu (cuda::StreamHold): ncu runs each kernel alone, the host waiting.
    std::vector<std::string> env_text = {"LC_ALL=C", tag, "CUDA_LESSONS_TIMING_HOLD=0"};
    for (char** e = environ; e && *e; ++e)
        if (std::string_view(*e).rfind("LC_ALL=", 0) != 0 &&
            std::string_view(*e).rfind("CUDA_LESSONS_TIMING_HOLD=", 0) != 0)
            env_text.emplace_back(*e);
    std::vector<char*> env;
    for (std::string& e : env_text) env.push_back(e.data());
    env.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw UnavailableError("cannot start ncu: fork failed");
    struct Sweep {  // whatever way RunChild returns
        const std::string& tag;
        ~Sweep() { KillTagged(tag); }
    } sweep{tag};
    if (pid == 0) {
        setpgid(0, 0);
        // ncu and the step it profiles end with the process that started them (a worker the
        // GUI kills must not leave them running on the GPU).
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        const int devnull = open("/dev/null", O_WRONLY);
        const int err = open(err_path.c_str(), O_WRONLY | O_TRUNC);
        if (devnull >= 0) dup2(devnull, STDOUT_FILENO);
        if (devnull >= 0) dup2(devnull, STDIN_FILENO);
        if (err >= 0) dup2(err, STDERR_FILENO);
        execve(args[0], args.data(), env.data());
        static const char kCannot[] = "cannot run ncu\n";
        (void)!write(STDERR_FILENO, kCannot, sizeof(kCannot) - 1);
        _exit(127);
    }
    setpgid(pid, pid);
    ChildResult r;
    const auto start = std::chrono::steady_clock::now();
    int last_tick = 0;
    for (;;) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            return r;
        }
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (tick && int(elapsed) > last_tick) tick(last_tick = int(elapsed));
        r.timed_out = elapsed > timeout_s;
        r.cancelled = cancel && cancel->load();
        if (r.timed_out || r.cancelled) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    kill(-pid, SIGTERM);
    for (int i = 0; i < 40; ++i) {
        if (waitpid(pid, nullptr, WNOHANG) == pid) return r;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    kill(-pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    return r;
}

}  // namespace

const NcuCounter* ProfiledKernel::Find(std::string_view metric) const {
    for (const NcuCounter& c : counters)
        if (c.name == metric) return &c;
    return nullptr;
}

std::optional<std::string> FindNcu(std::string* looked,
                                   const std::function<const char*(const char*)>& getenv_fn) {
    auto env = [&](const char* name) -> std::string {
        const char* v = getenv_fn ? getenv_fn(name) : std::getenv(name);
        return v ? std::string(v) : std::string();
    };
    std::vector<std::string> tried;
    auto found = [&](const std::string& path, const std::string& how) {
        tried.push_back(how + " (" + path + ")");
        return IsExecutableFile(path);
    };
    std::optional<std::string> result;
    if (const std::string set = env("CUDA_LESSONS_NCU"); !set.empty()) {
        // Named by the user: that file or nothing, never a different ncu found elsewhere.
        if (found(set, "CUDA_LESSONS_NCU")) result = set;
        if (looked) *looked = "CUDA_LESSONS_NCU (" + Excerpt(set) + "): not an executable file";
        return result;
    }
    const std::string path = env("PATH");
    for (size_t begin = 0; !result && begin <= path.size();) {
        const size_t end = std::min(path.find(':', begin), path.size());
        const std::string dir = path.substr(begin, end - begin);
        if (!dir.empty() && IsExecutableFile(dir + "/ncu")) result = dir + "/ncu";
        begin = end + 1;
    }
    if (!result) tried.push_back("PATH");
    if (!result) {
        if (const std::string home = env("CUDA_HOME"); !home.empty())
            if (found(home + "/bin/ncu", "$CUDA_HOME/bin")) result = home + "/bin/ncu";
    }
    if (!result && env("CUDA_HOME") != "/usr/local/cuda" &&
        found("/usr/local/cuda/bin/ncu", "the toolkit's folder"))
        result = "/usr/local/cuda/bin/ncu";
    if (looked) {
        looked->clear();
        for (const std::string& t : tried) *looked += (looked->empty() ? "" : ", ") + t;
    }
    return result;
}

std::vector<std::string> EvidenceMetrics(const Lesson& lesson) {
    std::vector<std::string> m(std::begin(kEvidence), std::end(kEvidence));
    for (const std::string& focus : NcuMetrics(lesson))
        if (std::find(m.begin(), m.end(), focus) == m.end()) m.push_back(focus);
    return m;
}

std::vector<std::string> NcuArgs(const std::string& ncu, const Lesson& lesson,
                                 const Lesson* previous, const ParamValues& values,
                                 const std::string& cli, const std::string& log_file) {
    std::vector<std::string> a = {ncu, "--clock-control", "none", "--print-units", "base"};
    // The app reads the report back: CSV, into a file, and the run's own output as JSON.
    if (!log_file.empty())
        a.insert(a.end(), {"--csv", "--page", "details", "--log-file", log_file});
    const std::vector<std::string> kernels = KernelNames(lesson, previous);
    if (!kernels.empty()) {
        std::string regex;
        for (const std::string& k : kernels) regex += (regex.empty() ? "" : "|") + k;
        a.push_back("--kernel-name");
        a.push_back(kernels.size() == 1 ? kernels.front() : "regex:" + regex);
    }
    std::string metrics;
    for (const std::string& m : EvidenceMetrics(lesson))
        metrics += (metrics.empty() ? "" : ",") + m;
    a.insert(a.end(), {"--metrics", metrics, cli, "run", lesson.id});
    for (const ParamSpec& spec : lesson.params) {
        const ParamValue* v = values.Find(spec.name);
        if (!v) continue;
        std::string text = spec.Format(*v);
        text.erase(std::remove(text.begin(), text.end(), ' '), text.end());  // "1 GiB" -> "1GiB"
        // A size whose short form is rounded ("95.4MiB" for 100 MB) goes as its byte count.
        if (spec.type == ParamType::kBytes) {
            bool exact = false;
            try {
                exact = spec.Parse(text) == *v;
            } catch (const std::exception&) {
            }
            if (!exact) text = std::to_string(v->number);
        }
        a.push_back("--set");
        a.push_back(spec.name + "=" + text);
    }
    a.insert(a.end(), {"--no-ceilings", "--reps", "1"});
    if (!log_file.empty()) a.insert(a.end(), {"--format", "json"});
    return a;
}

std::vector<ProfiledKernel> ParseNcuCsv(std::string_view text) {
    std::vector<ProfiledKernel> out;
    std::map<int, size_t> by_id;
    std::vector<std::unordered_map<std::string, size_t>> names;  // per kernel: counter -> index
    int col_id = -1, col_kernel = -1, col_name = -1, col_unit = -1, col_value = -1;
    int col_block = -1, col_grid = -1;
    size_t columns = 0;
    for (size_t begin = 0; begin < text.size();) {
        size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(begin, end - begin);
        begin = end + 1;
        if (line.empty() || line.front() != '"') continue;  // ==PROF== lines, blank lines
        const std::vector<std::string> f = CsvFields(line);
        auto col = [&](const char* name) {
            const auto it = std::find(f.begin(), f.end(), name);
            return it == f.end() ? -1 : int(it - f.begin());
        };
        if (col("Metric Name") >= 0 && col("Metric Value") >= 0) {  // a header (one per report)
            col_id = col("ID"), col_kernel = col("Kernel Name"), col_name = col("Metric Name");
            col_unit = col("Metric Unit"), col_value = col("Metric Value");
            col_block = col("Block Size"), col_grid = col("Grid Size");
            columns = f.size();
            continue;
        }
        if (col_name < 0 || f.size() != columns) continue;
        int id = -1;
        if (col_id >= 0) {
            const std::optional<double> n = Number(f[size_t(col_id)]);
            if (!n || *n < 0 || *n > 1e9) continue;
            id = int(*n);
        }
        auto found = by_id.find(id);
        if (found == by_id.end()) {
            if (out.size() >= kMaxProfiledKernels) continue;  // a step launches a few
            found = by_id.emplace(id, out.size()).first;
            ProfiledKernel k;
            k.id = id;
            if (col_kernel >= 0) k.name = f[size_t(col_kernel)];
            if (col_block >= 0) k.block = f[size_t(col_block)];
            if (col_grid >= 0) k.grid = f[size_t(col_grid)];
            out.push_back(std::move(k));
            names.emplace_back();
        }
        const auto it = found;
        NcuCounter c;
        c.name = f[size_t(col_name)];
        c.unit = col_unit >= 0 ? f[size_t(col_unit)] : "";
        c.text = f[size_t(col_value)];
        c.value = Number(c.text);
        if (c.name.empty()) continue;
        ProfiledKernel& k = out[it->second];
        std::unordered_map<std::string, size_t>& index = names[it->second];
        if (const auto seen = index.find(c.name); seen != index.end()) {
            k.counters[seen->second] = std::move(c);  // the last value of a counter counts
        } else if (k.counters.size() < kMaxCountersPerKernel) {
            index.emplace(c.name, k.counters.size());
            k.counters.push_back(std::move(c));
        }
    }
    std::sort(out.begin(), out.end(),
              [](const ProfiledKernel& a, const ProfiledKernel& b) { return a.id < b.id; });
    return out;
}

std::string NcuFailure(std::string_view output, int exit_status, size_t kernels_found) {
    if (output.find("ERR_NVGPUCTRPERM") != std::string_view::npos)
        return "the NVIDIA driver does not let this user read the GPU's performance counters "
               "(ERR_NVGPUCTRPERM). Allow it for every user with the driver option "
               "NVreg_RestrictProfilingToAdminUsers=0 (a line 'options nvidia "
               "NVreg_RestrictProfilingToAdminUsers=0' in a file under /etc/modprobe.d/, then "
               "reboot or reload the driver), or profile as an administrator (root); see "
               "NVIDIA's page on ERR_NVGPUCTRPERM";
    std::string errors;
    for (size_t begin = 0; begin < output.size();) {
        size_t end = output.find('\n', begin);
        if (end == std::string_view::npos) end = output.size();
        const std::string_view line = output.substr(begin, end - begin);
        if (line.rfind("==ERROR==", 0) == 0 && errors.size() < 600)
            errors += (errors.empty() ? "" : "; ") + std::string(line.substr(9));
        begin = end + 1;
    }
    if (!errors.empty()) return "ncu reported: " + errors;
    if (exit_status != 0 && kernels_found == 0)
        return "ncu ended with status " + std::to_string(exit_status) + " and profiled no kernel";
    if (kernels_found == 0)
        return "ncu profiled no kernel of this step (the step ran no kernel that matched, or "
               "the report had no counters)";
    return "";
}

Json ProfileToJson(const Lesson& lesson, const ParamValues& values,
                   const std::vector<ProfiledKernel>& kernels, const std::string& device,
                   const std::string& when) {
    Json j;
    j["lesson"] = lesson.label;
    j["id"] = lesson.id;
    j["params"] = ToJson(values);
    j["device"] = device;
    j["recorded_at"] = when;
    Json list = Json::array();
    for (const ProfiledKernel& k : kernels) {
        Json counters = Json::object();
        for (const NcuCounter& c : k.counters)
            counters[c.name] =
                Json{{"value", c.value ? Json(*c.value) : Json(c.text)}, {"unit", c.unit}};
        list.push_back(Json{{"id", k.id},
                            {"name", k.name},
                            {"block", k.block},
                            {"grid", k.grid},
                            {"counters", counters}});
    }
    j["kernels"] = list;
    return j;
}

std::vector<ProfiledKernel> KernelsFromJson(const Json& profile) {
    std::vector<ProfiledKernel> out;
    const auto kernels = profile.find("kernels");
    if (kernels == profile.end() || !kernels->is_array()) return out;
    for (const Json& k : *kernels) {
        if (!k.is_object()) continue;
        // Every field checked for its type: this comes from the worker, untrusted.
        auto text = [&](const char* key) {
            const auto it = k.find(key);
            return it != k.end() && it->is_string() ? it->get<std::string>() : std::string();
        };
        ProfiledKernel p;
        const auto id = k.find("id");
        p.id = id != k.end() && id->is_number_integer()
                   ? int(std::clamp<int64_t>(id->get<int64_t>(), -1, 1 << 30))
                   : -1;
        p.name = text("name");
        p.block = text("block");
        p.grid = text("grid");
        const auto counters = k.find("counters");
        if (counters != k.end() && counters->is_object()) {
            for (const auto& [name, c] : counters->items()) {
                if (!c.is_object()) continue;
                NcuCounter n;
                n.name = name;
                const auto unit = c.find("unit");
                if (unit != c.end() && unit->is_string()) n.unit = unit->get<std::string>();
                const auto v = c.find("value");
                if (v != c.end() && v->is_number()) {
                    n.value = v->get<double>();
                    n.text = v->dump();
                } else if (v != c.end() && v->is_string()) {
                    n.text = v->get<std::string>();
                }
                p.counters.push_back(std::move(n));
            }
        }
        out.push_back(std::move(p));
    }
    return out;
}

std::optional<Json> FindRecordedProfile(const Lesson& lesson, const ParamValues& values,
                                        std::string* problem) {
    // The reference GPUs' files: the first's (assets/counters/<chapter>.json), then each other
    // GPU's folder (assets/counters/h200/<chapter>.json), in the order of their paths.
    const std::string path = "assets/counters/" + lesson.chapter + ".json";
    const auto& files = EmbeddedFiles();
    std::vector<std::string> paths;
    if (files.count(path)) paths.push_back(path);
    const std::string folders = "assets/counters/", tail = "/" + lesson.chapter + ".json";
    for (const auto& [name, text] : files)
        if (name.size() > folders.size() + tail.size() && name.starts_with(folders) &&
            name.ends_with(tail) &&
            name.find('/', folders.size()) == name.size() - tail.size())  // one folder deep
            paths.push_back(name);
    if (paths.empty()) {
        if (problem)
            *problem =
                "no counters are recorded for chapter " + lesson.chapter +
                " (they are recorded on a GPU machine: scripts/gpu-check.sh, STEPS=counters)";
        return std::nullopt;
    }
    std::vector<Json> lists;
    for (const std::string& each : paths) {
        Json all = OutOfMemoryAs("load the recorded counters", [&] {
            return Json::parse(files.find(each)->second, nullptr, false);
        });
        if (!all.is_array()) {
            if (problem) *problem = each + " is not a list of profiles";
            return std::nullopt;
        }
        lists.push_back(std::move(all));
    }
    // Counters are recorded at a chapter's benchmark size (256 MiB, 1 GiB), which is rarely the
    // page's: the profile of the same settings at another data size comes before the defaults'.
    // The caller labels the profile with the parameters it was recorded at.
    const auto without_size = [&lesson](Json params) {
        if (params.is_object())
            for (const ParamSpec& spec : lesson.params)
                if (spec.type == ParamType::kBytes) params.erase(spec.name);
        return params;
    };
    ParamValues defaults;
    for (const ParamSpec& spec : lesson.params) defaults.Set(spec.name, spec.Default());
    const Json wanted = ToJson(values), default_json = ToJson(defaults);
    const Json wanted_any_size = without_size(wanted),
               default_any_size = without_size(default_json);
    const Json* best = nullptr;
    int best_rank = 4;  // 0 these settings, 1 at another size, 2 the defaults, 3 at another size
    for (const Json& all : lists) {  // at the same rank, the first file's
        for (const Json& p : all) {
            if (!p.is_object() || p.value("id", std::string()) != lesson.id) continue;
            const auto found = p.find("params");
            if (found == p.end() || !found->is_object()) continue;
            // A parameter added since the profile was recorded (an ablation toggle) was at its
            // default then: the lesson as written.
            Json params = *found;
            for (const auto& [name, value] : default_json.items())
                if (!params.contains(name)) params[name] = value;
            // Compared whatever the order of their keys.
            const auto same = [](const Json& a, const Json& b) {
                return nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump());
            };
            int rank = 4;
            if (same(params, wanted))
                rank = 0;
            else if (same(without_size(params), wanted_any_size))
                rank = 1;
            else if (same(params, default_json))
                rank = 2;
            else if (same(without_size(params), default_any_size))
                rank = 3;
            if (rank < best_rank) best = &p, best_rank = rank;
        }
    }
    if (best) return *best;
    if (problem) {
        std::string where;
        for (const std::string& each : paths) where += (where.empty() ? "" : ", ") + each;
        *problem = "no counters of " + lesson.Name() + " are recorded (" + where +
                   (paths.size() > 1 ? " have" : " has") + " none of this lesson)";
    }
    return std::nullopt;
}

ParamValues RecordedAtOtherSettings(const Lesson& lesson, const ParamValues& values,
                                    const Json& profile) {
    ParamValues out;
    if (!profile.is_object()) return out;
    const auto params = profile.find("params");
    if (params == profile.end() || !params->is_object()) return out;
    const Json mine = ToJson(values);
    for (const ParamSpec& spec : lesson.params) {
        const auto v = params->find(spec.name);
        if (v == params->end() || (mine.contains(spec.name) && mine[spec.name] == *v)) continue;
        if (v->is_string())
            out.Set(spec.name, ParamValue::Choice(v->get<std::string>()));
        else if (v->is_number_unsigned())
            out.Set(spec.name, ParamValue::Number(v->get<uint64_t>()));
    }
    return out;
}

std::string SelfPath() {
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    if (n <= 0) return "cuda-lessons-cli";
    buf[n] = '\0';
    return buf;
}

NcuRun RunNcu(const std::string& ncu, const Lesson& lesson, const Lesson* previous,
              const ParamValues& values, const std::string& cli, double timeout_s,
              const std::atomic<bool>* cancel, const std::function<void(int)>& tick) {
    const std::string log = TempPath("ncu");
    std::string err;
    try {
        err = TempPath("ncu-err");
    } catch (...) {
        std::remove(log.c_str());
        throw;
    }
    ChildResult child;
    try {
        child = RunChild(NcuArgs(ncu, lesson, previous, values, cli, log), err, timeout_s, cancel,
                         tick);
    } catch (...) {
        std::remove(log.c_str());
        std::remove(err.c_str());
        throw;
    }
    NcuRun run;
    std::string report;
    try {
        report = ReadBounded(log, kMaxReportBytes);
        run.stderr_text = ReadBounded(err, 1 << 16);
    } catch (...) {
        std::remove(log.c_str());
        std::remove(err.c_str());
        throw;
    }
    std::remove(log.c_str());
    std::remove(err.c_str());
    run.cancelled = child.cancelled;
    run.timed_out = child.timed_out;
    if (run.cancelled) return run;
    if (run.timed_out) {
        run.failure =
            "ncu ran longer than " + std::to_string(int(timeout_s)) + " s and was stopped";
        return run;
    }
    run.kernels = ParseNcuCsv(report);
    run.failure = NcuFailure(report + "\n" + run.stderr_text, child.status, run.kernels.size());
    return run;
}

}  // namespace lessons
