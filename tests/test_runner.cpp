// The runner: every CPU lesson through Session::Run, validation, wrong answers, cancel.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "catalog.h"
#include "device.h"
#include "errors.h"
#include "runner.h"

using namespace lessons;

namespace {

RunOptions Quick(uint64_t size, DataKind data = DataKind::kRandom) {
    RunOptions o;
    o.size_bytes = size;
    o.data = data;
    o.reps = 1;
    return o;
}

std::string TempPath(const std::string& name) {
    return ::testing::TempDir() + "/" + name + "_" + std::to_string(getpid());
}

}  // namespace

TEST(Runner, EveryCpuLessonVerifiesAtEdgeSizes) {
    Session session(Catalog());
    // Element counts (bytes for split lines, floats for reduction).
    const uint64_t counts[] = {0, 1, 2, 3, 31, 32, 33, 255, 257, 1023, 1025, 65521, 65537, 1000003};
    for (const Lesson& lesson : Catalog().lessons()) {
        if (lesson.kind != StepKind::kCpu) continue;
        const Chapter& chapter = Catalog().ChapterOf(lesson);
        for (DataKind kind : chapter.data_kinds) {
            for (uint64_t count : counts) {
                const uint64_t n = count * chapter.element_bytes;
                for (int threads : {1, 2, 3, 8}) {
                    if (!lesson.uses_threads && threads != 1) continue;
                    RunOptions o = Quick(n, kind);
                    o.seed = n * 3 + 1;
                    if (lesson.uses_threads) o.threads = threads;
                    const RunResult r = session.Run(lesson, o);
                    ASSERT_TRUE(r.verified) << lesson.id << " " << ToString(kind) << " n=" << n
                                            << " threads=" << threads << ": " << r.check_message;
                    EXPECT_EQ(r.size_bytes, n);
                    EXPECT_EQ(r.reps, 1);
                    EXPECT_EQ(r.threads.has_value(), lesson.uses_threads);
                    EXPECT_FALSE(r.block.has_value()) << "CPU steps have no block size";
                    EXPECT_FALSE(r.kernel_ms.has_value());
                }
            }
        }
    }
}

TEST(Runner, ReportsTimingStatistics) {
    Session session(Catalog());
    RunOptions o = Quick(1 << 20);
    o.reps = 7;
    int calls = 0;
    RunControl control;
    control.progress = [&](int done, int total) {
        ++calls;
        EXPECT_LE(done, total);
    };
    const RunResult r = session.Run(*Catalog().FindLesson("1"), o, control);
    EXPECT_EQ(r.reps, 7);
    EXPECT_EQ(r.samples_ms.size(), 7u);
    EXPECT_EQ(calls, 7);
    EXPECT_LE(r.min_ms, r.median_ms);
    EXPECT_LE(r.median_ms, r.max_ms);
    EXPECT_GT(r.min_ms, 0);
    EXPECT_EQ(r.bytes_moved, (1u << 20) + 8 * *r.found);
    EXPECT_NEAR(r.gbps, double(r.bytes_moved) / (r.median_ms * 1e6), 1e-9);
    EXPECT_FALSE(r.pct_of_ceiling.has_value()) << "CPU steps have no GPU ceiling";
}

TEST(Runner, AutomaticRepetitionsAreBounded) {
    Session session(Catalog());
    RunOptions o;
    o.size_bytes = 4096;
    o.min_time_s = 0.02;
    const RunResult r = session.Run(*Catalog().FindLesson("2"), o);
    EXPECT_GE(r.reps, kMinReps);
    EXPECT_LE(r.reps, kMaxReps);
}

TEST(Runner, InputFileAndOffsetsOut) {
    const std::string input = TempPath("input.txt");
    const std::string output = TempPath("offsets.txt");
    {
        std::ofstream f(input, std::ios::binary);
        f << "first line\r\nsecond\r\n\r\nlast, no break\r";
    }
    Session session(Catalog());
    RunOptions o = Quick(0);
    o.size_bytes.reset();
    o.input_file = input;
    o.output_file = output;
    const RunResult r = session.Run(*Catalog().FindLesson("3"), o);
    EXPECT_TRUE(r.verified);
    EXPECT_EQ(r.data, "file");
    EXPECT_EQ(r.size_bytes, 37u);
    EXPECT_EQ(*r.found, 3u);
    std::ifstream in(output);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "12\n20\n22\n");
    std::remove(input.c_str());
    std::remove(output.c_str());
}

TEST(Runner, MissingInputFileIsAUsageError) {
    Session session(Catalog());
    RunOptions o = Quick(0);
    o.input_file = "/nonexistent/file.txt";
    EXPECT_THROW(session.Run(*Catalog().FindLesson("1"), o), UsageError);
}

TEST(Runner, TooLargeForHostMemoryIsAClearUsageError) {
    Session session(Catalog());
    try {
        session.Run(*Catalog().FindLesson("1"), Quick(uint64_t(1) << 44));  // 16 TiB
        FAIL() << "expected a UsageError";
    } catch (const UsageError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("host memory"), std::string::npos) << msg;
        EXPECT_NE(msg.find("available"), std::string::npos) << msg;
    }
    // The session is still usable afterwards.
    EXPECT_TRUE(session.Run(*Catalog().FindLesson("1"), Quick(100)).verified);
}

