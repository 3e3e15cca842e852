// The noise statistic (issue 40): the median's distribution-free confidence interval from order
// statistics, on synthetic samples of known distributions, and its place in a result.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "report.h"
#include "result.h"

using namespace lessons;

namespace {

// Uniform in [0, 1) from a fixed generator (std's distributions differ between libraries).
class Uniform {
public:
    explicit Uniform(uint64_t seed) : m_engine(seed) {}
    double operator()() { return double(m_engine() >> 11) * 0x1.0p-53; }

private:
    std::mt19937_64 m_engine;
};

// P(B <= i), B ~ Binomial(n, 1/2), exactly for small n.
double BinomialCdf(int n, int i) {
    double c = 1, sum = 0;
    for (int j = 0; j <= i; ++j) {
        sum += c;
        c = c * (n - j) / (j + 1);
    }
    return sum / std::pow(2.0, n);
}

}  // namespace

TEST(MedianInterval, NoSamplesNoInterval) {
    const MedianInterval ci = MedianIntervalOf({});
    EXPECT_EQ(ci.level, 0);
    EXPECT_EQ(ci.k, 0);
}

// One sample says nothing of the spread: its interval is the sample, at level 0.
TEST(MedianInterval, OneSampleHasNoConfidence) {
    const MedianInterval ci = MedianIntervalOf({3.5});
    EXPECT_EQ(ci.lo, 3.5);
    EXPECT_EQ(ci.hi, 3.5);
    EXPECT_EQ(ci.level, 0);
    EXPECT_EQ(ci.k, 1);
}

// Below 6 samples no interval reaches 95%: [min, max] at its own level, 1 - 2^(1-n).
TEST(MedianInterval, FewSamplesAreTheirRangeAtItsOwnLevel) {
    MedianInterval ci = MedianIntervalOf({2, 1});
    EXPECT_EQ(ci.lo, 1);
    EXPECT_EQ(ci.hi, 2);
    EXPECT_DOUBLE_EQ(ci.level, 0.5);
    ci = MedianIntervalOf({5, 1, 3});
    EXPECT_EQ(ci.lo, 1);
    EXPECT_EQ(ci.hi, 5);
    EXPECT_DOUBLE_EQ(ci.level, 0.75);
    ci = MedianIntervalOf({5, 1, 3, 4, 2});
    EXPECT_EQ(ci.lo, 1);
    EXPECT_EQ(ci.hi, 5);
    EXPECT_DOUBLE_EQ(ci.level, 0.9375);
    // Six: the range is the first interval to reach 95%.
    ci = MedianIntervalOf({6, 5, 1, 3, 4, 2});
    EXPECT_EQ(ci.k, 1);
    EXPECT_DOUBLE_EQ(ci.level, 1 - 2.0 / 64);
}

// The orders of the published tables of the sign test's interval: n = 10: (2, 9); n = 20:
// (6, 15); n = 100: (40, 61); each the tightest at 95%, and its level exact.
TEST(MedianInterval, OrdersMatchTheBinomialTables) {
    struct Case {
        int n, k;
    };
    for (const Case c : {Case{6, 1}, Case{8, 1}, Case{9, 2}, Case{10, 2}, Case{20, 6}, Case{30, 10},
                         Case{100, 40}}) {
        double level = 0;
        EXPECT_EQ(MedianIntervalOrder(c.n, 0.95, &level), c.k) << "n = " << c.n;
        EXPECT_NEAR(level, 1 - 2 * BinomialCdf(c.n, c.k - 1), 1e-12) << "n = " << c.n;
        EXPECT_GE(level, 0.95) << "n = " << c.n;
        // One order tighter falls short of 95%.
        EXPECT_LT(1 - 2 * BinomialCdf(c.n, c.k), 0.95) << "n = " << c.n;
    }
    std::vector<double> samples;
    for (int i = 20; i >= 1; --i) samples.push_back(i);  // unsorted on purpose
    const MedianInterval ci = MedianIntervalOf(samples);
    EXPECT_EQ(ci.lo, 6);
    EXPECT_EQ(ci.hi, 15);
}

