// Running a command line from a test, and a fresh temporary folder: what the CLI tests share.
#pragma once

#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "cli_path.h"

struct Output {
    int code = -1;     // the exit code; -1 when it did not exit normally
    std::string text;  // stdout, then stderr as the command line routes it
};

// Runs a shell command line; stdout and stderr as the command line routes them.
inline Output Sh(const std::string& command) {
    FILE* pipe = popen(command.c_str(), "r");
    Output out;
    if (!pipe) return out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.text.append(buf, n);
    const int status = pclose(pipe);
    out.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

// cuda-lessons-cli with `args`, its stderr with its stdout or discarded.
inline Output Cli(const std::string& args, bool with_stderr = true) {
    return Sh(CliPath() + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

// A new empty folder under /tmp named after `what`.
inline std::string MakeTempDir(const std::string& what) {
    std::string pattern = "/tmp/lessons-" + what + "-XXXXXX";
    const char* dir = mkdtemp(pattern.data());
    return dir ? std::string(dir) : std::string("/tmp");
}

// A new empty folder under /tmp named after `what`, removed with all it holds at the end.
class ScratchDir {
public:
    explicit ScratchDir(const std::string& what) {
        std::string pattern = "/tmp/lessons-" + what + "-XXXXXX";
        if (mkdtemp(pattern.data())) m_path = pattern;  // else empty: writes fail, nothing removed
    }
    ~ScratchDir() {
        if (!m_path.empty()) Sh("rm -rf '" + m_path + "'");
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    // Writes `contents` to the file `name` in it; its path.
    std::string Write(const std::string& name, const std::string& contents) const {
        const std::string p = Path(name);
        std::ofstream(p, std::ios::binary) << contents;
        return p;
    }
    std::string Path(const std::string& name) const { return m_path + "/" + name; }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

// Whether process `pid` is running (present and not a zombie), from /proc.
inline bool ProcessAlive(int pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return false;
    const size_t close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}
