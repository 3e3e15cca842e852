// The noise statistic (issue 40): the median's distribution-free confidence interval from order
// statistics, on synthetic samples of known distributions, and its place in a result.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "errors.h"
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

namespace {

// A trial of lesson `id`: `n` samples of `ms` times (1 + 2% noise), the machine slowed by `drift`.
RunResult Trial(const std::string& id, double ms, double drift, int n, Uniform& u) {
    RunResult r;
    r.id = id;
    r.kind = StepKind::kCpu;
    r.verified = true;
    r.work.bytes_read = 1 << 20;
    for (int i = 0; i < n; ++i) r.samples_ms.push_back(ms * drift * (1 + 0.02 * u()));
    r.reps = n;
    r.median_ms = Median(r.samples_ms);
    r.min_ms = *std::min_element(r.samples_ms.begin(), r.samples_ms.end());
    r.max_ms = *std::max_element(r.samples_ms.begin(), r.samples_ms.end());
    SetMedianInterval(r);
    DeriveMetrics(r, nullptr);
    return r;
}

// Step A's median over step B's, with the interval the two medians' intervals give.
struct Ratio {
    double x, lo, hi;
};
Ratio SpeedUp(const RunResult& a, const RunResult& b) {
    return {a.median_ms / b.median_ms, a.median_lo_ms / b.median_hi_ms,
            a.median_hi_ms / b.median_lo_ms};
}

}  // namespace

// Trials pooled: every sample kept, the statistics over all of them, the rates from the pooled
// time, parts and other cores busy from the trials; a wrong trial is never pooled.
TEST(PoolTrials, KeepsEverySampleAndWorksTheStatisticsOutAgain) {
    Uniform u(7);
    std::vector<RunResult> trials = {Trial("a", 10, 1.0, 4, u), Trial("a", 10, 1.5, 2, u),
                                     Trial("a", 10, 1.0, 4, u)};
    trials[0].parts = {{"kernel", 2.0}};
    trials[1].parts = {{"kernel", 9.0}};
    trials[2].parts = {{"kernel", 3.0}};
    trials[0].other_cores_busy = 0.0;
    trials[1].other_cores_busy = 1.0;
    trials[2].other_cores_busy = 0.5;
    const RunResult p = PoolTrials(trials);
    EXPECT_EQ(p.trials, 3);
    EXPECT_EQ(p.reps, 10);
    ASSERT_EQ(p.samples_ms.size(), 10u);
    EXPECT_EQ(p.min_ms, std::min({trials[0].min_ms, trials[1].min_ms, trials[2].min_ms}));
    EXPECT_EQ(p.max_ms, trials[1].max_ms);
    EXPECT_DOUBLE_EQ(p.median_ms, Median(p.samples_ms));
    EXPECT_GT(p.median_level, 0.95);
    ASSERT_EQ(p.parts.size(), 1u);
    EXPECT_EQ(p.parts[0].ms, 3.0) << "the median of the trials' parts";
    EXPECT_DOUBLE_EQ(*p.other_cores_busy, (0 * 4 + 1.0 * 2 + 0.5 * 4) / 10.0);
    EXPECT_EQ(p.rate_ms, p.Part(p.work.rate_part).value_or(p.median_ms)) << "from the pooled";
    EXPECT_NEAR(p.gbps, double(1 << 20) / (p.rate_ms * 1e6), 1e-9);
    const RunResult back = RunResultFromJson(ToJson(p));
    EXPECT_EQ(back.trials, 3);
    EXPECT_EQ(RunResultFromJson(ToJson(trials[0])).trials, 1);

    std::vector<RunResult> with_wrong = trials;
    with_wrong[1].verified = false;
    with_wrong[1].check_message = "found 3, expected 4";
    const RunResult wrong = PoolTrials(with_wrong);
    EXPECT_FALSE(wrong.verified);
    EXPECT_EQ(wrong.reps, 2) << "the wrong trial as it is";
    EXPECT_THROW(PoolTrials({}), UsageError);
    EXPECT_THROW(PoolTrials({trials[0], Trial("b", 10, 1, 3, u)}), UsageError);
}

// Issue 40: on a machine whose speed drifts while it measures, A then B (one run each) compares
// A in one state of the machine with B in another, and the two narrow intervals exclude the
// true speed-up; a comparison made later, while the machine drifts the other way, disagrees
// with it. Timed in turn (A B, B A, A B) with each one's trials pooled, the drift falls on both
// alike, each interval spans the states the machine went through, and both comparisons hold
// the true speed-up and each other's.
TEST(PoolTrials, TimedInTurnTheDriftFallsOnBothAndTheIntervalHoldsIt) {
    Uniform u(11);
    const double a_ms = 40, b_ms = 30, truth = a_ms / b_ms;  // B is 1.33x faster
    // The machine slows by 10% a run over six runs' time, or speeds up as much.
    const std::vector<double> slowing = {1.0, 1.1, 1.2, 1.3, 1.4, 1.5};
    const std::vector<double> quickening = {1.5, 1.4, 1.3, 1.2, 1.1, 1.0};
    // One run each over the same time: A in the first half, B in the second.
    auto once = [&](const std::vector<double>& s) {
        return SpeedUp(Trial("a", a_ms, (s[0] + s[1] + s[2]) / 3, 12, u),
                       Trial("b", b_ms, (s[3] + s[4] + s[5]) / 3, 12, u));
    };
    const Ratio once_slowing = once(slowing), once_quickening = once(quickening);
    EXPECT_FALSE(once_slowing.lo <= truth && truth <= once_slowing.hi);
    EXPECT_FALSE(once_quickening.lo <= once_slowing.x && once_slowing.x <= once_quickening.hi)
        << "one run each: the two comparisons disagree";
    // In turn: A B, B A, A B, a run in each sixth of the time.
    auto in_turn = [&](const std::vector<double>& s) {
        std::vector<RunResult> a, b;
        for (int t = 0; t < 3; ++t) {
            const bool a_first = t % 2 == 0;
            a.push_back(Trial("a", a_ms, s[size_t(2 * t + (a_first ? 0 : 1))], 4, u));
            b.push_back(Trial("b", b_ms, s[size_t(2 * t + (a_first ? 1 : 0))], 4, u));
        }
        return SpeedUp(PoolTrials(a), PoolTrials(b));
    };
    const Ratio turn_slowing = in_turn(slowing), turn_quickening = in_turn(quickening);
    for (const Ratio& r : {turn_slowing, turn_quickening})
        EXPECT_TRUE(r.lo <= truth && truth <= r.hi) << r.x << " [" << r.lo << ", " << r.hi << "]";
    EXPECT_TRUE(turn_quickening.lo <= turn_slowing.x && turn_slowing.x <= turn_quickening.hi);
    EXPECT_TRUE(turn_slowing.lo <= turn_quickening.x && turn_quickening.x <= turn_slowing.hi);
}
