// The runner: every CPU lesson through Session::Run, validation, wrong answers, cancel.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "catalog.h"
#include "device.h"
#include "errors.h"
#include "host.h"
#include "report.h"
#include "session.h"

using namespace lessons;

namespace {

RunOptions Quick(uint64_t size, const std::string& data = "random") {
    RunOptions o;
    o.Set("size", std::to_string(size));
    o.Set("data", data);
    o.reps = 1;
    return o;
}

uint64_t ElementBytes(const Lesson& lesson) {
    return lesson.FindParam("size")->step;
}

std::string TempPath(const std::string& name) {
    return ::testing::TempDir() + "/" + name + "_" + std::to_string(getpid());
}

// The message of the UsageError `f` throws; a failure saying `accepted` where it throws none.
template <class F>
std::string Refusal(const std::string& accepted, F&& f) {
    try {
        f();
    } catch (const UsageError& e) {
        return e.what();
    }
    ADD_FAILURE() << accepted;
    return "";
}

// `f` throws a UsageError whose message holds `says`.
template <class F>
void ExpectRefused(const std::string& accepted, const std::string& says, F&& f) {
    const std::string message = Refusal(accepted, std::forward<F>(f));
    EXPECT_NE(message.find(says), std::string::npos) << message;
}

}  // namespace

TEST(Session, EveryCpuLessonVerifiesAtEdgeSizes) {
    Session session(Catalog());
    // Element counts (bytes for split lines, floats for reduction).
    const uint64_t counts[] = {0, 1, 2, 3, 31, 32, 33, 255, 257, 1023, 1025, 65521, 65537, 1000003};
    for (const Lesson& lesson : Catalog().lessons()) {
        if (lesson.kind != StepKind::kCpu) continue;
        if (!lesson.FindParam("size")) continue;  // rows × columns: the next test
        const bool uses_threads = lesson.FindParam("threads") != nullptr;
        for (const std::string& kind : lesson.FindParam("data")->choices) {
            for (uint64_t count : counts) {
                const uint64_t n = count * ElementBytes(lesson);
                for (int threads : {1, 2, 3, 8}) {
                    if (!uses_threads && threads != 1) continue;
                    RunOptions o = Quick(n, kind);
                    o.seed = n * 3 + 1;
                    if (uses_threads) o.Set("threads", std::to_string(threads));
                    const RunResult r = session.Run(lesson, o);
                    ASSERT_TRUE(r.verified) << lesson.id << " " << kind << " n=" << n
                                            << " threads=" << threads << ": " << r.check_message;
                    EXPECT_EQ(r.Number("size"), n);
                    EXPECT_EQ(r.reps, 1);
                    EXPECT_EQ(r.params.Has("threads"), uses_threads);
                    EXPECT_FALSE(r.params.Has("block")) << "CPU steps have no block size";
                    EXPECT_TRUE(r.parts.empty());
                }
            }
        }
    }
}

// A CPU lesson whose data is m rows × n columns (softmax): odd shapes, one row, one column.
TEST(Session, EveryRowsByColumnsCpuLessonVerifiesAtEdgeShapes) {
    Session session(Catalog());
    const std::pair<uint64_t, uint64_t> shapes[] = {{1, 1},   {1, 2},     {3, 33},   {2, 1025},
                                                    {5, 257}, {1000, 31}, {1, 65537}};
    int lessons = 0;
    for (const Lesson& lesson : Catalog().lessons()) {
        if (lesson.kind != StepKind::kCpu || lesson.FindParam("size")) continue;
        ASSERT_TRUE(lesson.FindParam("m") && lesson.FindParam("n")) << lesson.id;
        ++lessons;
        const bool uses_threads = lesson.FindParam("threads") != nullptr;
        const ParamSpec* dtype = lesson.FindParam("dtype");
        const std::vector<std::string> dtypes =
            dtype ? dtype->choices : std::vector<std::string>{""};
        for (const std::string& kind : lesson.FindParam("data")->choices) {
            for (const auto& [m, n] : shapes) {
                for (const std::string& type : dtypes)
                    for (int threads : {1, 3}) {
                        if (!uses_threads && threads != 1) continue;
                        RunOptions o;
                        if (!type.empty()) o.Set("dtype", type);
                        o.Set("m", std::to_string(m));
                        o.Set("n", std::to_string(n));
                        o.Set("data", kind);
                        o.reps = 1;
                        o.seed = m * 7919 + n;
                        if (uses_threads) o.Set("threads", std::to_string(threads));
                        const RunResult r = session.Run(lesson, o);
                        ASSERT_TRUE(r.verified)
                            << lesson.id << " " << kind << " " << m << "x" << n << " " << type
                            << " threads=" << threads << ": " << r.check_message;
                        EXPECT_EQ(r.Number("m"), m);
                        EXPECT_EQ(r.Number("n"), n);
                        EXPECT_FALSE(r.params.Has("block")) << "CPU steps have no block size";
                    }
            }
        }
    }
    EXPECT_GE(lessons, 1);
}

