#include "units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>

#include "errors.h"

namespace lessons {
namespace {

std::string Quoted(std::string_view text) {
    return "'" + std::string(text) + "'";
}

std::string_view Trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

}  // namespace

uint64_t ParseCount(std::string_view text) {
    std::string_view s = Trim(text);
    if (s.empty()) throw UsageError("expected a number, got an empty value");
    uint64_t value = 0;
    for (char c : s) {
        if (c < '0' || c > '9') throw UsageError("expected a whole number, got " + Quoted(text));
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10)
            throw UsageError("number too large: " + Quoted(text));
        value = value * 10 + digit;
    }
    return value;
}

uint64_t ParseSize(std::string_view text) {
    std::string_view s = Trim(text);
    size_t i = 0;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
    const std::string_view number = s.substr(0, i);
    const std::string_view unit = Trim(s.substr(i));
    if (number.empty() || number.find('.') != number.rfind('.') || number == ".")
        throw UsageError("bad size " + Quoted(text) +
                         ": expected a number with an optional unit (B, KiB, MiB, GiB, K, M, "
                         "G, KB, MB, GB), e.g. 64MiB");
    struct Unit {
        const char* name;
        double factor;
    };
    static const Unit kUnits[] = {
        {"", 1.0},
        {"B", 1.0},
        {"K", 1024.0},
        {"KiB", 1024.0},
        {"KB", 1e3},
        {"M", 1048576.0},
        {"MiB", 1048576.0},
        {"MB", 1e6},
        {"G", 1073741824.0},
        {"GiB", 1073741824.0},
        {"GB", 1e9},
        {"T", 1099511627776.0},
        {"TiB", 1099511627776.0},
        {"TB", 1e12},
    };
    const Unit* found = nullptr;
    for (const Unit& u : kUnits) {
        // KiB/MiB/GiB are matched without regard to case; KB/MB/GB only as written, so that
        // "kb" is not silently read as decimal.
        const bool binary_name = std::string_view(u.name).find('i') != std::string_view::npos;
        if (binary_name ? EqualsNoCase(unit, u.name) : unit == u.name) {
            found = &u;
            break;
        }
    }
    if (!found)
        throw UsageError("bad size unit in " + Quoted(text) +
                         ": use B, KiB, MiB, GiB, TiB (or K, M, G, T), or KB, MB, GB, TB");
    const double value = std::stod(std::string(number)) * found->factor;
    if (value > 1.8e19) throw UsageError("size too large: " + Quoted(text));
    const double rounded = std::floor(value);
    if (rounded != value)
        throw UsageError("size " + Quoted(text) + " is not a whole number of bytes");
    return static_cast<uint64_t>(rounded);
}

std::string FormatSize(uint64_t bytes) {
    static const char* kNames[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 4) {
        value /= 1024.0;
        ++unit;
    }
    char buf[32];
    if (unit == 0) {
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    } else if (value == std::floor(value)) {
        std::snprintf(buf, sizeof buf, "%.0f %s", value, kNames[unit]);
    } else {
        std::snprintf(buf, sizeof buf, value < 10 ? "%.2f %s" : "%.1f %s", value, kNames[unit]);
    }
    return buf;
}

std::vector<uint64_t> ParseRange(std::string_view text, uint64_t (*parse_value)(std::string_view)) {
    std::string_view s = Trim(text);
    std::vector<uint64_t> values;
    const size_t dots = s.find("..");
    if (dots == std::string_view::npos) {
        while (!s.empty()) {
            const size_t comma = s.find(',');
            values.push_back(parse_value(s.substr(0, comma)));
            if (comma == std::string_view::npos) break;
            s.remove_prefix(comma + 1);
        }
        if (values.empty()) throw UsageError("empty list " + Quoted(text));
        return values;
    }
    const std::string_view first_text = s.substr(0, dots);
    std::string_view rest = s.substr(dots + 2);
    uint64_t step = 0;
    const size_t colon = rest.find(':');
    if (colon != std::string_view::npos) {
        step = parse_value(rest.substr(colon + 1));
        if (step == 0) throw UsageError("range step must be positive in " + Quoted(text));
        rest = rest.substr(0, colon);
    }
    const uint64_t first = parse_value(first_text);
    const uint64_t last = parse_value(rest);
    if (first > last)
        throw UsageError("range " + Quoted(text) + " runs backwards: the first value is larger");
    if (step == 0 && first == 0)
        throw UsageError("a doubling range cannot start at 0 in " + Quoted(text) +
                         "; give a step (A..B:S) or start at 1");
    for (uint64_t v = first; v <= last;) {
        values.push_back(v);
        if (values.size() > 4096) throw UsageError("range " + Quoted(text) + " is too long");
        const uint64_t next = step ? v + step : v * 2;
        if (next <= v) break;  // overflow
        v = next;
    }
    return values;
}

uint64_t CheckedAdd(uint64_t a, uint64_t b, const char* what) {
    if (a > std::numeric_limits<uint64_t>::max() - b)
        throw UsageError(std::string(what) + " is too large to count");
    return a + b;
}

uint64_t CheckedMul(uint64_t a, uint64_t b, const char* what) {
    if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a)
        throw UsageError(std::string(what) + " is too large to count");
    return a * b;
}

}  // namespace lessons
