// Named parameters: the axes a lesson can be run along (block size, threads, data size, data
// kind, matrix dimensions, a tile configuration, GPU count...). The CLI's options, the worker
// protocol's `params` and the GUI's controls are all generated from these declarations.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lessons {

enum class ParamType {
    kInt,     // a whole number: block size, threads, GPU count, chunks
    kBytes,   // a size in bytes, written with a unit ("64MiB")
    kCount,   // a number of elements (rows, columns), written as a plain number
    kChoice,  // one of a list of names: data kind, tile configuration
};

const char* ToString(ParamType type);

// One value of a parameter: a number, or a choice's name.
struct ParamValue {
    uint64_t number = 0;
    std::string choice;  // non-empty for kChoice

    static ParamValue Number(uint64_t n) { return {n, {}}; }
    static ParamValue Choice(std::string name) { return {0, std::move(name)}; }
    bool operator==(const ParamValue& o) const { return number == o.number && choice == o.choice; }
    bool operator!=(const ParamValue& o) const { return !(*this == o); }
};

struct ParamSpec {
    std::string name;  // "block": the CLI's --set block=..., the protocol's params.block
    std::string label_en;
    std::string label_zh;
    ParamType type = ParamType::kInt;
    // Numbers: the accepted range (inclusive), a multiple of `step`, powers of two only when
    // `power_of_two`. Choices: `choices`, each with an optional description.
    uint64_t min = 0;
    uint64_t max = 0;
    uint64_t step = 1;
    bool power_of_two = false;
    std::vector<std::string> choices;
    std::vector<std::string> choice_notes;     // shown beside each choice (may be empty)
    std::vector<std::string> choice_notes_zh;  // the same in Chinese (as many, when any)
    // The choices' names as the Chinese page shows them (as many as choices, or none: the
    // names are then shown as they are). The chapter that declares a choice names it in both
    // languages; no front end keeps a list of them.
    std::vector<std::string> choice_labels_zh;
    ParamValue default_value;
    // A default known only at run time (threads: this machine's hardware threads).
    std::function<uint64_t()> dynamic_default;
    std::string unit;        // shown beside numbers: "threads", "GPUs" (sizes have their own)
    bool log_scale = false;  // a slider on a log axis suits it (data sizes, matrix sizes)
    std::string why;         // why the values are restricted, shown with the choices
    // It sets the shape of the step's launch (a block size, or a tile configuration that fixes
    // the block): a GPU step of its own kernels has one, a library step none; a block sweep
    // runs along it.
    bool launch_shape = false;
    // The number of GPUs a step uses (GpusParam): results along it are charted per GPU count.
    bool gpu_count = false;
    // Its choices are names to show as they are, not words to translate (a tile configuration
    // such as "256t-128x128x8-w64x32").
    bool verbatim_choices = false;

    // Empty when the value is accepted, else why not (naming the parameter, the value and the
    // valid range or choices).
    std::string Reject(const ParamValue& value) const;
    // Parses the text form ("256", "64MiB", "random"); throws UsageError naming the parameter.
    ParamValue Parse(std::string_view text) const;
    // "256", "64.0 MiB", "random".
    std::string Format(const ParamValue& value) const;
    // A choice's name in `language` ("en" or "zh"): its Chinese label where the spec has one,
    // else the name itself (also for a name that is not one of its choices).
    std::string ChoiceLabel(std::string_view language, const std::string& choice) const;
    ParamValue Default() const;
    // `value` when accepted; else, for a number, the nearest accepted multiple of `step` below
    // it; else the default (a value carried over from a lesson whose range is another).
    ParamValue Fit(const ParamValue& value) const;
    // Every accepted value when there are few (block sizes, choices, small ranges); empty when
    // the range is too large to list (sizes, matrix dimensions).
    std::vector<ParamValue> Values(size_t limit = 256) const;
    // "a multiple of 32 from 32 to 1024 that is a power of two", "random, dense or none".
    std::string Describe() const;
};

// The choice a result's `data` parameter carries when its data came from a file (--input): a
// value no chapter lists, named here with its Chinese label.
inline constexpr std::string_view kFileChoice = "file";
inline constexpr std::string_view kFileChoiceZh = "文件";

// A set of parameter values by name, in the order they were set.
class ParamValues {
public:
    void Set(const std::string& name, ParamValue value);
    bool Has(std::string_view name) const;
    // Throws UsageError when missing, or when of the other kind.
    uint64_t Number(std::string_view name) const;
    const std::string& Choice(std::string_view name) const;
    const ParamValue* Find(std::string_view name) const;
    // Only the entries whose names are in `names`.
    ParamValues Subset(const std::vector<std::string>& names) const;
    const std::vector<std::pair<std::string, ParamValue>>& entries() const { return m_entries; }
    bool empty() const { return m_entries.empty(); }
    bool operator==(const ParamValues& o) const { return m_entries == o.m_entries; }
    bool operator!=(const ParamValues& o) const { return !(*this == o); }

private:
    std::vector<std::pair<std::string, ParamValue>> m_entries;
};

// Parameter values as given by a user (CLI text, protocol JSON converted to text), by name.
using RawParams = std::vector<std::pair<std::string, std::string>>;

// What becomes of a given value that its parameter does not accept.
enum class Unaccepted {
    kRefuse,  // a UsageError naming the parameter and what it accepts (CLI, protocol)
    kFit,     // ParamSpec::Fit: the nearest accepted value, else the default (the GUI's page)
};

// The one resolution of parameters: every spec's value from `given` (typed values by name),
// else its default, in the specs' order; names that no spec has are not looked at.
ParamValues ResolveParams(const std::vector<ParamSpec>& specs,
                          const std::map<std::string, ParamValue>& given, Unaccepted unaccepted);

// The usual parameters, declared once so that every chapter spells them alike.
ParamSpec BlockParam(uint64_t min, uint64_t max, uint64_t default_block, bool power_of_two = false,
                     std::string why = {});
ParamSpec ThreadsParam();
// A matrix dimension (m, n, k): a count from 1 to `max` on a log scale, `default_value` by default;
// `why` says where the limit comes from.
ParamSpec MatrixDimension(std::string name, std::string label_en, std::string label_zh,
                          uint64_t default_value, uint64_t max, std::string why);
// The number of GPUs a multi-GPU lesson uses: 1 to kMaxGpus here, and no more than the GPUs
// present when it runs (the session checks; DevicesFor in session.h). Default 1, so that every
// lesson runs on a one-GPU machine; `--set gpus=2` uses two.
constexpr uint64_t kMaxGpus = 16;
ParamSpec GpusParam();
ParamSpec SizeParam(uint64_t default_bytes, uint64_t element_bytes = 1);
ParamSpec ChoiceParam(std::string name, std::string label_en, std::string label_zh,
                      std::vector<std::string> choices, std::vector<std::string> notes = {},
                      std::vector<std::string> notes_zh = {},
                      std::vector<std::string> labels_zh = {});

}  // namespace lessons