TEST(Session, ReportsTimingStatistics) {
    Session session(Catalog());
    RunOptions o = Quick(1 << 20);
    o.reps = 7;
    int calls = 0;
    RunControl control;
    control.progress = [&](int done, int total) {
        ++calls;
        EXPECT_LE(done, total);
    };
    const RunResult r = session.Run(*Catalog().FindLesson("split/naive-scan"), o, control);
    EXPECT_EQ(r.reps, 7);
    EXPECT_EQ(r.samples_ms.size(), 7u);
    EXPECT_EQ(calls, 7);
    EXPECT_LE(r.min_ms, r.median_ms);
    EXPECT_LE(r.median_ms, r.max_ms);
    EXPECT_GT(r.min_ms, 0);
    const uint64_t found = static_cast<uint64_t>(*r.Value("found"));
    EXPECT_EQ(r.work.MemoryBytes(), (1u << 20) + 8 * found);
    EXPECT_EQ(r.work.h2d_bytes, 0u) << "a CPU step copies nothing over PCIe";
    EXPECT_NEAR(r.gbps, double(r.work.MemoryBytes()) / (r.median_ms * 1e6), 1e-9);
    EXPECT_FALSE(r.pct_of_ceiling.has_value()) << "CPU steps have no GPU ceiling";
    // What other programs kept busy meanwhile is read (Linux has /proc/stat), and travels.
    ASSERT_TRUE(r.other_cores_busy.has_value());
    EXPECT_GE(*r.other_cores_busy, 0.0);
    const RunResult back = RunResultFromJson(ToJson(r));
    ASSERT_TRUE(back.other_cores_busy.has_value());
    EXPECT_DOUBLE_EQ(*back.other_cores_busy, *r.other_cores_busy);
}

// Other processes' share of the cores: the machine's busy time less this process's own, per
// second of wall time; unknown readings give nothing, and it is never negative.
TEST(Session, OtherCoresBusyIsTheMachinesBusyTimeLessOurOwn) {
    const CpuTimes before{100.0, 10.0}, after{104.0, 12.0};
    EXPECT_DOUBLE_EQ(*OtherCoresBusy(before, after, 2.0), 1.0);
    EXPECT_DOUBLE_EQ(*OtherCoresBusy(before, CpuTimes{101.0, 12.0}, 2.0), 0.0);
    EXPECT_FALSE(OtherCoresBusy(CpuTimes{}, after, 2.0));
    EXPECT_FALSE(OtherCoresBusy(before, after, 0.0));
    EXPECT_GE(ReadCpuTimes().machine_busy_s, 0.0) << "/proc/stat is readable here";
}

TEST(Session, AutomaticRepetitionsAreBounded) {
    Session session(Catalog());
    RunOptions o;
    o.Set("size", "4096");
    o.min_time_s = 0.02;
    const RunResult r = session.Run(*Catalog().FindLesson("split/even-positions"), o);
    EXPECT_GE(r.reps, kMinReps);
    EXPECT_LE(r.reps, kMaxReps);
}

