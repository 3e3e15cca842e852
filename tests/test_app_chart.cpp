// The chart widget (charts/chart.h) without a page: where an annotation goes, axis ticks and
// their labels.
#include <gtest/gtest.h>

#include <cmath>

#include "charts/chart.h"

using namespace lessons;
using namespace lessons::app;

TEST(AppChart, AnAnnotationThatWouldCoverAnotherBarGoesOnTheBandAbove) {
    // Three bars 40 px wide: the first tall, the third short; a 100 px label of the third.
    const std::vector<ImVec4> bars = {ImVec4(0, 20, 40, 200), ImVec4(60, 150, 100, 200),
                                      ImVec4(120, 180, 160, 200)};
    const ImVec2 free = chart::PlaceAnnotation(bars, 2, 30, 10, 0, 200, 5);
    EXPECT_FLOAT_EQ(free.x, 125) << "centred above its own bar";
    EXPECT_LT(free.y + 10, 180.0f);
    EXPECT_GT(free.y, 150.0f) << "close to the bar when nothing is in the way";
    const ImVec2 covered = chart::PlaceAnnotation(bars, 2, 100, 10, 0, 200, 5);
    EXPECT_FLOAT_EQ(covered.y, 5) << "it would cover the second bar";
    const ImVec2 right = chart::PlaceAnnotation(bars, 2, 100, 10, 0, 170, 5);
    EXPECT_FLOAT_EQ(right.x, 70) << "kept inside the right edge";
}

// The unit over the axis never reaches past the chart's left edge (presenter mode at 1280x720,
// scale 2, beside the code: "s (median, confidence interval)", its "m" cut): it breaks before
// its parenthesis, and a line still too wide is shortened with "…".
TEST(AppChart, TheUnitFitsItsRoomInTwoLinesOrShortened) {
    const auto width = [](const std::string& t) {  // 10 px a character (UTF-8 aware)
        float n = 0;
        for (unsigned char ch : t) n += (ch & 0xC0) != 0x80 ? 10.0f : 0.0f;
        return n;
    };
    const std::string ms = "ms (median, confidence interval)";  // 32 characters
    EXPECT_EQ(chart::UnitLines(ms, 400, 2, width), (std::vector<std::string>{ms}));
    EXPECT_EQ(chart::UnitLines(ms, 300, 2, width),
              (std::vector<std::string>{"ms", "(median, confidence interval)"}));
    const std::vector<std::string> narrow = chart::UnitLines(ms, 150, 2, width);
    ASSERT_EQ(narrow.size(), 2u);
    EXPECT_EQ(narrow[0], "ms");
    EXPECT_EQ(narrow[1], "(median, confi\xE2\x80\xA6");  // 14 characters and the dots
    const std::string zh =
        "ms\xEF\xBC\x88\xE4\xB8\xAD\xE4\xBD\x8D\xE6\x95\xB0\xEF\xBC\x89";  // ms（中位数）
    EXPECT_EQ(chart::UnitLines(zh, 50, 2, width),
              (std::vector<std::string>{
                  "ms", "\xEF\xBC\x88\xE4\xB8\xAD\xE4\xBD\x8D\xE6\x95\xB0\xEF\xBC\x89"}));
    for (float room : {400.0f, 300.0f, 150.0f, 60.0f, 20.0f})
        for (int lines : {1, 2})
            for (const std::string& line : chart::UnitLines(ms, room, lines, width))
                EXPECT_LE(width(line), room) << room << " " << line;
}

TEST(AppChart, TicksAndLabels) {
    EXPECT_EQ(chart::Ticks(0, 10, false, 6), (std::vector<double>{0, 2, 4, 6, 8, 10}));
    EXPECT_EQ(chart::Ticks(1, 1000, true, 6), (std::vector<double>{1, 10, 100, 1000}));
    EXPECT_EQ(chart::AxisTicks(20, 1500, true, 8, {}), chart::Ticks(20, 1500, true, 8));
    EXPECT_EQ(chart::AxisTicks(20, 1500, true, 8, {1024, 32, 64, 64, 2048, 128}),
              (std::vector<double>{32, 64, 128, 1024}))
        << "the values given, inside the range, sorted, once each";
    EXPECT_EQ(chart::AxisTicks(0, 10, false, 8, {0, 3, 7}), (std::vector<double>{0, 3, 7}));
    EXPECT_EQ(chart::FormatTick(1500000), "1.5M");
    EXPECT_EQ(chart::FormatTick(0.25), "0.25");
    EXPECT_EQ(chart::FormatBytesTick(1024.0 * 1024 * 64), "64 MiB");
}