// Every count from 6 to 100000 reaches the confidence, the order never falls as n grows, and
// far out the level is near 95%, not far above it (the interval is as tight as it can be).
TEST(MedianInterval, EveryCountReachesTheConfidence) {
    int last_k = 0;
    for (int n = 6; n <= 3000; ++n) {
        double level = 0;
        const int k = MedianIntervalOrder(n, 0.95, &level);
        ASSERT_GE(level, 0.95) << "n = " << n;
        ASSERT_GE(k, last_k) << "n = " << n;
        ASSERT_LE(2 * k, n + 1) << "n = " << n;
        last_k = k;
    }
    double level = 0;
    const int k = MedianIntervalOrder(kMaxRequestedReps, 0.95, &level);
    EXPECT_GE(level, 0.95);
    EXPECT_LT(level, 0.951);
    // The normal approximation: k = n/2 - 1.96 sqrt(n)/2.
    EXPECT_NEAR(k, kMaxRequestedReps / 2.0 - 0.98 * std::sqrt(double(kMaxRequestedReps)), 3);
}

// Ties: equal samples give an interval of no width at full level, and ties at its ends keep it.
TEST(MedianInterval, Ties) {
    MedianInterval ci = MedianIntervalOf(std::vector<double>(10, 2.5));
    EXPECT_EQ(ci.lo, 2.5);
    EXPECT_EQ(ci.hi, 2.5);
    EXPECT_GE(ci.level, 0.95);
    ci = MedianIntervalOf({1, 1, 1, 1, 1, 2, 2, 2, 2, 2});
    EXPECT_EQ(ci.lo, 1);
    EXPECT_EQ(ci.hi, 2);
    ci = MedianIntervalOf({3, 3});
    EXPECT_EQ(ci.lo, 3);
    EXPECT_EQ(ci.hi, 3);
    EXPECT_DOUBLE_EQ(ci.level, 0.5);
}

// Known distributions: over many trials the interval holds the true median at least as often
// as its level says (exponential, median ln 2; uniform, median 1/2; a two-point mixture like a
// timer's slow outliers). Fixed seeds: the same numbers every run.
TEST(MedianInterval, CoversTheTrueMedianOfKnownDistributions) {
    constexpr int kTrials = 4000;
    struct Distribution {
        const char* name;
        double median;
        double (*draw)(Uniform&);
    };
    const Distribution distributions[] = {
        {"exponential", std::log(2.0), [](Uniform& u) { return -std::log(1 - u()); }},
        {"uniform", 0.5, [](Uniform& u) { return u(); }},
        // 70% of samples in U(1, 2), 30% ten times slower (a timer's outliers): the median is
        // where 0.7 (m - 1) = 0.5.
        {"outliers", 1 + 0.5 / 0.7,
         [](Uniform& u) {
             const double x = 1 + u();
             return u() < 0.3 ? 10 * x + 10 : x;
         }},
    };
    for (const Distribution& d : distributions) {
        for (int n : {3, 6, 7, 20, 101}) {
            Uniform u(1234 + n);
            int covered = 0;
            double level = 0;
            for (int t = 0; t < kTrials; ++t) {
                std::vector<double> s(static_cast<size_t>(n));
                for (double& x : s) x = d.draw(u);
                const MedianInterval ci = MedianIntervalOf(s);
                level = ci.level;
                covered += ci.lo <= d.median && d.median <= ci.hi;
            }
            // The level is exact for a continuous distribution: within 4 standard errors.
            const double rate = double(covered) / kTrials;
            const double se = std::sqrt(level * (1 - level) / kTrials);
            EXPECT_NEAR(rate, level, 4 * se + 1e-9) << d.name << ", n = " << n;
            if (n >= 6) {
                EXPECT_GE(rate, 0.95 - 4 * se) << d.name << ", n = " << n;
            }
        }
    }
}