// Lessons timed in turn: each lesson's trials pooled into one result, in the order given; fixed
// repetitions shared among the trials; bad trial counts and a lesson given twice refused before
// anything runs.
TEST(Session, LessonsTimedInTurnPoolEachOnesTrials) {
    Session session(Catalog());
    const Lesson& two = *Catalog().FindLesson("split/even-positions");
    const Lesson& three = *Catalog().FindLesson("split/openmp");
    RunOptions o;
    o.Set("size", "65536");
    o.Set("threads", "2");
    o.reps = 4;
    int calls = 0, last_done = 0, last_total = 0;
    RunControl control;
    control.progress = [&](int done, int total) {
        ++calls;
        EXPECT_LE(done, total);
        EXPECT_GE(done, last_done) << "samples over every run so far";
        last_done = done;
        last_total = total;
    };
    const std::vector<RunResult> out = RunInTurn(session, {&two, &three}, o, 3, control);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].id, two.id);
    EXPECT_EQ(out[1].id, three.id);
    for (const RunResult& r : out) {
        EXPECT_TRUE(r.verified);
        EXPECT_EQ(r.trials, 3);
        EXPECT_EQ(r.reps, 6) << "4 reps shared among 3 trials: 2 each";
        EXPECT_EQ(r.samples_ms.size(), 6u);
        EXPECT_LE(r.median_lo_ms, r.median_ms);
        EXPECT_GE(r.median_hi_ms, r.median_ms);
    }
    EXPECT_EQ(calls, 12);
    EXPECT_EQ(last_done, 12);
    EXPECT_EQ(last_total, 12);
    // Automatic repetitions: at least kMinReps over the trials together.
    RunOptions automatic;
    automatic.Set("size", "4096");
    automatic.min_time_s = 0.003;
    for (const RunResult& r : RunInTurn(session, {&two, &three}, automatic, 3)) {
        EXPECT_EQ(r.trials, 3);
        EXPECT_GE(r.reps, kMinReps);
    }
    EXPECT_NE(Refusal("trials 0",
                      [&] {
                          RunInTurn(session, {&two, &three}, o, 0);
                      })
                  .find("trials must be 1 to 20, not 0"),
              std::string::npos);
    EXPECT_NE(Refusal("twice",
                      [&] {
                          RunInTurn(session, {&two, &two}, o, 2);
                      })
                  .find("twice"),
              std::string::npos);
    RunOptions bad = o;
    bad.Set("size", "12QB");
    EXPECT_NE(Refusal("bad size",
                      [&] {
                          RunInTurn(session, {&two, &three}, bad, 2);
                      }),
              "")
        << "refused before anything runs";
}

TEST(Session, InputFileAndOffsetsOut) {
    const std::string input = TempPath("input.txt");
    const std::string output = TempPath("offsets.txt");
    {
        std::ofstream f(input, std::ios::binary);
        f << "first line\r\nsecond\r\n\r\nlast, no break\r";
    }
    Session session(Catalog());
    RunOptions o;
    o.reps = 1;
    o.input_file = input;
    o.output_file = output;
    const RunResult r = session.Run(*Catalog().FindLesson("split/openmp"), o);
    EXPECT_TRUE(r.verified);
    EXPECT_EQ(r.ChoiceOr("data", ""), "file");
    EXPECT_EQ(r.input, input);
    EXPECT_EQ(r.Number("size"), 37u);
    EXPECT_EQ(r.Value("found"), 3.0);
    std::ifstream in(output);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "12\n20\n22\n");
    std::remove(input.c_str());
    std::remove(output.c_str());
}

TEST(Session, MissingInputFileIsAUsageError) {
    Session session(Catalog());
    RunOptions o = Quick(0);
    o.input_file = "/nonexistent/file.txt";
    EXPECT_THROW(session.Run(*Catalog().FindLesson("split/naive-scan"), o), UsageError);
}

TEST(Session, TooLargeForHostMemoryIsAClearUsageError) {
    Session session(Catalog());
    const std::string msg = Refusal("16 TiB was accepted", [&] {
        session.Run(*Catalog().FindLesson("split/naive-scan"), Quick(uint64_t(1) << 44));
    });
    EXPECT_NE(msg.find("host memory"), std::string::npos) << msg;
    EXPECT_NE(msg.find("available"), std::string::npos) << msg;
    // The session is still usable afterwards.
    EXPECT_TRUE(session.Run(*Catalog().FindLesson("split/naive-scan"), Quick(100)).verified);
}

