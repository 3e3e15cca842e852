// The chart widget (charts/chart.h) without a page: where an annotation goes, axis ticks and
// their labels.
#include <gtest/gtest.h>

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
