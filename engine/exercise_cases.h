// The hidden cases of a step kind's exercise (`check`, "Check my kernel"): the sizes and data
// that a student's kernel must get right besides the page's settings. Declared once per step
// kind, beside its exercise kind (LESSONS_EXERCISE_KIND) in the chapter's harness, with
// LESSONS_EXERCISE_CASES; every exercise of that kind is checked with them.
//   - the smallest sizes;
//   - sizes that are no multiple of the block, tile or vector width the kind uses;
//   - the largest the lesson takes within reason for a test;
//   - the data that breaks naive code (the chapter's data kinds, or a text given whole).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

#include "params.h"
#include "step_kinds.h"

namespace lessons {

struct ExerciseCase {
    std::string name;     // "13 bytes: not a multiple of 4"
    std::string name_zh;  // "13 字节：不是 4 的倍数"
    RawParams params;     // the lesson's parameters (by name, as text) this case sets
    // A chapter that scans an input file (split lines): the text itself; the case writes it to
    // a file and runs on it ("" with `use_text` false: the chapter's generated data).
    std::string text = {};
    bool use_text = false;
};

// A case of a matrix chapter: m x n (x k: as many of m, n and k as `dims` has) with `data`
// ("ones", "large" or "random"), named by its sizes in both languages, with why it is there.
inline ExerciseCase MatrixCase(const std::vector<uint64_t>& dims, const std::string& data,
                               const std::string& why = "", const std::string& why_zh = "") {
    static const char* const kNames[] = {"m", "n", "k"};
    ExerciseCase c;
    std::string sizes;
    for (size_t i = 0; i < dims.size() && i < 3; ++i) {
        sizes += (i ? " x " : "") + std::to_string(dims[i]);
        c.params.emplace_back(kNames[i], std::to_string(dims[i]));
    }
    c.params.emplace_back("data", data);
    c.name = sizes + " (" +
             (data == "ones"    ? "all 1.0"
              : data == "large" ? "large magnitudes"
                                : "random") +
             ")" + (why.empty() ? "" : ": " + why);
    c.name_zh = sizes + "（" +
                (data == "ones"    ? "全 1"
                 : data == "large" ? "大数值"
                                   : "随机") +
                "）" + (why_zh.empty() ? "" : "：" + why_zh);
    return c;
}

// The widths a kind's kernel works in, for the cases to avoid (CasesAreNoMultiple, the tests).
struct ExerciseCaseSet {
    std::vector<ExerciseCase> cases;
    std::vector<uint64_t> widths;  // block, tile or vector widths (in the size's own unit)
    std::string size_param;        // the parameter the widths are about ("size", "m", ...)
    uint64_t size_unit = 1;        // bytes per counted element of size_param (4: floats)
};

using ExerciseCasesFn = std::function<ExerciseCaseSet(const void* kind, const StepSite& site)>;

inline std::map<std::type_index, ExerciseCasesFn>& ExerciseCaseImpls() {
    return KindImpls<ExerciseCasesFn>();
}

template <class Kind>
struct ExerciseCasesRegistration {
    explicit ExerciseCasesRegistration(
        std::function<ExerciseCaseSet(const Kind&, const StepSite&)> cases) {
        RegisterKindImpl<Kind, ExerciseCasesFn>(ForKindAt(std::move(cases)));
    }
};

#define LESSONS_EXERCISE_CASES(Kind, ...)                                          \
    static const ::lessons::ExerciseCasesRegistration<Kind> LESSONS_STEP_KIND_CAT( \
        lessons_exercise_cases_, __LINE__) {                                       \
        __VA_ARGS__                                                                \
    }

}  // namespace lessons