TEST(Session, DataKindAndElementSizeAreCheckedPerChapter) {
    Session session(Catalog());
    ExpectRefused("split lines has no 'ones' data",
                  "Data (data) 'ones' is not accepted: use random, dense or none", [&] {
                      session.Run(*Catalog().FindLesson("split/naive-scan"), Quick(100, "ones"));
                  });
    ExpectRefused("1001 bytes is not a whole number of floats", "4-byte elements",
                  [&] { session.Run(*Catalog().FindLesson("19"), Quick(1001)); });
    EXPECT_THROW(session.Run(*Catalog().FindLesson("19"), Quick(100, "dense")), UsageError);
}

TEST(Session, ReductionReportsItsValueAndTheReference) {
    Session session(Catalog());
    RunOptions o = Quick(4 * 1000003, "ones");
    o.Set("threads", "3");
    const RunResult r = session.Run(*Catalog().FindLesson("19"), o);
    ASSERT_TRUE(r.verified) << r.check_message;
    EXPECT_EQ(r.Value("sum"), 1000003.0);
    EXPECT_EQ(r.Value("expected"), 1000003.0);
    EXPECT_EQ(r.Value("error"), 0.0);
    EXPECT_EQ(r.work.bytes_read, 4u * 1000003);
    EXPECT_EQ(r.work.flops, 1000003u);
    EXPECT_FALSE(r.Value("found").has_value());
}

TEST(Session, ThreadCountOutOfRange) {
    const Lesson& openmp = *Catalog().FindLesson("split/openmp");
    for (const char* bad : {"0", "5000", "-1", "many", ""})
        EXPECT_THROW(ResolveParams(openmp, {{"threads", bad}}), UsageError) << bad;
    EXPECT_EQ(ResolveParams(openmp, {{"threads", "5"}}).Number("threads"), 5u);
}

TEST(Session, BlockSizeValidationNamesTheRange) {
    const Lesson& gpu = *Catalog().FindLesson("split/one-thread-per-pair");
    for (const char* bad : {"0", "16", "100", "2048"}) {
        const std::string msg = Refusal(std::string("block ") + bad + " was accepted", [&] {
            ResolveParams(gpu, {{"block", bad}});
        });
        EXPECT_NE(msg.find("multiple of 32 from 32 to 1024"), std::string::npos) << msg;
        EXPECT_NE(msg.find(std::string("(block) ") + bad), std::string::npos) << msg;
    }
    EXPECT_EQ(ResolveParams(gpu, {{"block", "96"}}).Number("block"), 96u);
    EXPECT_EQ(ResolveParams(gpu, {}).Number("block"), 256u) << "the lesson's default";
    EXPECT_EQ(ResolveParams(gpu, {}).Number("size"), uint64_t(64) << 20) << "the chapter's";
}

TEST(Session, AblationTogglesDefaultToTheLessonAsWritten) {
    const Lesson& v5 = *Catalog().FindLesson("25");
    const ParamValues defaults = ResolveParams(v5, {});
    EXPECT_EQ(defaults.Choice("loads"), "float4");
    EXPECT_EQ(defaults.Choice("passes"), "one");
    EXPECT_EQ(defaults.Number("block"), 512u) << "unchanged";
    const ParamValues v3 = ResolveParams(*Catalog().FindLesson("23"), {});
    EXPECT_EQ(v3.Choice("accumulate"), "many-per-thread");
    EXPECT_EQ(v3.Choice("last_warp"), "unrolled");
    EXPECT_EQ(ResolveParams(*Catalog().FindLesson("21"), {}).Choice("addressing"), "interleaved");
    const ParamValues v10 =
        ResolveParams(*Catalog().FindLesson("split/vector-loads-block-compaction"), {});
    EXPECT_EQ(v10.Choice("output"), "block");
    EXPECT_EQ(v10.Choice("loads"), "16-byte");
    EXPECT_EQ(v10.Choice("pair_test"), "word");
    EXPECT_EQ(v10.Choice("exits"), "early");

    // Every combination is accepted: no toggle depends on another or on the block size.
    for (const char* loads : {"float4", "scalar"})
        for (const char* passes : {"one", "two"})
            for (const char* block : {"32", "1024"}) {
                const ParamValues p =
                    ResolveParams(v5, {{"loads", loads}, {"passes", passes}, {"block", block}});
                EXPECT_EQ(p.Choice("loads"), loads);
                EXPECT_EQ(p.Choice("passes"), passes);
            }
    for (const char* accumulate : {"many-per-thread", "two-per-thread", "one-per-thread"})
        for (const char* last_warp : {"unrolled", "loop"})
            EXPECT_NO_THROW(ResolveParams(
                *Catalog().FindLesson("23"),
                {{"accumulate", accumulate}, {"last_warp", last_warp}, {"block", "64"}}));

    ExpectRefused("loads=double was accepted", "float4 or scalar", [&] {
        ResolveParams(v5, {{"loads", "double"}});
    });
    ExpectRefused("lesson 24 has no toggle", "no parameter 'loads'", [&] {
        ResolveParams(*Catalog().FindLesson("24"), {{"loads", "scalar"}});
    });
}

