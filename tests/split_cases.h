// Chapter 1's edge inputs, shared by the CPU and GPU tests.
#pragma once

#include <string>
#include <vector>

namespace split_cases {

struct Case {
    std::string name;
    std::string text;
    std::vector<uint64_t> expected;  // sorted offsets
};

inline std::vector<Case> EdgeCases() {
    return {
        {"empty", "", {}},
        {"one byte CR", "\r", {}},
        {"one byte LF", "\n", {}},
        {"two bytes pair", "\r\n", {2}},
        {"two bytes reversed", "\n\r", {}},
        {"three bytes pair at start", "\r\nx", {2}},
        {"three bytes pair at end", "x\r\n", {3}},
        {"pair at odd offset", "ab\rx\r\nyz", {6}},
        {"CR CR LF LF", "\r\r\n\n", {3}},
        {"all pairs", "\r\n\r\n\r\n\r\n", {2, 4, 6, 8}},
        {"all pairs shifted", "x\r\n\r\n\r\n", {3, 5, 7}},
        {"lone CR at end", "abc\r", {}},
        {"lone CR at end, odd", "abcd\r", {}},
        {"lone LF at start", "\nabc", {}},
        {"pair at end, odd length", "abcd\r\n\r", {6}},
        {"pair at end, even length", "abc\r\n\r\n", {5, 7}},
        {"LF CR LF", "\n\r\n", {3}},
        {"many CR then LF", "\r\r\r\r\r\n", {6}},
    };
}

}  // namespace split_cases
