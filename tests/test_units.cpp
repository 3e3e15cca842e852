#include <gtest/gtest.h>

#include <tuple>

#include "checked.h"
#include "errors.h"
#include "units.h"

using namespace lessons;

TEST(ParseSize, PlainBytesAndUnits) {
    EXPECT_EQ(ParseSize("0"), 0u);
    EXPECT_EQ(ParseSize("1023"), 1023u);
    EXPECT_EQ(ParseSize("17B"), 17u);
    EXPECT_EQ(ParseSize("1K"), 1024u);
    EXPECT_EQ(ParseSize("1KiB"), 1024u);
    EXPECT_EQ(ParseSize("64MiB"), 64u << 20);
    EXPECT_EQ(ParseSize("64mib"), 64u << 20);
    EXPECT_EQ(ParseSize("1G"), 1ull << 30);
    EXPECT_EQ(ParseSize("1GiB"), 1ull << 30);
    EXPECT_EQ(ParseSize("1.5GiB"), 3ull << 29);
    EXPECT_EQ(ParseSize("2GB"), 2000000000ull);
    EXPECT_EQ(ParseSize("3MB"), 3000000ull);
    EXPECT_EQ(ParseSize(" 12 KiB "), 12288u);
}

TEST(ParseSize, RejectsBadInput) {
    for (const char* bad :
         {"", "MiB", "-1", "1.2.3", "12QB", "1kb", "0.5B", "1e3", "99999999999TB"}) {
        EXPECT_THROW(ParseSize(bad), UsageError) << bad;
    }
    try {
        ParseSize("12QB");
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("MiB"), std::string::npos) << "names the valid units";
    }
}

TEST(FormatSize, Readable) {
    EXPECT_EQ(FormatSize(0), "0 B");
    EXPECT_EQ(FormatSize(1023), "1023 B");
    EXPECT_EQ(FormatSize(1024), "1 KiB");
    EXPECT_EQ(FormatSize(1536), "1.50 KiB");
    EXPECT_EQ(FormatSize(64ull << 20), "64 MiB");
    EXPECT_EQ(FormatSize(1ull << 30), "1 GiB");
}

TEST(ParseRange, DoublingStepAndList) {
    EXPECT_EQ(ParseRange("32..1024", &ParseCount),
              (std::vector<uint64_t>{32, 64, 128, 256, 512, 1024}));
    EXPECT_EQ(ParseRange("32..100", &ParseCount), (std::vector<uint64_t>{32, 64}));
    EXPECT_EQ(ParseRange("64..256:64", &ParseCount), (std::vector<uint64_t>{64, 128, 192, 256}));
    EXPECT_EQ(ParseRange("128,256, 512", &ParseCount), (std::vector<uint64_t>{128, 256, 512}));
    EXPECT_EQ(ParseRange("1MiB..4MiB", &ParseSize),
              (std::vector<uint64_t>{1u << 20, 2u << 20, 4u << 20}));
}

TEST(ParseRange, RejectsBadRanges) {
    EXPECT_THROW(ParseRange("1024..32", &ParseCount), UsageError);
    EXPECT_THROW(ParseRange("0..64", &ParseCount), UsageError);
    EXPECT_THROW(ParseRange("32..64:0", &ParseCount), UsageError);
    EXPECT_THROW(ParseRange("a..b", &ParseCount), UsageError);
    EXPECT_THROW(ParseRange("", &ParseCount), UsageError);
    EXPECT_THROW(ParseRange("1..100000:1", &ParseCount), UsageError);  // too long
}

TEST(ParseSize, HugeAndTinyNumbersAreUsageErrors) {
    // std::stod threw out_of_range ("error: stod") on these.
    EXPECT_THROW(ParseSize(std::string(400, '9')), UsageError);
    EXPECT_THROW(ParseSize(std::string(400, '9') + "GiB"), UsageError);
    EXPECT_THROW(ParseSize("0." + std::string(400, '0') + "1"), UsageError);
    EXPECT_THROW(ParseSize("1." + std::string(400, '0') + "1KiB"), UsageError);
    EXPECT_EQ(ParseSize("00000000000000000000000000001024"), 1024u);
    EXPECT_EQ(ParseSize("0.5" + std::string(400, '0') + "KiB"), 512u);
    EXPECT_EQ(ParseSize("0.0009765625KiB"), 1u);
    EXPECT_THROW(ParseSize(""), UsageError);
}