// Byte axes tick at powers of two with labels that read naturally: "1 KiB", "32 KiB", "1 MiB",
// never "1e+03 B" or "9.77 KiB".
TEST(AppChart, ByteAxesTickAtPowersOfTwoWithNaturalLabels) {
    EXPECT_EQ(chart::BytesTicks(1024, 64 << 20, 8),
              (std::vector<double>{1 << 10, 1 << 15, 1 << 20, 1 << 25}))
        << "17 powers of two: every 5th, aligned on KiB, MiB";
    EXPECT_EQ(chart::BytesTicks(1024, 16384, 8),
              (std::vector<double>{1024, 2048, 4096, 8192, 16384}));
    EXPECT_EQ(chart::BytesTicks(700, 5000, 8), (std::vector<double>{1024, 2048, 4096}))
        << "only powers of two inside the range";
    EXPECT_TRUE(chart::BytesTicks(0, 100, 8).empty());
    for (double t : chart::BytesTicks(1, double(uint64_t(1) << 40), 6)) {
        EXPECT_EQ(std::log2(t), std::floor(std::log2(t))) << t;
        EXPECT_EQ(chart::FormatBytesTick(t).find('.'), std::string::npos)
            << chart::FormatBytesTick(t);
    }
    EXPECT_EQ(chart::FormatBytesTick(1024), "1 KiB");
    EXPECT_EQ(chart::FormatBytesTick(1000), "1000 B") << "never 1e+03 B";
    EXPECT_EQ(chart::FormatBytesTick(32768), "32 KiB");
    EXPECT_EQ(chart::FormatBytesTick(1536), "1.5 KiB");
    EXPECT_EQ(chart::FormatBytesTick(double(uint64_t(1) << 30)), "1 GiB");
}

// The best point of a sweep is the highest rate, wherever it lies.
TEST(AppChart, BestIsTheHighestRate) {
    EXPECT_EQ(chart::BestRateIndex({0.07, 1.2, 3.1, 2.9}), 2) << "not the first (smallest size)";
    EXPECT_EQ(chart::BestRateIndex({5, 1, 1}), 0);
    EXPECT_EQ(chart::BestRateIndex({0, -1, 0.5}), 2) << "no rate is never best";
    EXPECT_EQ(chart::BestRateIndex({0, 0}), -1);
    EXPECT_EQ(chart::BestRateIndex({}), -1);
}

// A chart takes a log axis when its values span more than 20x.
TEST(AppChart, LogScaleWhenValuesSpanMoreThanTwentyTimes) {
    EXPECT_FALSE(chart::SpansLogRange({1, 20}));
    EXPECT_TRUE(chart::SpansLogRange({1, 20.01}));
    EXPECT_TRUE(chart::SpansLogRange({270, 0.27, 3}));  // chapter 5's 1000x
    EXPECT_FALSE(chart::SpansLogRange({0, 5, 90}))
        << "zeros (no result) are ignored: 5 to 90 is 18x";
    EXPECT_FALSE(chart::SpansLogRange({}));
    EXPECT_FALSE(chart::SpansLogRange({3}));
}

// The student's click on Log is remembered per chapter; other chapters keep their own rule.
TEST(AppChart, ExplicitLogChoiceIsRememberedPerChapter) {
    chart::LogChoice c;
    const std::vector<double> wide = {0.3, 270}, narrow = {1, 2};
    bool box = false;
    box = c.Resolve("gemm", box, wide);
    EXPECT_TRUE(box) << "automatic: 900x";
    box = c.Resolve("gemm", box, wide);
    EXPECT_TRUE(box) << "the same frame again: no click";
    box = c.Resolve("gemm", false, wide);  // the student unticks it
    EXPECT_FALSE(box);
    EXPECT_EQ(c.Chosen("gemm"), std::optional<bool>(false));
    box = c.Resolve("split", box, narrow);
    EXPECT_FALSE(box) << "another chapter: its own rule";
    box = c.Resolve("split", box, wide);
    EXPECT_TRUE(box) << "its own rule follows its values";
    EXPECT_FALSE(c.Chosen("split"));
    box = c.Resolve("gemm", box, wide);
    EXPECT_FALSE(box) << "back in chapter 5: the student's choice, not the rule";
    box = c.Resolve("gemm", true, wide);
    EXPECT_TRUE(box);
    EXPECT_EQ(c.Chosen("gemm"), std::optional<bool>(true));
}

namespace lessons::app {
// The automatic scale has a margin: a chart that went log stays log until its values span less
// than 10x (review 2026-11-28, 19: the axis flipped between runs of one page).
TEST(ChartLogChoice, AnAutomaticLogAxisDoesNotFlipBackAtTheEdge) {
    chart::LogChoice c;
    EXPECT_FALSE(c.Resolve("split", false, {1, 15}));
    EXPECT_TRUE(c.Resolve("split", false, {1, 25}));
    EXPECT_TRUE(c.Resolve("split", true, {1, 15})) << "15x after 25x: still log";
    EXPECT_FALSE(c.Resolve("split", true, {1, 8})) << "below 10x: linear again";
    EXPECT_FALSE(c.Resolve("split", false, {1, 15})) << "and 15x from linear stays linear";
}
}  // namespace lessons::app
