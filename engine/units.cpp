#include "units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "errors.h"
#include "files.h"

namespace lessons {
namespace {

// Quotes user input, at most a short excerpt of it.
std::string Quoted(std::string_view text) {
    return "'" + Excerpt(text, 40) + "'";
}

bool AllDigits(std::string_view s) {
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

// "12.50" -> integer digits "12", fraction digits "5" (leading zeros of the integer and
// trailing zeros of the fraction dropped). False unless `s` is digits with at most one '.'
// and at least one digit.
bool SplitDecimal(std::string_view s, std::string_view* integer, std::string_view* fraction) {
    const size_t dot = s.find('.');
    *integer = s.substr(0, dot);
    *fraction = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
    if (!AllDigits(*integer) || !AllDigits(*fraction) || integer->size() + fraction->size() == 0)
        return false;
    while (!integer->empty() && integer->front() == '0') integer->remove_prefix(1);
    while (!fraction->empty() && fraction->back() == '0') fraction->remove_suffix(1);
    return true;
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

int64_t ParseIntInRange(std::string_view text, const char* what, int64_t min, int64_t max) {
    const std::string range =
        "use a whole number from " + std::to_string(min) + " to " + std::to_string(max);
    std::string_view s = Trim(text);
    if (s.empty()) throw UsageError(std::string(what) + " is empty: " + range);
    const bool negative = s.front() == '-';
    if (negative) s.remove_prefix(1);
    if (s.empty() || !AllDigits(s))
        throw UsageError(std::string(what) + " " + Quoted(text) +
                         " is not a whole number: " + range);
    while (s.size() > 1 && s.front() == '0') s.remove_prefix(1);
    if (s.size() > 18)
        throw UsageError(std::string(what) + " " + Quoted(text) + " is out of range: " + range);
    int64_t value = 0;
    for (char c : s) value = value * 10 + (c - '0');
    if (negative) value = -value;
    if (value < min || value > max)
        throw UsageError(std::string(what) + " " + Quoted(text) + " is out of range: " + range);
    return value;
}

double ParseSeconds(std::string_view text, const char* what, double min, double max) {
    char range[96];
    // The example lies inside the range it illustrates.
    const double example = 0.25 >= min && 0.25 <= max ? 0.25 : min;
    std::snprintf(range, sizeof range, "a number of seconds from %g to %g, such as %g", min, max,
                  example);
    const std::string_view s = Trim(text);
    if (s.empty()) throw UsageError(std::string(what) + " is empty: use " + range);
    std::string_view integer, fraction;
    if (!SplitDecimal(s, &integer, &fraction))
        throw UsageError(std::string(what) + " must be " + range + " (digits and one '.' " +
                         "only), got " + Quoted(text));
    const double value =
        integer.size() > 30 ? HUGE_VAL : std::strtod(std::string(s).c_str(), nullptr);
    if (!(value >= min && value <= max))
        throw UsageError(std::string(what) + " " + Quoted(text) + " is out of range: use " + range);
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
    std::string_view integer, fraction;
    SplitDecimal(number, &integer, &fraction);
    // 2^64 has 20 digits; a fraction of a byte times at most 2^40 (TiB) needs at most 40
    // digits to be whole. Past those the number is too large, or not whole: strtod need never
    // see it (it would overflow or underflow).
    if (integer.size() > 20) throw UsageError("size too large: " + Quoted(text));
    if (fraction.size() > 40)
        throw UsageError("size " + Quoted(text) + " is not a whole number of bytes");
    const double value = std::strtod(std::string(number).c_str(), nullptr) * found->factor;
    if (!(value <= 1.8e19)) throw UsageError("size too large: " + Quoted(text));
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
        if (s.empty()) throw UsageError("empty list " + Quoted(text));
        for (;;) {
            const size_t comma = s.find(',');
            const std::string_view item = s.substr(0, comma);
            if (Trim(item).empty())
                throw UsageError("list " + Quoted(text) +
                                 " has an empty value (a comma too many?): use a list like "
                                 "128,256");
            values.push_back(parse_value(item));
            if (values.size() > 4096) throw UsageError("list " + Quoted(text) + " is too long");
            if (comma == std::string_view::npos) break;
            s.remove_prefix(comma + 1);
        }
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

}  // namespace lessons
