// Where the tests find cuda-lessons-cli: $LESSONS_CLI when set (a build carried to another
// machine), else the path CMake compiled in.
#pragma once

#include <cstdlib>
#include <string>

inline std::string CliPath() {
    const char* env = std::getenv("LESSONS_CLI");
    return env && *env ? env : LESSONS_CLI_PATH;
}
