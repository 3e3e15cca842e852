// A chapter for tests that register made-up lessons: titled in both languages, with a workload
// of nothing (these tests declare lessons; they never run them).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "lesson.h"

inline lessons::Chapter NothingChapter(const std::string& id) {
    using namespace lessons;
    Chapter c;
    c.id = id;
    c.title = "A chapter";
    c.title_zh = "一章";
    c.make_workload = [](const WorkloadSpec&) -> std::shared_ptr<Workload> { return nullptr; };
    c.workload_host_bytes = [](const ParamValues&) { return uint64_t(0); };
    c.describe = [](const ParamValues&) { return std::string("data"); };
    return c;
}
