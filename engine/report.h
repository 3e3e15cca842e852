// Results and device facts as JSON, CSV and plain-text tables.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "device.h"
#include "host.h"
#include "registry.h"
#include "runner.h"

namespace lessons {

// The fields documented in README.md ("run --format json"). Absent parts are null.
nlohmann::ordered_json ToJson(const RunResult& result);
// The reverse, for recorded results; throws nlohmann::ordered_json::exception on a malformed
// object.
RunResult RunResultFromJson(const nlohmann::ordered_json& j);

nlohmann::ordered_json ToJson(const HostInfo& host);
nlohmann::ordered_json ToJson(const KernelAttributes& attributes);
KernelAttributes KernelAttributesFromJson(const nlohmann::ordered_json& j);
// A lesson as `list --format json` prints it.
nlohmann::ordered_json LessonToJson(const Registry& registry, const Lesson& lesson,
                                    const std::string& unavailable_reason);

// CSV: one header line and one line per result.
std::string CsvHeader();
std::string CsvRow(const RunResult& result);

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

}  // namespace lessons
