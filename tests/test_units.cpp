#include <gtest/gtest.h>

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
