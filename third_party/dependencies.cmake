# Included from the top-level CMakeLists.txt (imported targets must be visible everywhere).
# Dependencies come from Debian 12 packages (see README.md); nothing is vendored or downloaded.
#   libcli11-dev        -> CLI11::CLI11            (command-line parsing)
#   nlohmann-json3-dev  -> nlohmann_json::nlohmann_json
#   libgtest-dev        -> GTest::gtest_main       (tests)
#   OpenMP              -> OpenMP::OpenMP_CXX      (g++'s libgomp)
find_package(CLI11 2.1 REQUIRED CONFIG)
find_package(nlohmann_json 3.10 REQUIRED CONFIG)
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Threads REQUIRED)
if(LESSONS_BUILD_TESTS)
    find_package(GTest REQUIRED)
endif()