TEST(ParseSeconds, PlainDecimalsOnly) {
    EXPECT_DOUBLE_EQ(ParseSeconds("0.25", "--min-time", 0, 60), 0.25);
    EXPECT_DOUBLE_EQ(ParseSeconds("5", "--min-time", 0, 60), 5);
    EXPECT_DOUBLE_EQ(ParseSeconds(".5", "--min-time", 0, 60), 0.5);
    EXPECT_DOUBLE_EQ(ParseSeconds(" 60 ", "--min-time", 0, 60), 60);
    for (const char* bad :
         {"", " ", "5abc", "0.25s", "1,5", "0x1", "1e3", "-1", "+1", "nan", "inf", ".", "1.2.3"})
        EXPECT_THROW(ParseSeconds(bad, "--min-time", 0, 60), UsageError) << bad;
    EXPECT_THROW(ParseSeconds("60.5", "--min-time", 0, 60), UsageError);
    EXPECT_THROW(ParseSeconds(std::string(400, '9'), "--min-time", 0, 60), UsageError);
    try {
        ParseSeconds("5abc", "--min-time", 0, 60);
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("--min-time"), std::string::npos);
    }
}

// The example in the message lies inside the range it gives ("from 1 to 3600, such as 0.25"
// contradicted itself).
TEST(ParseSeconds, TheExampleIsInsideTheRange) {
    for (const auto& [min, max, example] :
         {std::tuple{1.0, 3600.0, "such as 1"}, std::tuple{0.0, 60.0, "such as 0.25"}}) {
        try {
            ParseSeconds("x", "--timeout", min, max);
            ADD_FAILURE() << "accepted";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find(example), std::string::npos) << e.what();
        }
    }
}

TEST(ParseIntInRange, RangeAndMessages) {
    EXPECT_EQ(ParseIntInRange("42", "reps", 0, 100), 42);
    EXPECT_EQ(ParseIntInRange("-3", "x", -5, 5), -3);
    EXPECT_EQ(ParseIntInRange("007", "x", 0, 10), 7);
    for (const char* bad : {"", "-", "1.5", "12a", "0x10", "101", std::string(400, '9').c_str()})
        EXPECT_THROW(ParseIntInRange(bad, "reps", 0, 100), UsageError) << bad;
    try {
        ParseIntInRange("101", "reps", 0, 100);
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("from 0 to 100"), std::string::npos) << e.what();
    }
}

TEST(ParseRange, EmptyListItemsAreErrors) {
    EXPECT_THROW(ParseRange("32,", &ParseCount), UsageError);
    EXPECT_THROW(ParseRange("32,,64", &ParseCount), UsageError);
    EXPECT_THROW(ParseRange(",32", &ParseCount), UsageError);
    EXPECT_THROW(ParseRange("", &ParseCount), UsageError);
    EXPECT_EQ(ParseRange("32, 64", &ParseCount), (std::vector<uint64_t>{32, 64}));
}

TEST(Checked, AddAndMultiplySaturate) {
    EXPECT_EQ(SaturatingAdd(1, 2), 3u);
    EXPECT_EQ(SaturatingAdd(kSaturated, 1), kSaturated);
    EXPECT_EQ(SaturatingAdd(kSaturated - 1, 1), kSaturated);
    EXPECT_EQ(SaturatingMul(0, kSaturated), 0u);
    EXPECT_EQ(SaturatingMul(kSaturated, 0), 0u);
    EXPECT_EQ(SaturatingMul(3, 5), 15u);
    EXPECT_EQ(SaturatingMul(uint64_t(1) << 32, uint64_t(1) << 32), kSaturated);
    EXPECT_EQ(SaturatingMul(9, 2049638230412172800ull), kSaturated);
}