// More repetitions narrow the interval (about as 1/sqrt(n)), while the min-max spread widens:
// "re-run at more repetitions" can settle a question only with the interval.
TEST(MedianInterval, TightensWithRepetitionsWhereTheRangeWidens) {
    Uniform u(42);
    double last_width = 1e9, last_range = 0;
    for (int n : {25, 100, 400, 1600}) {
        double width = 0, range = 0;
        constexpr int kTrials = 50;
        for (int t = 0; t < kTrials; ++t) {
            std::vector<double> s(static_cast<size_t>(n));
            for (double& x : s) x = -std::log(1 - u());
            const MedianInterval ci = MedianIntervalOf(s);
            width += (ci.hi - ci.lo) / kTrials;
            range +=
                (*std::max_element(s.begin(), s.end()) - *std::min_element(s.begin(), s.end())) /
                kTrials;
        }
        EXPECT_LT(width, 0.7 * last_width) << "n = " << n;
        EXPECT_GT(range, last_range) << "n = " << n;
        last_width = width;
        last_range = range;
    }
}

// A longer automatic run of a fast step may take more samples than the default's cap, so that
// "re-run at more repetitions" means more repetitions for every step.
TEST(MedianInterval, LongerRunsMayTakeMoreSamples) {
    EXPECT_EQ(MaxAutomaticReps(RunOptions{}.min_time_s), kMaxReps);
    EXPECT_EQ(MaxAutomaticReps(0.2), kMaxReps);
    EXPECT_EQ(MaxAutomaticReps(0), kMaxReps);
    EXPECT_EQ(MaxAutomaticReps(2.0), 8 * kMaxReps);
    EXPECT_EQ(MaxAutomaticReps(60), 10 * kMaxReps);
}

// A result carries its interval in JSON and CSV, and a result recorded before it was carried
// gets it from its samples when read.
TEST(MedianInterval, InTheResultFields) {
    RunResult r;
    r.id = "split/naive-scan";
    r.label = "1.1";
    r.samples_ms = {5, 4, 3, 2, 1, 6, 7, 8, 9, 10};
    r.median_ms = Median(r.samples_ms);
    SetMedianInterval(r);
    EXPECT_EQ(r.median_lo_ms, 2);
    EXPECT_EQ(r.median_hi_ms, 9);
    EXPECT_NEAR(r.median_level, 1 - 2 * BinomialCdf(10, 1), 1e-12);
    Json j = ToJson(r);
    EXPECT_EQ(j["median_lo_ms"], 2.0);
    EXPECT_EQ(j["median_hi_ms"], 9.0);
    const RunResult back = RunResultFromJson(j);
    EXPECT_EQ(back.median_lo_ms, 2);
    EXPECT_EQ(back.median_level, r.median_level);
    const std::string header = CsvHeader({});
    for (const char* column : {"median_lo_ms", "median_hi_ms", "median_level"})
        EXPECT_NE(header.find(column), std::string::npos) << column;
    EXPECT_EQ(header.find("median_ci"), std::string::npos) << "the tables' column only";
    EXPECT_NE(CsvRow(r, {}).find(",2.000000,9.000000,0.9785,"), std::string::npos) << CsvRow(r, {});
    EXPECT_EQ(MedianIntervalText(r), "2.000-9.000 (97.8%)");
    // Recorded before: no interval fields, but its samples.
    for (const char* key : {"median_lo_ms", "median_hi_ms", "median_level"}) j.erase(key);
    const RunResult old = RunResultFromJson(j);
    EXPECT_EQ(old.median_lo_ms, 2);
    EXPECT_EQ(old.median_hi_ms, 9);
    EXPECT_GT(old.median_level, 0.95);
    // Neither: no interval, and its noise is its min-max spread.
    RunResult bare;
    bare.median_ms = 5;
    bare.min_ms = 4;
    bare.max_ms = 7;
    EXPECT_EQ(MedianIntervalText(bare), "-");
    EXPECT_EQ(NoiseInterval(bare).lo, 4);
    EXPECT_EQ(NoiseInterval(bare).hi, 7);
    EXPECT_EQ(NoiseInterval(r).lo, 2);
    EXPECT_EQ(NoiseInterval(r).hi, 9);
}

// Microseconds keep four significant digits.
TEST(MedianInterval, TextOfASmallTime) {
    RunResult r;
    r.median_lo_ms = 0.01231;
    r.median_hi_ms = 0.01249;
    r.median_level = 0.9586;
    EXPECT_EQ(MedianIntervalText(r), "0.01231-0.01249 (95.8%)");
}