TEST(Session, UnknownParametersAreNamedOrIgnored) {
    const Lesson& cpu = *Catalog().FindLesson("split/naive-scan");
    ExpectRefused("lesson 1 has no block size",
                  "lesson 1.1 has no parameter 'block': its parameters are size, data", [&] {
                      ResolveParams(cpu, {{"block", "256"}});
                  });
    std::vector<std::string> unused;
    const ParamValues p = ResolveParams(cpu, {{"block", "256"}, {"size", "1KiB"}}, &unused);
    EXPECT_EQ(unused, std::vector<std::string>{"block"});
    EXPECT_EQ(p.Number("size"), 1024u);
    // Session::Run ignores them: bench passes one set of options to every lesson.
    Session session(Catalog());
    RunOptions o = Quick(100);
    o.Set("block", "512");
    EXPECT_TRUE(session.Run(cpu, o).verified);
}

TEST(Session, GpuLessonWithoutGpuIsUnavailable) {
    if (GetDevices().available()) GTEST_SKIP() << "a GPU is present; test_gpu covers it";
    Session session(Catalog());
    const Lesson& gpu = *Catalog().FindLesson("split/one-thread-per-pair");
    EXPECT_FALSE(session.Unavailable(gpu).empty());
    EXPECT_THROW(session.Run(gpu, Quick(100)), UnavailableError);
}

TEST(Session, CancelStopsARun) {
    Session session(Catalog());
    std::atomic<bool> cancel{true};
    RunControl control;
    control.cancel = &cancel;
    EXPECT_THROW(session.Run(*Catalog().FindLesson("split/naive-scan"), Quick(1000), control),
                 Cancelled);
}

namespace {

// A chapter whose only step drops the last break: the runner must report it as wrong.
class TinyWorkload : public Workload {
public:
    uint64_t SizeBytes() const override { return 4; }
};

class BrokenStep : public StepInstance {
public:
    Sample Run() override {
        ++runs;
        return Sample{1.0, {}};
    }
    Check Verify() const override {
        Check c;
        c.message = "found 1 line break, expected 2";
        c.values = {{"found", 1}};
        return c;
    }
    Work GetWork() const override {
        Work w;
        w.bytes_read = 4;
        return w;
    }
    int runs = 0;
};

// A registry of one chapter of tiny workloads ("t") and its one lesson `id`, whose step is
// `make`'s and whose work rule is `rule` (null: none of its own).
template <class Step>
Registry OneStepChapter(const std::string& id, WorkFn rule = nullptr) {
    Registry r;
    Chapter c;
    c.number = 1;
    c.id = "t";
    c.title = "test";
    c.make_workload = [](const WorkloadSpec&) { return std::make_shared<TinyWorkload>(); };
    c.workload_host_bytes = [](const ParamValues& p) { return p.Number("size"); };
    c.describe = [](const ParamValues&) { return std::string("tiny"); };
    c.params = {SizeParam(4)};
    r.AddChapter(c);
    Lesson l;
    l.number = 1;
    l.id = id;
    l.chapter = "t";
    l.needs = [](const ParamValues&) { return MemoryNeeds{}; };
    l.runner.make = [](const Workload&, const StepContext&) { return std::make_unique<Step>(); };
    l.work = std::move(rule);
    r.AddLesson(l);
    return r;
}

}  // namespace

