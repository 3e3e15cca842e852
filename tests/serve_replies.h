// The replies of `cuda-lessons-cli serve` that a CLI test captured, grouped by request.
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

// Each reply line of `text` by its integer id, in order; lines that are no JSON object with such
// an id (notices, the hello) are passed over.
inline std::map<int, std::vector<nlohmann::ordered_json>> RepliesById(const std::string& text) {
    std::map<int, std::vector<nlohmann::ordered_json>> by_id;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const auto m = nlohmann::ordered_json::parse(line, nullptr, false);
        if (m.is_object() && m.contains("id") && m["id"].is_number_integer())
            by_id[m["id"].get<int>()].push_back(m);
    }
    return by_id;
}
