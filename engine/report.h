// Results as JSON, CSV and plain-text tables, all from one table of result fields.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "host.h"
#include "registry.h"
#include "result.h"

namespace lessons {

using Json = nlohmann::ordered_json;

// One field of a result: its JSON key (also its CSV column), how to write and read it, and,
// for the fields a table shows, its header and its text. A field without to_json is a column of
// the tables only (its name is the GUI's column key), drawn from fields JSON and CSV carry.
struct ResultField {
    const char* name;
    std::function<Json(const RunResult&)> to_json;
    std::function<void(RunResult&, const Json&)> from_json;  // the value is never null here
    bool csv = true;                  // a CSV column (objects and arrays are not)
    const char* header_en = nullptr;  // shown in the GUI's table and the CLI's tables
    const char* header_zh = nullptr;
    bool right_aligned = false;
    std::function<std::string(const RunResult&)> text;  // CSV cell and table cell
};

// Every field of a result, in the order JSON and CSV write them.
const std::vector<ResultField>& ResultFields();
const ResultField* FindResultField(std::string_view name);

// The object documented in README.md ("run --format json"). Absent parts are null.
Json ToJson(const RunResult& result);
// The reverse, for recorded results. Reads today's objects and those recorded before named
// parameters (size_bytes, block, threads, data, h2d_ms...). Throws Json::exception or
// UsageError on a malformed object.
RunResult RunResultFromJson(const Json& j);
// A result as this catalogue knows it: found by its id, or by the id it was recorded under
// before chapters numbered their own lessons ("reduce/23-v3-unrolled-last-warp"), it takes the
// lesson's current id and number (results are matched to lessons by number within one process). A
// result of a lesson the registry does not know gets number 0, which matches none. True when found.
bool AdoptCatalogIdentity(const Registry& registry, RunResult& result);
// A result recorded before its lesson was held to the TF32 ceiling (gemm/wmma-tf32 and
// gemm/cublas-tf32 were compared with the fp32 peak until then) takes the bound the catalogue
// declares now; the fp32 ceiling, % and roofline it carries are dropped, and ceiling_note says so.
// Results of lessons the registry does not know, or whose bound did not change, are left alone.
// True if changed.
bool AdoptDeclaredBound(const Registry& registry, RunResult& result);

Json ToJson(const HostInfo& host);
Json ToJson(const KernelAttributes& attributes);
KernelAttributes KernelAttributesFromJson(const Json& j);
// Parameter values from a JSON object: a string is a choice, a whole number from 0 a number;
// anything else, or no object, is refused (UsageError).
ParamValues ParamsFromJson(const Json& j);
Json ToJson(const ParamSpec& spec);
Json ToJson(const ParamValues& values);
// A lesson as `list --format json` prints it.
// `unavailable`: why it cannot run here, as "unavailable_reason" (its English) and
// "unavailable_message" (its id and arguments).
Json LessonToJson(const Registry& registry, const Lesson& lesson, const Message& unavailable);
Json LessonToJson(const Registry& registry, const Lesson& lesson,
                  const std::string& unavailable_reason);
// A message as the protocol carries it beside its English: {"id": ..., "args": [...]}, null
// when it has no id; and back (an absent or malformed one gives a plain message of `text`).
Json MessageIdJson(const Message& message);
Message MessageFromJson(const Json& id_and_args, std::string text);

// One CSV field, quoted (quotes doubled) when it holds a comma, a quote or a line break.
std::string CsvField(const std::string& text);
// CSV: the fixed columns, then one per parameter name given, then the values as name=value.
std::string CsvHeader(const std::vector<std::string>& param_names);
std::string CsvRow(const RunResult& result, const std::vector<std::string>& param_names);
// The parameter names of these lessons, each once, in declaration order.
std::vector<std::string> ParamNamesOf(const std::vector<const Lesson*>& lessons);

// A plain text table with aligned columns; `right` marks right-aligned columns.
class TextTable {
public:
    explicit TextTable(std::vector<std::string> header, std::vector<bool> right = {});
    void AddRow(std::vector<std::string> row);
    std::string Render() const;

private:
    std::vector<std::string> m_header;
    std::vector<bool> m_right;
    std::vector<std::vector<std::string>> m_rows;
};

// "1.234" with `digits` decimals; "-" for an empty value.
std::string Fixed(double value, int digits);
std::string Fixed(const std::optional<double>& value, int digits);
// Milliseconds with as many decimals as suit their size.
std::string Ms(double ms);
std::string Ms(const std::optional<double>& ms);
// The median's confidence interval and its level, "0.121-0.130 (95.8%)"; "-" without one.
std::string MedianIntervalText(const RunResult& result);

}  // namespace lessons