TEST(Session, WrongAnswerIsAResultNotAnException) {
    const Registry r = OneStepChapter<BrokenStep>("t/01-broken");
    Session session(r);
    RunOptions o;
    o.reps = 10;
    const RunResult res = session.Run(*r.FindLesson("t/01-broken"), o);
    EXPECT_FALSE(res.verified);
    EXPECT_EQ(res.check_message, "found 1 line break, expected 2");
    EXPECT_EQ(res.reps, 1) << "a wrong step is not timed further";
}

namespace {

// A step that says a work of its own and corrects what it "measured" (4 bytes written).
class MeasuringStep : public StepInstance {
public:
    Sample Run() override { return Sample{1.0, {}}; }
    Check Verify() const override { return Check{true, "", {}}; }
    Work Measured(Work declared) const override {
        declared.bytes_written = 4;
        return declared;
    }
    Work GetWork() const override {
        Work w;
        w.bytes_read = 999;
        return w;
    }
};

Registry MeasuringChapter(WorkFn rule) {
    return OneStepChapter<MeasuringStep>("t/01-measuring", std::move(rule));
}

}  // namespace

// A step's work rule is said once: a lesson that declares one reports that rule at the run's
// parameters (what the page predicts from), with only what the step measured corrected; the
// step's own GetWork is asked only where no rule is declared.
TEST(Session, ARunReportsTheDeclaredWorkRuleCorrectedByWhatItMeasured) {
    const Registry declared = MeasuringChapter([](const ParamValues& p) {
        Work w;
        w.bytes_read = 3 * p.Number("size");
        w.peer_bytes = 7;
        w.bound = Bound::kH2D;
        w.rate_part.clear();
        return w;
    });
    RunOptions o;
    o.reps = 1;
    o.Set("size", "16");
    const Lesson& lesson = *declared.FindLesson("t/01-measuring");
    const RunResult r = Session(declared).Run(lesson, o);
    const std::optional<Work> rule = EstimateWork(lesson, declared.ChapterOf(lesson), r.params);
    ASSERT_TRUE(rule);
    EXPECT_EQ(r.work.bytes_read, rule->bytes_read);
    EXPECT_EQ(r.work.bytes_read, 48u);
    EXPECT_EQ(r.work.peer_bytes, 7u);
    EXPECT_EQ(r.work.bound, Bound::kH2D);
    EXPECT_EQ(r.work.rate_part, "");
    EXPECT_EQ(r.work.bytes_written, 4u) << "what the step measured";

    const Registry undeclared = MeasuringChapter(nullptr);
    const RunResult u = Session(undeclared).Run(*undeclared.FindLesson("t/01-measuring"), o);
    EXPECT_EQ(u.work.bytes_read, 999u) << "no rule: the step's own GetWork";
}

TEST(Sweep, PlansAnyParameter) {
    const Lesson& gpu = *Catalog().FindLesson("split/one-thread-per-pair");
    RunOptions base = Quick(1000);
    auto points = PlanSweep(gpu, base, "block", "32,48,64,2048");
    ASSERT_EQ(points.size(), 4u);
    EXPECT_TRUE(points[0].skip_reason.empty());
    EXPECT_FALSE(points[1].skip_reason.empty()) << "48 is not a multiple of 32";
    EXPECT_EQ(*points[2].options.Get("block"), "64");
    EXPECT_FALSE(points[3].skip_reason.empty());
    EXPECT_EQ(PlanSweep(gpu, base, "block", "32..1024").size(), 6u);
    EXPECT_EQ(PlanSweep(gpu, base, "block", "all").size(), 32u);
    ExpectRefused("a CPU step's block was swept", "it runs on the CPU", [&] {
        PlanSweep(*Catalog().FindLesson("split/naive-scan"), base, "block", "32");
    });
    ExpectRefused("a library step's block was swept", "the library chooses its own", [&] {
        PlanSweep(*Catalog().FindLesson("split/thrust-copy-if"), base, "block", "32");
    });
    points = PlanSweep(*Catalog().FindLesson("split/naive-scan"), base, "size", "0,1KiB");
    EXPECT_EQ(*points[0].options.Get("size"), "0");
    EXPECT_EQ(*points[1].options.Get("size"), "1024");
    points = PlanSweep(*Catalog().FindLesson("split/naive-scan"), base, "data", "all");
    ASSERT_EQ(points.size(), 3u);
    EXPECT_EQ(points[2].value, "none");
    EXPECT_THROW(PlanSweep(*Catalog().FindLesson("split/naive-scan"), base, "nope", "1"),
                 UsageError);
}

