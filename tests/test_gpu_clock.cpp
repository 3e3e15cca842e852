// The SM clock a GPU step was timed at (engine/gpu_clock.h): the summary of the readings, the
// reasons' ids, the page's note, the JSON round trip, and on a GPU a real step's reading.
// Without a GPU the last test reports SKIPPED with the reason.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "catalog.h"
#include "device.h"
#include "gpu_clock.h"
#include "gpu_test.h"
#include "page.h"
#include "report.h"
#include "session.h"

using namespace lessons;

TEST(GpuClock, TheMedianOfTheReadingsTheHighestClockAndEveryReasonButIdle) {
    EXPECT_FALSE(SummarizeClock({}).has_value());
    const std::vector<GpuClockReading> readings = {{1980, 1980, kClockIdle},
                                                   {1770, 1980, kClockPowerCap},
                                                   {1785, 1980, kClockPowerCap},
                                                   {1755, 0, kClockPowerCap | kClockSwThermal}};
    const auto c = SummarizeClock(readings);
    ASSERT_TRUE(c.has_value());
    EXPECT_DOUBLE_EQ(c->sm_mhz, (1770.0 + 1785.0) / 2);
    EXPECT_DOUBLE_EQ(c->max_sm_mhz, 1980);
    EXPECT_EQ(c->reasons, kClockPowerCap | kClockSwThermal);
    const auto odd = SummarizeClock({{1500, 0, 0}, {1600, 0, 0}, {1400, 0, 0}});
    ASSERT_TRUE(odd.has_value());
    EXPECT_DOUBLE_EQ(odd->sm_mhz, 1500);
    EXPECT_DOUBLE_EQ(odd->max_sm_mhz, 0);
}

TEST(GpuClock, ReasonsAreNamedByIdInOneOrderAndIdleIsNone) {
    EXPECT_TRUE(ClockReasonIds(0).empty());
    EXPECT_TRUE(ClockReasonIds(kClockIdle).empty());
    EXPECT_EQ(ClockReasonIds(kClockHwThermal | kClockPowerCap),
              (std::vector<std::string>{"power-cap", "thermal"}));
    EXPECT_EQ(ClockReasonIds(kClockSwThermal | kClockHwThermal),
              (std::vector<std::string>{"thermal"}));
    EXPECT_EQ(ClockReasonIds(kClockHwSlowdown | kClockHwPowerBrake | kClockApplicationSetting |
                             kClockSyncBoost | kClockDisplaySetting),
              (std::vector<std::string>{"hardware-slowdown", "power-brake", "application-clocks",
                                        "sync-boost", "display"}));
}

TEST(GpuClock, NoDeviceOrANonsenseBusIdReadsNothing) {
    EXPECT_FALSE(ReadGpuClock("").has_value());
    EXPECT_FALSE(ReadGpuClock(std::string(100, 'f')).has_value());
    EXPECT_FALSE(ReadGpuClock("not a bus id").has_value());
}

TEST(GpuClock, ThePageSaysAClockBelowTheHighestAndWhatHeldIt) {
    RunResult r;
    r.kind = StepKind::kGpu;
    EXPECT_EQ(ClockNote(r, TextLanguage::kEnglish), "");
    r.sm_clock_mhz = 1770;
    r.sm_clock_max_mhz = 1980;
    r.clock_limits = {"power-cap", "unknown-id"};
    EXPECT_EQ(ClockNote(r, TextLanguage::kEnglish),
              "timed at 1770 of 1980 MHz, held by the power cap");
    EXPECT_EQ(ClockNote(r, TextLanguage::kChinese),
              "计时时 SM 时钟 1770 MHz（最高 1980 MHz，受功耗上限限制）");
    r.clock_limits.clear();
    EXPECT_EQ(ClockNote(r, TextLanguage::kEnglish), "timed at 1770 of 1980 MHz");
    // Within 3% of the highest: nothing to say; a CPU step never.
    r.sm_clock_mhz = 1935;
    EXPECT_EQ(ClockNote(r, TextLanguage::kEnglish), "");
    r.sm_clock_mhz = 1000;
    r.kind = StepKind::kCpu;
    EXPECT_EQ(ClockNote(r, TextLanguage::kEnglish), "");
}

TEST(GpuClock, TheFieldsGoThroughJsonAndHostileValuesAreDropped) {
    RunResult r;
    r.label = "8.7";
    r.id = "tensor-cores/cublas-bf16";
    r.kind = StepKind::kGpu;
    r.median_ms = 0.19;
    r.sm_clock_mhz = 1770;
    r.sm_clock_max_mhz = 1980;
    r.clock_limits = {"power-cap"};
    Json j = ToJson(r);
    EXPECT_EQ(j["sm_clock_mhz"], 1770);
    EXPECT_EQ(j["clock_limits"], Json::array({"power-cap"}));
    const RunResult back = RunResultFromJson(j);
    EXPECT_EQ(back.sm_clock_mhz, r.sm_clock_mhz);
    EXPECT_EQ(back.sm_clock_max_mhz, r.sm_clock_max_mhz);
    EXPECT_EQ(back.clock_limits, r.clock_limits);
    // Recorded before the clock was kept: none.
    j.erase("sm_clock_mhz");
    j.erase("sm_clock_max_mhz");
    j.erase("clock_limits");
    const RunResult old = RunResultFromJson(j);
    EXPECT_FALSE(old.sm_clock_mhz.has_value());
    EXPECT_TRUE(old.clock_limits.empty());
    // Not an array, non-strings, long strings and too many ids are not kept.
    j["clock_limits"] = "power-cap";
    EXPECT_TRUE(RunResultFromJson(j).clock_limits.empty());
    j["clock_limits"] = Json::array({1, std::string(100, 'x'), "thermal"});
    EXPECT_EQ(RunResultFromJson(j).clock_limits, std::vector<std::string>{"thermal"});
    j["clock_limits"] = Json::array();
    for (int i = 0; i < 20; ++i) j["clock_limits"].push_back("power-cap");
    EXPECT_EQ(RunResultFromJson(j).clock_limits.size(), 8u);
}

TEST(GpuClock, AGpuStepSaysTheClockItWasTimedAt) {
    REQUIRE_GPU();
    const Lesson* lesson = RunnableCatalog().FindLesson("reduce/v4-warp-shuffle");
    ASSERT_NE(lesson, nullptr);
    Session session(RunnableCatalog());
    RunOptions o;
    o.reps = 20;
    o.measure_ceilings = false;
    const RunResult r = session.Run(*lesson, o);
    ASSERT_TRUE(r.verified) << r.check_message;
    if (!ReadGpuClock(GetDevices().devices.front().pci_bus_id))
        GTEST_SKIP() << "NVML (libnvidia-ml.so.1) cannot read this GPU's clock";
    ASSERT_TRUE(r.sm_clock_mhz.has_value());
    ASSERT_TRUE(r.sm_clock_max_mhz.has_value());
    EXPECT_GT(*r.sm_clock_mhz, 100);
    EXPECT_LE(*r.sm_clock_mhz, *r.sm_clock_max_mhz);
}