TEST(Runner, DataKindAndElementSizeAreCheckedPerChapter) {
    Session session(Catalog());
    try {
        session.Run(*Catalog().FindLesson("1"), Quick(100, DataKind::kOnes));
        FAIL() << "split lines has no 'ones' data";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("use random, dense, none"), std::string::npos)
            << e.what();
    }
    try {
        session.Run(*Catalog().FindLesson("19"), Quick(1001));
        FAIL() << "1001 bytes is not a whole number of floats";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("4-byte elements"), std::string::npos) << e.what();
    }
    EXPECT_THROW(session.Run(*Catalog().FindLesson("19"), Quick(100, DataKind::kDense)),
                 UsageError);
}

TEST(Runner, ReductionReportsItsValueAndTheReference) {
    Session session(Catalog());
    RunOptions o = Quick(4 * 1000003, DataKind::kOnes);
    o.threads = 3;
    const RunResult r = session.Run(*Catalog().FindLesson("19"), o);
    ASSERT_TRUE(r.verified) << r.check_message;
    EXPECT_EQ(*r.value, 1000003.0);
    EXPECT_EQ(*r.expected, 1000003.0);
    EXPECT_EQ(r.bytes_moved, 4u * 1000003);
    EXPECT_FALSE(r.found.has_value());
}

TEST(Runner, ThreadCountOutOfRange) {
    const Lesson& openmp = *Catalog().FindLesson("3");
    RunOptions o = Quick(100);
    o.threads = 0;
    EXPECT_THROW(ResolveConfig(openmp, o), UsageError);
    o.threads = 5000;
    EXPECT_THROW(ResolveConfig(openmp, o), UsageError);
    o.threads = 5;
    EXPECT_EQ(ResolveConfig(openmp, o).threads, 5);
}

TEST(Runner, BlockSizeValidationNamesTheRange) {
    const Lesson& gpu = *Catalog().FindLesson("4");
    RunOptions o = Quick(100);
    for (int bad : {0, 16, 100, 2048}) {
        o.block = bad;
        try {
            ResolveConfig(gpu, o);
            FAIL() << "block " << bad << " was accepted";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("multiple of 32 from 32 to 1024"),
                      std::string::npos)
                << e.what();
        }
    }
    o.block = 96;
    EXPECT_EQ(ResolveConfig(gpu, o).block, 96);
    o.block.reset();
    EXPECT_EQ(ResolveConfig(gpu, o).block, 256) << "the lesson's default";
}

TEST(Runner, GpuLessonWithoutGpuIsUnavailable) {
    if (GetDeviceInfo().available()) GTEST_SKIP() << "a GPU is present; test_gpu covers it";
    Session session(Catalog());
    const Lesson& gpu = *Catalog().FindLesson("4");
    EXPECT_FALSE(session.Unavailable(gpu).empty());
    EXPECT_THROW(session.Run(gpu, Quick(100)), UnavailableError);
}

TEST(Runner, CancelStopsARun) {
    Session session(Catalog());
    std::atomic<bool> cancel{true};
    RunControl control;
    control.cancel = &cancel;
    EXPECT_THROW(session.Run(*Catalog().FindLesson("1"), Quick(1000), control), Cancelled);
}

namespace {

// A chapter whose only step drops the last break: the runner must report it as wrong.
class TinyWorkload : public Workload {
public:
    uint64_t SizeBytes() const override { return 4; }
    std::string Describe() const override { return "tiny"; }
};

class BrokenStep : public StepInstance {
public:
    Sample Run() override {
        ++runs;
        return Sample{1.0, {}, {}, {}};
    }
    Check Verify() const override {
        Check c;
        c.message = "found 1 line break, expected 2";
        c.found = 1;
        return c;
    }
    uint64_t BytesMoved() const override { return 4; }
    int runs = 0;
};

}  // namespace

TEST(Runner, WrongAnswerIsAResultNotAnException) {
    Registry r;
    Chapter c;
    c.number = 1;
    c.id = "t";
    c.title = "test";
    c.make_workload = [](const WorkloadSpec&) { return std::make_shared<TinyWorkload>(); };
    c.workload_host_bytes = [](uint64_t n) { return n; };
    c.data_kinds = {DataKind::kRandom};
    r.AddChapter(c);
    Lesson l;
    l.number = 1;
    l.id = "t/01-broken";
    l.chapter = "t";
    l.needs = [](uint64_t) { return MemoryNeeds{}; };
    l.make = [](const Workload&, const StepConfig&) { return std::make_unique<BrokenStep>(); };
    r.AddLesson(l);
    Session session(r);
    RunOptions o;
    o.size_bytes = 4;
    o.reps = 10;
    const RunResult res = session.Run(*r.FindLesson("1"), o);
    EXPECT_FALSE(res.verified);
    EXPECT_EQ(res.check_message, "found 1 line break, expected 2");
    EXPECT_EQ(res.reps, 1) << "a wrong step is not timed further";
}

TEST(Sweep, PlansBlocksAndSizes) {
    const Lesson& gpu = *Catalog().FindLesson("4");
    RunOptions base = Quick(1000);
    auto points = PlanSweep(gpu, base, SweepAxis::kBlock, {32, 48, 64, 2048});
    ASSERT_EQ(points.size(), 4u);
    EXPECT_TRUE(points[0].skip_reason.empty());
    EXPECT_FALSE(points[1].skip_reason.empty()) << "48 is not a multiple of 32";
    EXPECT_EQ(*points[2].options.block, 64);
    EXPECT_FALSE(points[3].skip_reason.empty());
    EXPECT_THROW(PlanSweep(*Catalog().FindLesson("1"), base, SweepAxis::kBlock, {32}), UsageError);
    points = PlanSweep(*Catalog().FindLesson("1"), base, SweepAxis::kSize, {0, 1024});
    EXPECT_EQ(*points[0].options.size_bytes, 0u);
    EXPECT_EQ(*points[1].options.size_bytes, 1024u);
}