TEST(Sweep, OverEveryValueOfAnAblationToggle) {
    const RunOptions base = Quick(1 << 20);
    struct Case {
        const char* lesson;
        const char* param;
        std::vector<std::string> values;
    };
    const Case cases[] = {
        {"reduce/v5-vectorized-one-pass", "loads", {"float4", "scalar"}},
        {"reduce/v5-vectorized-one-pass", "passes", {"one", "two"}},
        {"reduce/v3-unrolled-last-warp",
         "accumulate",
         {"many-per-thread", "two-per-thread", "one-per-thread"}},
        {"reduce/v3-unrolled-last-warp", "last_warp", {"unrolled", "loop"}},
        {"reduce/v1-shared-memory", "addressing", {"interleaved", "strided", "sequential"}},
        {"split/vector-loads-block-compaction", "output", {"block", "per-hit"}},
        {"split/vector-loads-block-compaction", "loads", {"16-byte", "4-byte"}},
        {"split/vector-loads-block-compaction", "pair_test", {"word", "byte"}},
        {"split/vector-loads-block-compaction", "exits", {"early", "none"}},
    };
    for (const Case& c : cases) {
        const auto points = PlanSweep(*Catalog().FindLesson(c.lesson), base, c.param, "all");
        ASSERT_EQ(points.size(), c.values.size()) << c.param;
        for (size_t i = 0; i < points.size(); ++i) {
            EXPECT_EQ(points[i].value, c.values[i]);
            EXPECT_TRUE(points[i].skip_reason.empty()) << points[i].skip_reason;
            EXPECT_EQ(*points[i].options.Get(c.param), c.values[i]);
            EXPECT_EQ(*points[i].options.Get("size"), std::to_string(1 << 20)) << "kept";
        }
    }
    // A list names its values; one the toggle does not have is skipped with the reason.
    const auto points = PlanSweep(*Catalog().FindLesson("25"), base, "loads", "scalar,double");
    ASSERT_EQ(points.size(), 2u);
    EXPECT_TRUE(points[0].skip_reason.empty());
    EXPECT_NE(points[1].skip_reason.find("float4 or scalar"), std::string::npos)
        << points[1].skip_reason;
}

TEST(Sweep, NothingToRunIsAnError) {
    const Lesson& gpu = *Catalog().FindLesson("split/one-thread-per-pair");
    ExpectRefused("no point can run", "nothing to sweep",
                  [&] { PlanSweep(gpu, Quick(1000), "block", "18446744073709551615"); });
}

// The data kept for the next run (1.2 GB after a 1 GiB run) is freed on request (the worker
// does it when idle), and the next run makes it again.
TEST(Session, ReleaseWorkloadFreesTheKeptDataAndTheNextRunMakesItAgain) {
    Session session(Catalog());
    const Lesson& cpu_sum = *Catalog().FindLesson("reduce/cpu-sum");
    EXPECT_FALSE(session.HoldsWorkload());
    const RunResult first = session.Run(cpu_sum, Quick(1 << 16));
    EXPECT_TRUE(first.verified);
    EXPECT_TRUE(session.HoldsWorkload()) << "kept for the next run of the chapter";
    session.ReleaseWorkload();
    EXPECT_FALSE(session.HoldsWorkload());
    session.ReleaseWorkload();  // twice is harmless
    const RunResult again = session.Run(cpu_sum, Quick(1 << 16));
    EXPECT_TRUE(again.verified);
    EXPECT_TRUE(session.HoldsWorkload());
}
