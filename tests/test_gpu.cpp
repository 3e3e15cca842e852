// Every GPU lesson against the CPU reference: edge inputs, odd sizes, every data kind and
// block size. Without a usable GPU every test here reports SKIPPED with the reason.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "catalog.h"
#include "cli_path.h"
#include "device.h"
#include "errors.h"
#include "gpu_test.h"
#include "serve.h"
#include "session.h"
#include "shares.h"
#include "shell.h"
#include "split_cases.h"

#if LESSONS_HAVE_CUDA
#include <cuda_runtime.h>

#include "cuda/cuda_util.h"
#include "library_probe.h"
#include "nccl/nccl_loader.h"
#include "nccl_probe.h"
#include "reduce/reduce_gpu.cuh"
#include "split/split_gpu.cuh"
#endif

using namespace lessons;

namespace {

// Multi-process steps start their ranks as CUDA_LESSONS_RANK_PROGRAM (else this program, which
// here is no CLI): every test of this binary that runs such a step gets the CLI, set once at load.
const struct RankProgram {
    RankProgram() { setenv("CUDA_LESSONS_RANK_PROGRAM", CliPath().c_str(), 0); }
} kRankProgram;

const Registry& Lessons() {
    return RunnableCatalog();
}

// Every GPU lesson this process can run whose data is one size (split, reduce, basics,
// allreduce); chapters with matrix dimensions have test files of their own
// (test_gpu_gemv.cpp, test_gpu_gemm.cpp). A lesson whose library is missing here (NCCL) is left
// out, with a note; its own tests say so (MultiGpu*).
std::vector<const Lesson*> GpuLessons() {
    std::vector<const Lesson*> out;
    for (const Lesson& l : Lessons().lessons()) {
        if (l.kind != StepKind::kGpu || !l.FindParam("size")) continue;
        if (l.runner.unavailable && !l.runner.unavailable().empty()) {
            std::printf("note: %s left out: %s\n", l.id.c_str(), l.runner.unavailable().c_str());
            continue;
        }
        out.push_back(&l);
    }
    return out;
}

// Block sizes to try for a lesson: a spread of the accepted ones (none for a library step).
std::vector<std::optional<int>> BlocksToTry(const Lesson& lesson) {
    const ParamSpec* block = lesson.FindParam("block");
    if (!block) return {std::nullopt};
    std::vector<std::optional<int>> out;
    for (int b : {32, 64, 96, 128, 256, 512, 1024})
        if (block->Reject(ParamValue::Number(b)).empty()) out.push_back(b);
    return out;
}

uint64_t ElementBytes(const Lesson& lesson) {
    return lesson.FindParam("size")->step;
}

void SetBlock(RunOptions& o, const std::optional<int>& block) {
    if (block) o.Set("block", std::to_string(*block));
}

uint64_t Found(const RunResult& r) {
    return static_cast<uint64_t>(r.Value("found").value_or(999999));
}

// A lesson's ablation toggles: its own choice parameters (the chapter's data kind is not one).
std::vector<const ParamSpec*> Toggles(const Lesson& lesson) {
    const Chapter& chapter = Lessons().ChapterOf(lesson);
    std::vector<const ParamSpec*> out;
    for (const ParamSpec& p : lesson.params) {
        bool of_chapter = false;
        for (const ParamSpec& c : chapter.params) of_chapter = of_chapter || c.name == p.name;
        if (p.type == ParamType::kChoice && !of_chapter) out.push_back(&p);
    }
    return out;
}

using Combination = std::vector<std::pair<std::string, std::string>>;

// Every combination of the lesson's toggles; one empty combination when it has none.
std::vector<Combination> ToggleCombinations(const Lesson& lesson) {
    std::vector<Combination> out(1);
    for (const ParamSpec* p : Toggles(lesson)) {
        std::vector<Combination> longer;
        for (const Combination& c : out)
            for (const std::string& choice : p->choices) {
                longer.push_back(c);
                longer.back().emplace_back(p->name, choice);
            }
        out = std::move(longer);
    }
    return out;
}

std::string Describe(const Combination& c) {
    std::string out;
    for (const auto& [name, value] : c) out += " " + name + "=" + value;
    return out;
}

void SetToggles(RunOptions& o, const Combination& c) {
    for (const auto& [name, value] : c) o.Set(name, value);
}

// The smallest, the default and the largest block size the lesson accepts.
std::vector<std::optional<int>> EndsAndDefaultBlock(const Lesson& lesson) {
    const ParamSpec* block = lesson.FindParam("block");
    if (!block) return {std::nullopt};
    std::set<int> sizes{int(block->Values().front().number), int(block->Default().number),
                        int(block->Values().back().number)};
    return {sizes.begin(), sizes.end()};
}

}  // namespace

TEST(Gpu, DevicesAndCeilings) {
    REQUIRE_GPU();
    const DeviceList& list = GetDevices();
    ASSERT_TRUE(list.available());
    for (const DeviceInfo& d : list.devices) {
        SCOPED_TRACE("GPU " + std::to_string(d.ordinal) + ": " + d.name);
        EXPECT_FALSE(d.name.empty());
        EXPECT_GT(d.sm_count, 0);
        EXPECT_GT(d.l2_bytes, 0u);
        EXPECT_GT(d.clock_khz, 0);
        EXPECT_GT(d.fp32_lanes_per_sm, 0);
        ASSERT_EQ(d.peer_access.size(), list.devices.size());
        EXPECT_FALSE(d.peer_access[d.ordinal]);

#if LESSONS_HAVE_CUDA
        int before = -1;
        ASSERT_EQ(cudaGetDevice(&before), cudaSuccess);
#endif
        const Ceilings& c = GetCeilings(d.ordinal);
#if LESSONS_HAVE_CUDA
        int after = -1;
        ASSERT_EQ(cudaGetDevice(&after), cudaSuccess);
        EXPECT_EQ(after, before) << "measuring must restore the current device";
#endif
        EXPECT_EQ(&GetCeilings(d.ordinal), &c) << "measured once";

        EXPECT_GT(c.datasheet_dram_gbps, 100.0);
        EXPECT_GT(c.datasheet_fp32_gflops, 1000.0);
        EXPECT_GT(c.read_gbps, 0.0);
        EXPECT_GT(c.copy_gbps, 50.0);
        EXPECT_GT(c.fp32_gflops, 0.0);
        EXPECT_GT(c.h2d_gbps, 0.0);
        EXPECT_GT(c.d2h_gbps, 0.0);
        // An empty block costs something, and far less than a microsecond on any GPU that runs
        // these lessons; blocks of 256 threads are no cheaper than blocks of 32.
        EXPECT_GT(c.block_floor_ns, 0.0);
        EXPECT_LT(c.block_floor_ns, 1000.0);
        EXPECT_GE(c.block_floor_256_ns, 0.8 * c.block_floor_ns);
        EXPECT_GE(c.read_gbps, 0.5 * c.copy_gbps) << "reading alone is not slower than a copy";
        EXPECT_LT(c.copy_gbps, 1.2 * c.datasheet_dram_gbps) << "a copy cannot beat the DRAM";
        EXPECT_LT(c.read_gbps, 1.2 * c.datasheet_dram_gbps) << "a read cannot beat the DRAM";
        EXPECT_LE(c.fp32_gflops, 1.1 * c.datasheet_fp32_gflops)
            << "the FMA kernel cannot beat lanes x 2 x boost clock";
        if (c.datasheet_pcie_gbps > 0) {
            EXPECT_LT(c.h2d_gbps, 1.1 * c.datasheet_pcie_gbps);
        }
        ASSERT_EQ(c.peer_gbps.size(), list.devices.size());
        for (size_t j = 0; j < c.peer_gbps.size(); ++j) {
            if (int(j) == d.ordinal) {
                EXPECT_EQ(c.peer_gbps[j], 0.0);
            } else {
                EXPECT_GT(c.peer_gbps[j], 0.0) << "to GPU " << j;
            }
        }
        std::printf(
            "GPU %d %s: read %.0f, copy %.0f (datasheet %.0f) GB/s; fp32 %.1f (datasheet %.1f) "
            "TFLOP/s; H2D %.1f, D2H %.1f (datasheet %.1f) GB/s; empty blocks %.3f ns (32 "
            "threads), %.3f ns (256)\n",
            d.ordinal, d.name.c_str(), c.read_gbps, c.copy_gbps, c.datasheet_dram_gbps,
            c.fp32_gflops / 1000, c.datasheet_fp32_gflops / 1000, c.h2d_gbps, c.d2h_gbps,
            c.datasheet_pcie_gbps, c.block_floor_ns, c.block_floor_256_ns);
        for (size_t j = 0; j < c.peer_gbps.size(); ++j)
            if (int(j) != d.ordinal)
                std::printf("  to GPU %zu (%s): %.0f GB/s\n", j,
                            d.peer_access[j] ? "peer" : "via host", c.peer_gbps[j]);
    }
    EXPECT_EQ(MeasuredCopyGbps(), GetCeilings(0).copy_gbps);
    EXPECT_EQ(GetDeviceInfo().name, list.devices[0].name);
}

TEST(Gpu, SplitEdgeInputsEveryBlockSize) {
    REQUIRE_GPU();
    const std::string dir = ::testing::TempDir();
    Session session(Lessons());
    for (const auto& c : split_cases::EdgeCases()) {
        const std::string path = dir + "/edge_" + std::to_string(getpid());
        std::ofstream(path, std::ios::binary) << c.text;
        for (const Lesson* lesson : GpuLessons()) {
            if (lesson->chapter != "split") continue;  // the chapter that scans files
            for (const Combination& toggles : ToggleCombinations(*lesson)) {
                for (const std::optional<int>& block : BlocksToTry(*lesson)) {
                    RunOptions o;
                    o.input_file = path;
                    SetBlock(o, block);
                    SetToggles(o, toggles);
                    o.reps = 1;
                    const RunResult r = session.Run(*lesson, o);
                    EXPECT_TRUE(r.verified)
                        << lesson->id << Describe(toggles) << " block " << block.value_or(0)
                        << " on '" << c.name << "': " << r.check_message;
                    EXPECT_EQ(Found(r), c.expected.size()) << lesson->id << " " << c.name;
                }
            }
        }
        std::remove(path.c_str());
    }
}

TEST(Gpu, EveryGpuLessonAtEdgeSizesBlocksAndData) {
    REQUIRE_GPU();
    Session session(Lessons());
    // Element counts: bytes for split lines, floats for reduction.
    const uint64_t counts[] = {0,
                               1,
                               2,
                               3,
                               31,
                               32,
                               33,
                               255,
                               257,
                               1023,
                               1025,
                               4099,
                               65521,
                               65537,
                               1000003,
                               (1u << 20) + 7,
                               (16u << 20) + 7};
    for (const Lesson* lesson : GpuLessons()) {
        for (const std::string& kind : lesson->FindParam("data")->choices) {
            for (uint64_t count : counts) {
                for (const std::optional<int>& block : BlocksToTry(*lesson)) {
                    RunOptions o;
                    o.Set("size", std::to_string(count * ElementBytes(*lesson)));
                    o.Set("data", kind);
                    o.seed = count + 5;
                    SetBlock(o, block);
                    o.reps = 1;
                    const RunResult r = session.Run(*lesson, o);
                    ASSERT_TRUE(r.verified)
                        << lesson->id << " " << kind << " count=" << count
                        << " block=" << block.value_or(0) << ": " << r.check_message;
                }
            }
        }
    }
}

// Every combination of every lesson's ablation toggles against the reference, at the sizes
// where tails, partial vectors and partial blocks show, with every data kind.
TEST(Gpu, EveryToggleCombinationAtEdgeSizes) {
    REQUIRE_GPU();
    Session session(Lessons());
    const uint64_t counts[] = {0, 1, 3, 31, 33, 1025, 65537, (1u << 20) + 7};
    int with_toggles = 0;
    for (const Lesson* lesson : GpuLessons()) {
        if (Toggles(*lesson).empty()) continue;
        ++with_toggles;
        for (const Combination& toggles : ToggleCombinations(*lesson)) {
            for (const std::string& kind : lesson->FindParam("data")->choices) {
                for (uint64_t count : counts) {
                    for (const std::optional<int>& block : EndsAndDefaultBlock(*lesson)) {
                        RunOptions o;
                        o.Set("size", std::to_string(count * ElementBytes(*lesson)));
                        o.Set("data", kind);
                        SetToggles(o, toggles);
                        o.seed = count + 11;
                        SetBlock(o, block);
                        o.reps = 1;
                        const RunResult r = session.Run(*lesson, o);
                        ASSERT_TRUE(r.verified)
                            << lesson->id << Describe(toggles) << " " << kind << " count=" << count
                            << " block=" << block.value_or(0) << ": " << r.check_message;
                    }
                }
            }
        }
    }
    EXPECT_EQ(with_toggles, 8)
        << "split's vector loads, basics' global-vs-shared, divergence and transfers, three "
           "reduction steps, and the all-reduce's NCCL algorithm";
}

// Each combination runs a kernel of its own, and reports that kernel's attributes.
TEST(Gpu, EachToggleCombinationRunsItsOwnKernel) {
    REQUIRE_GPU();
    Session session(Lessons());
    for (const Lesson* lesson : GpuLessons()) {
        const std::vector<Combination> combinations = ToggleCombinations(*lesson);
        if (combinations.size() < 2 || !lesson->runner.attributes) continue;  // 18: no kernel
        std::set<std::string> kernels;
        for (const Combination& toggles : combinations) {
            RunOptions o;
            o.Set("size", "1MiB");
            SetToggles(o, toggles);
            o.reps = 1;
            const RunResult r = session.Run(*lesson, o);
            ASSERT_TRUE(r.verified) << lesson->id << Describe(toggles) << ": " << r.check_message;
            for (const auto& [name, value] : toggles)
                EXPECT_EQ(r.params.Choice(name), value) << "the result names its toggles";
            ASSERT_TRUE(r.attributes.has_value()) << lesson->id << Describe(toggles);
            EXPECT_GT(r.attributes->registers, 0);
            EXPECT_GT(r.attributes->occupancy, 0);
            kernels.insert(r.attributes->kernel);
        }
        EXPECT_EQ(kernels.size(), combinations.size()) << lesson->id;
    }
}

// A step's first run must see all of its input: set-up copies and kernels on different
// streams once let the first kernel start before the input had arrived.
TEST(Gpu, FirstRunOfAFreshStepIsRight) {
    REQUIRE_GPU();
    Session session(Lessons());
    for (const Lesson* lesson : GpuLessons()) {
        for (uint64_t seed = 1; seed <= 12; ++seed) {
            RunOptions o;
            o.Set("size", seed % 2 ? "4MiB" : "1MiB");  // whole floats for every chapter
            o.seed = seed;
            o.reps = 1;
            const RunResult r = session.Run(*lesson, o);
            ASSERT_TRUE(r.verified) << lesson->id << " seed " << seed << ": " << r.check_message;
        }
    }
}

// The work the page predicts from (EstimateWork, without running) is the work each GPU step
// reports when it runs: exactly, but for the line breaks of random and dense text, whose count
// the estimate takes as expected for the data kind.
TEST(Gpu, EveryGpuLessonReportsTheWorkItsPageEstimates) {
    REQUIRE_GPU();
    Session session(Lessons());
    for (const Lesson* lesson : GpuLessons()) {
        if (!lesson->FindParam("data") || !lesson->FindParam("size") ||
            !EstimateWork(*lesson, Lessons().ChapterOf(*lesson), ResolveParams(*lesson, {})))
            continue;  // a chapter without a work rule: its page says so
        for (const std::string& data : lesson->FindParam("data")->choices) {
            RunOptions o;
            o.Set("size", "4MiB");
            o.Set("data", data);
            o.reps = 1;
            o.measure_ceilings = false;
            const RunResult r = session.Run(*lesson, o);
            ASSERT_TRUE(r.verified) << lesson->id << " " << data << ": " << r.check_message;
            const std::optional<Work> w =
                EstimateWork(*lesson, Lessons().ChapterOf(*lesson), r.params);
            ASSERT_TRUE(w) << lesson->id;
            EXPECT_EQ(w->bytes_read, r.work.bytes_read) << lesson->id << " " << data;
            EXPECT_EQ(w->h2d_bytes, r.work.h2d_bytes) << lesson->id << " " << data;
            EXPECT_EQ(w->flops, r.work.flops) << lesson->id << " " << data;
            EXPECT_EQ(w->bound, r.work.bound) << lesson->id << " " << data;
            EXPECT_EQ(w->rate_part, r.work.rate_part) << lesson->id << " " << data;
            const double tolerance = data == "none" ? 0 : 0.05 * double(r.work.bytes_written) + 192;
            EXPECT_NEAR(double(w->bytes_written), double(r.work.bytes_written), tolerance)
                << lesson->id << " " << data;
        }
    }
}

TEST(Gpu, EveryAcceptedBlockSize) {
    REQUIRE_GPU();
    Session session(Lessons());
    for (const Lesson* lesson : GpuLessons()) {
        const ParamSpec* spec = lesson->FindParam("block");
        if (!spec) continue;
        for (const ParamValue& value : spec->Values()) {
            const uint64_t block = value.number;
            for (uint64_t count : {33ull, 1025ull, (1ull << 20) + 7}) {
                RunOptions o;
                o.Set("size", std::to_string(count * ElementBytes(*lesson)));
                o.Set("block", std::to_string(block));
                o.reps = 1;
                o.seed = count * 1000 + block;
                const RunResult r = session.Run(*lesson, o);
                ASSERT_TRUE(r.verified) << lesson->id << " block " << block << " count " << count
                                        << ": " << r.check_message;
            }
        }
    }
}

// Pairs that straddle the overlapped-chunks step's chunks (and every other step's block and
// vector edges).
TEST(Gpu, PairsAcrossChunkBoundariesAreFoundOnce) {
    REQUIRE_GPU();
    const uint64_t chunk = 4u << 20;  // the smallest chunk (SplitOverlappedChunk)
    std::string text(3 * chunk + 5, 'x');
    for (uint64_t edge : {chunk, 2 * chunk, 3 * chunk}) {
        text[edge - 1] = '\r';  // straddles the boundary
        text[edge] = '\n';
        text[edge + 1] = '\r';  // starts right after it
        text[edge + 2] = '\n';
        text[edge - 3] = '\r';  // ends right before it
        text[edge - 2] = '\n';
    }
    text[text.size() - 2] = '\r';
    text[text.size() - 1] = '\n';
    const std::string path = ::testing::TempDir() + "/chunks_" + std::to_string(getpid());
    std::ofstream(path, std::ios::binary) << text;
    Session session(Lessons());
    for (const Lesson* lesson : GpuLessons()) {
        if (lesson->chapter != "split") continue;
        for (const Combination& toggles : ToggleCombinations(*lesson)) {
            RunOptions o;
            o.input_file = path;
            SetToggles(o, toggles);
            o.reps = 1;
            const RunResult r = session.Run(*lesson, o);
            EXPECT_TRUE(r.verified) << lesson->id << Describe(toggles) << ": " << r.check_message;
            EXPECT_EQ(Found(r), 10u) << lesson->id << Describe(toggles);
        }
    }
    std::remove(path.c_str());
}

TEST(Gpu, ServeReportsKernelAttributesAtABlockSize) {
    REQUIRE_GPU();
    std::istringstream in(R"({"op":"attributes","id":1,"lesson":"split/one-thread-per-pair",)"
                          R"("params":{"block":128}})"
                          "\n");
    std::ostringstream out;
    ASSERT_EQ(Serve(Lessons(), in, out), 0);
    bool seen = false;
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) {
        const auto m = nlohmann::ordered_json::parse(line);
        if (m["type"] != "attributes") continue;
        seen = true;
        EXPECT_EQ(m["block"], 128);
        EXPECT_GT(m["attributes"]["registers"].get<int>(), 0);
        EXPECT_GT(m["attributes"]["occupancy"].get<double>(), 0);
    }
    EXPECT_TRUE(seen) << out.str();
}

TEST(Gpu, ReductionOfOnesIsExactUpTo2To24) {
    REQUIRE_GPU();
    Session session(Lessons());
    for (const Lesson* lesson : GpuLessons()) {
        if (lesson->chapter != "reduce") continue;
        for (const Combination& toggles : ToggleCombinations(*lesson)) {
            RunOptions o;
            o.Set("size", std::to_string(4 * ((uint64_t(1) << 24) - 3)));
            o.Set("data", "ones");
            SetToggles(o, toggles);
            o.reps = 1;
            const RunResult r = session.Run(*lesson, o);
            ASSERT_TRUE(r.Value("sum").has_value());
            EXPECT_EQ(*r.Value("sum"), double((uint64_t(1) << 24) - 3))
                << lesson->id << Describe(toggles);
        }
    }
}

TEST(Gpu, PartsAreTimedAndAttributesReported) {
    REQUIRE_GPU();
    Session session(Lessons());
    for (const Lesson* lesson : GpuLessons()) {
        if (lesson->FindParam("gpus")) continue;  // MultiGpu.PartsCeilingsAndDevices
        RunOptions o;
        o.Set("size", "8MiB");
        o.reps = 5;
        o.cold_l2 = true;
        const RunResult r = session.Run(*lesson, o);
        ASSERT_TRUE(r.verified) << r.check_message;
        EXPECT_TRUE(r.cold_l2);
        const bool overlapped =
            lesson->id == "split/overlapped-chunks";                    // parts overlap: whole only
        const bool transfer = lesson->id == "basics/pinned-transfers";  // a copy, no kernel
        ASSERT_EQ(r.Part("kernel").has_value(), !overlapped && !transfer) << lesson->id;
        if (transfer) {
            ASSERT_TRUE(r.Part("h2d")) << lesson->id;
        }
        if (r.Part("kernel")) {
            EXPECT_GT(*r.Part("kernel"), 0);
        }
        if (lesson->chapter == "split" &&
            !overlapped) {  // the steps that copy report the copies apart
            ASSERT_TRUE(r.Part("h2d") && r.Part("d2h")) << lesson->id;
            EXPECT_LE(*r.Part("h2d") + *r.Part("kernel") + *r.Part("d2h"), r.max_ms * 1.05);
        }
        auto extra = [&](const char* name) { return r.Value(name).value_or(-1.0); };
        if (overlapped) {
            EXPECT_GT(extra("h2d_alone_ms"), 0);
        }
        if (lesson->id == "split/pinned-memory") {
            EXPECT_GT(extra("alloc_pinned_ms"), 0);
            EXPECT_GT(extra("alloc_pageable_ms"), 0);
        }
        EXPECT_EQ(r.attributes.has_value(), !lesson->library) << lesson->id;
        if (r.attributes) {
            EXPECT_GT(r.attributes->registers, 0);
            EXPECT_GT(r.attributes->occupancy, 0);
            EXPECT_LE(r.attributes->occupancy, 1.0);
        }
        // Every GPU result is judged against its matching ceiling and placed on the roofline.
        ASSERT_TRUE(r.pct_of_ceiling.has_value()) << lesson->id;
        // Read-mostly, except: chapter 2's divergence (fp32), add (copy) and transfer (H2D).
        // The roofline's step is held to the copy bandwidth or, past 16 flops per byte, to the
        // fp32 peak.
        const bool roofline_fp32 = r.work.flops >= 16 * r.work.MemoryBytes() && r.work.flops > 0;
        const Bound bound = overlapped || transfer                     ? Bound::kH2D
                            : lesson->id == "basics/branch-divergence" ? Bound::kFp32
                            : lesson->id == "basics/coalescing"        ? Bound::kCopy
                            : lesson->chapter == "roofline"
                                ? (roofline_fp32 ? Bound::kFp32 : Bound::kCopy)
                                : Bound::kRead;
        EXPECT_EQ(r.work.bound, bound) << lesson->id;
        const Ceilings& c = GetCeilings(0);
        // A memory bound's ceiling is measured over the step's own footprint, and named.
        const MemoryCeilingsAt own = GetMemoryCeilingsAt(0, r.work.MemoryBytes());
        EXPECT_EQ(*r.ceiling, bound == Bound::kH2D    ? c.h2d_gbps
                              : bound == Bound::kFp32 ? c.fp32_gflops
                              : bound == Bound::kCopy ? own.copy_gbps
                                                      : own.read_gbps)
            << lesson->id;
        if (bound == Bound::kRead || bound == Bound::kCopy) {
            ASSERT_TRUE(r.ceiling_bytes) << lesson->id;
            EXPECT_EQ(*r.ceiling_bytes, own.bytes) << lesson->id;
            EXPECT_GE(own.bytes, std::min<uint64_t>(r.work.MemoryBytes(), c.memory_bytes));
        } else {
            EXPECT_FALSE(r.ceiling_bytes) << lesson->id;
        }
        // The share is the step's rate over its ceiling (how large it is is a measurement: the
        // benchmark's, not this test's).
        EXPECT_NEAR(*r.pct_of_ceiling, 100.0 * r.Rate() / *r.ceiling, 1e-6 * *r.pct_of_ceiling)
            << lesson->id;
        ASSERT_TRUE(r.intensity && r.attainable_gflops) << lesson->id;
        EXPECT_EQ(r.devices, std::vector<std::string>{GetDevices().devices[0].name});
    }
}

TEST(Gpu, WithoutCeilingsThereIsNoPercentage) {
    REQUIRE_GPU();
    Session session(Lessons());
    RunOptions o;
    o.Set("size", "1MiB");
    o.reps = 1;
    o.measure_ceilings = false;
    const RunResult r = session.Run(*Lessons().FindLesson("reduce/v5-vectorized-one-pass"), o);
    ASSERT_TRUE(r.verified) << r.check_message;
    EXPECT_GT(r.gbps, 0);
    EXPECT_FALSE(r.ceiling || r.pct_of_ceiling || r.attainable_gflops);
}

TEST(Gpu, LargerThanDeviceMemoryIsAClearUsageError) {
    REQUIRE_GPU();
    Session session(Lessons());
    for (const Lesson* lesson : GpuLessons()) {
        RunOptions o;
        // The output buffer alone is 4x this for split lines.
        o.Set("size", std::to_string(GetDevices().devices[0].total_memory / 4 * 4));
        o.reps = 1;
        try {
            session.Run(*lesson, o);
            ADD_FAILURE() << lesson->id << " accepted a size larger than the GPU";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("memory"), std::string::npos) << e.what();
        }
        o.Set("size", "1000");
        EXPECT_TRUE(session.Run(*lesson, o).verified) << "the session goes on";
    }
}

#if LESSONS_HAVE_CUDA
namespace {

// "pair_test" -> "PairTest" (`separator` '_'), "per-hit" -> "PerHit" (`separator` '-').
std::string Camel(const std::string& s, char separator) {
    std::string out;
    bool upper = true;
    for (char c : s) {
        if (c == separator) {
            upper = true;
            continue;
        }
        out += upper ? char(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return out;
}

// "per-hit" -> "kPerHit": the enumerator a toggle's choice is indexed by.
std::string Enumerator(const std::string& choice) {
    return "k" + Camel(choice, '-');
}

}  // namespace

// The kernel variants behind reduction's toggles (no GPU needed): each lesson's source
// registers one kernel of its own per combination of its toggles, named for the values it
// implements, which are among the lesson's choices, so the harness runs what the user chose.
#if LESSONS_HAVE_CUDA
// The timing hold: events around a held region time the GPU's work, not the host's queuing.
// The host sleeps 50 ms between the two events; without the hold that is timed (the stop event
// cannot be recorded before it is queued), with it the GPU has not reached the start event when
// the stop is queued (asked of the event itself, no clock), so the events run back to back and
// their interval leaves the host's sleep out. The bound is the sleep, not a speed.
TEST(Gpu, AHeldStreamTimesTheGpuNotTheHostsQueuing) {
    REQUIRE_GPU();
    cuda::Stream stream;
    cuda::Event start, stop;
    const auto between = [&] {
        start.Record(stream.get());
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        stop.Record(stream.get());
    };
    between();
    const double unheld_ms = cuda::ElapsedMs(start, stop);
    {
        cuda::StreamHold hold(stream.get());
        between();
        EXPECT_EQ(cudaEventQuery(start.get()), cudaErrorNotReady)
            << "the GPU reached the start event while the stream was held";
        hold.Release();
    }
    const double held_ms = cuda::ElapsedMs(start, stop);
    EXPECT_GE(unheld_ms, 45.0) << "the host's 50 ms sleep lies between the events";
    EXPECT_LT(held_ms, 50.0) << "the events' interval holds the host's 50 ms sleep: the hold did "
                                "not keep the GPU from the events";
}

// A host that waits for its own held stream cannot release it: the hold lets go by itself,
// counted, and the stream goes on.
TEST(Gpu, AHoldNobodyReleasesLetsGoByItself) {
    REQUIRE_GPU();
    cuda::Stream stream;
    const unsigned long long before = cuda::StreamHoldTimeouts();
    {
        cuda::StreamHold hold(stream.get());
        stream.Synchronize();
    }
    EXPECT_EQ(cuda::StreamHoldTimeouts(), before + 1);
    cuda::Event start, stop;
    start.Record(stream.get());
    stop.Record(stream.get());
    EXPECT_GE(cuda::ElapsedMs(start, stop), 0.0);
}
#endif

TEST(GpuKernelTables, EachReduceToggleCombinationHasAKernelOfItsOwn) {
    using namespace lessons::reduce;
    // "last_warp" -> "LastWarp", "many-per-thread" -> "ManyPerThread".
    const auto camel = [](const std::string& s) {
        std::string out;
        bool upper = true;
        for (char c : s) {
            if (c == '-' || c == '_') {
                upper = true;
                continue;
            }
            out += upper ? char(std::toupper(static_cast<unsigned char>(c))) : c;
            upper = false;
        }
        return out;
    };
    std::set<const void*> kernels;
    size_t variants = 0;
    for (const Lesson& lesson : Lessons().lessons()) {
        if (lesson.chapter != "reduce") continue;
        const auto check = [&](const auto& found) {
            if (found.empty()) return;
            EXPECT_EQ(found.size(), ToggleCombinations(lesson).size()) << lesson.id;
            for (const auto* k : found) {
                ASSERT_TRUE(k->name && k->kernel) << lesson.id;
                kernels.insert(k->kernel);
                ++variants;
                for (const ToggleValue& t : k->toggles) {
                    if (!t.name) continue;
                    const ParamSpec* p = lesson.FindParam(t.name);
                    ASSERT_NE(p, nullptr) << k->name << ": " << t.name;
                    EXPECT_NE(std::find(p->choices.begin(), p->choices.end(), t.value),
                              p->choices.end())
                        << k->name << ": " << t.name << "=" << t.value;
                    const std::string part = camel(t.name) + "::k" + camel(t.value);
                    EXPECT_NE(std::string(k->name).find(part), std::string::npos)
                        << k->name << " " << part;
                }
            }
        };
        check(FindKernels<ReducePassKernel>(lesson.source_path));
        check(FindKernels<OnePassKernel>(lesson.source_path));
    }
    EXPECT_EQ(variants, 1u + 3u + 1u + 6u + 1u + 4u) << "v0 to v5";
    EXPECT_EQ(kernels.size(), variants);
}

// The kernels behind chapter 1's toggles (no GPU needed): the lesson's source registers one
// kernel of its own per combination of its toggles, named for the values it implements, which
// are among the lesson's choices, so the harness runs what the user chose.
TEST(GpuKernelTables, EachSplitToggleCombinationHasAKernelOfItsOwn) {
    std::set<const void*> kernels;
    std::set<std::string> names;
    std::vector<std::string> toggled;
    const auto camel = [](const std::string& s) { return Camel(s, '_'); };
    for (const Lesson& lesson : Lessons().lessons()) {
        if (lesson.chapter != "split" || Toggles(lesson).empty()) continue;
        toggled.push_back(lesson.id);
        const auto found = FindKernels<split::SplitKernel>(lesson.source_path);
        ASSERT_EQ(found.size(), ToggleCombinations(lesson).size()) << lesson.id;
        int as_written = 0;
        for (const split::SplitKernel* k : found) {
            ASSERT_TRUE(k->name && k->kernel && k->launch) << lesson.id;
            kernels.insert(k->kernel);
            names.insert(k->name);
            bool per_hit = false, all_first = true;
            for (const ToggleValue& t : k->toggles) {
                ASSERT_TRUE(t.name && t.value) << k->name;
                const ParamSpec* p = lesson.FindParam(t.name);
                ASSERT_NE(p, nullptr) << k->name << ": " << t.name;
                EXPECT_NE(std::find(p->choices.begin(), p->choices.end(), t.value),
                          p->choices.end())
                    << k->name << ": " << t.name << "=" << t.value;
                const std::string part = camel(t.name) + "::" + Enumerator(t.value);
                EXPECT_NE(std::string(k->name).find(part), std::string::npos)
                    << k->name << " " << part;
                per_hit = per_hit ||
                          (t.name == std::string("output") && t.value == std::string("per-hit"));
                all_first = all_first && p->Default().choice == t.value;
            }
            as_written += all_first;
            EXPECT_EQ(all_first,
                      std::all_of(k->toggles.begin(), k->toggles.end(), split::AsWritten))
                << k->name;
            if (per_hit) {
                EXPECT_EQ(k->dynamic_smem(512), 0u) << "nothing staged";
            } else {
                EXPECT_EQ(k->dynamic_smem(512), 32u * 1024) << "unchanged";
            }
        }
        EXPECT_EQ(as_written, 1) << "one kernel is the lesson as written";
    }
    EXPECT_EQ(toggled, std::vector<std::string>{"split/vector-loads-block-compaction"});
    EXPECT_EQ(kernels.size(), 16u) << "output x loads x pair_test x exits";
    EXPECT_EQ(names.size(), kernels.size());
}

void LaunchIllegalAddressAndSync();  // fault_kernel.cu

// A kernel fault must surface as a CudaError marked sticky, so that a worker knows to exit
// and be replaced. Run in a fresh process: the fault ruins the context it happens in.
TEST(GpuDeathTest, IllegalAddressIsReportedAsSticky) {
    REQUIRE_GPU();
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            try {
                LaunchIllegalAddressAndSync();
            } catch (const CudaError& e) {
                std::fprintf(stderr, "%s\n", e.what());
                std::exit(e.sticky() ? 3 : 4);
            }
            std::exit(5);
        },
        ::testing::ExitedWithCode(3), "cudaErrorIllegalAddress.*must be restarted");
}
#endif

// --- Several GPUs (lessons 12-14, 27, 44-47) ---

namespace {

#define REQUIRE_GPUS(n)                                                                            \
    do {                                                                                           \
        REQUIRE_GPU();                                                                             \
        if (GetDevices().count() < (n))                                                            \
            GTEST_SKIP() << "needs " << (n) << " GPUs, this machine has " << GetDevices().count(); \
    } while (0)

// The lessons that take a GPU count.
std::vector<const Lesson*> MultiGpuLessons() {
    std::vector<const Lesson*> out;
    for (const Lesson& l : Lessons().lessons())
        for (const ParamSpec& p : l.params)
            if (p.gpu_count) out.push_back(&l);
    return out;
}

// The lesson, or null with a note when it cannot run in this process (NCCL missing).
const Lesson* Runnable(const Lesson* l) {
    if (l && l->runner.unavailable && !l->runner.unavailable().empty()) {
        std::printf("note: lesson %s skipped: %s\n", l->id.c_str(),
                    l->runner.unavailable().c_str());
        return nullptr;
    }
    return l;
}

// Element counts at the edges: empty, one, fewer than a share's alignment, sizes that are not
// a multiple of the GPU count, shares that end inside the data, and a larger odd size.
std::vector<uint64_t> MultiGpuCounts(const Lesson& l) {
    // One process per GPU: every run starts the ranks (a program, CUDA, NCCL) anew.
    if (l.runner.rank) return {0, 1025, (1u << 20) + 3};
    if (l.chapter == "split") return {0, 1, 2, 3, 4095, 4096, 4097, 8193, 12289, (1u << 20) + 7};
    return {0, 1, 2, 3, 5, 1023, 1025, 4097, 65537, (1u << 20) + 3};
}

void RunMultiGpuEdges(int gpus) {
    Session session(Lessons());
    for (const Lesson* multi : MultiGpuLessons()) {
        const Lesson* lesson = Runnable(multi);
        if (!lesson) continue;
        for (const std::string& kind : lesson->FindParam("data")->choices)
            for (uint64_t count : MultiGpuCounts(*lesson)) {
                RunOptions o;
                o.Set("size", std::to_string(count * ElementBytes(*lesson)));
                o.Set("data", kind);
                o.Set("gpus", std::to_string(gpus));
                o.seed = count + 11;
                o.reps = 2;  // the second run reuses the buffers
                o.measure_ceilings = false;
                const RunResult r = session.Run(*lesson, o);
                ASSERT_TRUE(r.verified) << lesson->id << " gpus=" << gpus << " " << kind
                                        << " count=" << count << ": " << r.check_message;
                ASSERT_EQ(r.devices.size(), size_t(gpus)) << lesson->id;
                for (int g = 0; g < gpus; ++g)
                    if (lesson->id != "allreduce/peer-copies-add-kernel" || g == 0) {
                        const std::string part =
                            (lesson->runner.rank ? "rank" : "gpu") + std::to_string(g) + " ";
                        bool any = false;
                        for (const TimedPart& p : r.parts) any = any || p.name.rfind(part, 0) == 0;
                        EXPECT_TRUE(any) << lesson->id << ": no part of GPU " << g;
                    }
            }
    }
}

}  // namespace

TEST(MultiGpu, EveryMultiGpuLessonAtEdgeSizesOnOneGpu) {
    REQUIRE_GPU();
    RunMultiGpuEdges(1);
}

TEST(MultiGpu, EveryMultiGpuLessonAtEdgeSizesOnTwoGpus) {
    REQUIRE_GPUS(2);
    RunMultiGpuEdges(2);
}

TEST(MultiGpu, PairsStraddlingTheSharesOfTwoGpusAreFoundOnce) {
    REQUIRE_GPUS(2);
    // Shares start on 4 KiB pages (split_multi_harness.cu): with n = 3 x 4096 + 3 the boundary
    // between GPU 0's and GPU 1's shares is ShareOf(n, 2, 0, 4096).end.
    for (uint64_t n : {uint64_t(3 * 4096 + 3), uint64_t(8192 + 5), uint64_t((1u << 20) + 7)}) {
        const uint64_t edge = ShareOf(n, 2, 0, 4096).end;
        ASSERT_GT(edge, 3u);
        ASSERT_LT(edge + 2, n);
        std::string text(n, 'x');
        text[edge - 3] = '\r';  // ends right before the boundary
        text[edge - 2] = '\n';
        text[edge - 1] = '\r';  // straddles it
        text[edge] = '\n';
        text[edge + 1] = '\r';  // starts right after it
        text[edge + 2] = '\n';
        const std::string path = ::testing::TempDir() + "/shares_" + std::to_string(getpid());
        std::ofstream(path, std::ios::binary) << text;
        Session session(Lessons());
        int runs = 0;
        for (const Lesson& lesson : Lessons().lessons()) {
            if (lesson.chapter != "split" || !lesson.FindParam("gpus")) continue;
            ++runs;
            RunOptions o;
            o.input_file = path;
            o.Set("gpus", "2");
            o.reps = 1;
            o.measure_ceilings = false;
            const RunResult r = session.Run(lesson, o);
            EXPECT_TRUE(r.verified) << lesson.id << " n=" << n << ": " << r.check_message;
            EXPECT_EQ(Found(r), 3u) << lesson.id << " n=" << n;
        }
        EXPECT_EQ(runs, 3) << "scatter-gather, openmp-per-gpu, each-scans-its-share";
        std::remove(path.c_str());
    }
}

// Each multi-GPU lesson against the ceilings of the GPUs it used: the links to the host added
// up (split), the memories' read bandwidth added up, each over its GPU's share of the bytes
// (the multi-GPU reduction), the peer copy (chapter 7, 2 GPUs).
TEST(MultiGpu, PartsCeilingsAndDevices) {
    REQUIRE_GPU();
    const int gpus = std::min(2, GetDevices().count());
    Session session(Lessons());
    for (const Lesson* multi : MultiGpuLessons()) {
        const Lesson* lesson = Runnable(multi);
        if (!lesson) continue;
        RunOptions o;
        o.Set("size", "8MiB");
        o.Set("gpus", std::to_string(gpus));
        o.reps = 3;
        const RunResult r = session.Run(*lesson, o);
        ASSERT_TRUE(r.verified) << lesson->id << ": " << r.check_message;
        ASSERT_EQ(r.devices.size(), size_t(gpus));
        EXPECT_GT(r.median_ms, 0);
        // One process per GPU: NCCL maps the peers in each rank; the step reports its ranks.
        EXPECT_EQ(r.Value(lesson->runner.rank ? "ranks" : "peer_access").has_value(), true)
            << lesson->id;
        // H2D adds up over the GPUs; a memory bound is each GPU's streaming of its own share.
        double h2d = 0, read = 0;
        for (int g = 0; g < gpus; ++g) {
            h2d += GetCeilings(g).h2d_gbps;
            read += GetMemoryCeilingsAt(g, r.work.MemoryBytes() / uint64_t(gpus)).read_gbps;
        }
        if (lesson->chapter == "split") {
            EXPECT_EQ(r.work.bound, Bound::kH2D) << lesson->id;
            ASSERT_TRUE(r.ceiling) << lesson->id;
            EXPECT_DOUBLE_EQ(*r.ceiling, h2d) << lesson->id;
            ASSERT_TRUE(r.Part("h2d") && r.Part("kernel") && r.Part("d2h")) << lesson->id;
            EXPECT_EQ(r.Part("peer").has_value(), lesson->id != "split/each-scans-its-share")
                << lesson->id;
        } else if (lesson->chapter == "reduce") {
            EXPECT_EQ(r.work.bound, Bound::kRead);
            ASSERT_TRUE(r.ceiling);
            EXPECT_DOUBLE_EQ(*r.ceiling, read);
            ASSERT_TRUE(r.ceiling_bytes);
            EXPECT_EQ(*r.ceiling_bytes,
                      GetMemoryCeilingsAt(0, r.work.MemoryBytes() / uint64_t(gpus)).bytes);
            ASSERT_TRUE(r.Part("kernel") && r.Part("nccl"));
        } else {
            EXPECT_EQ(r.work.bound, Bound::kPeer) << lesson->id;
            EXPECT_EQ(r.work.peer_bytes, gpus > 1 ? (8u << 20) : 0u) << lesson->id;
            if (gpus > 1) {
                ASSERT_TRUE(r.ceiling) << lesson->id;
                EXPECT_DOUBLE_EQ(*r.ceiling, GetCeilings(0).peer_gbps[1]);
            }
        }
        if (r.pct_of_ceiling) {
            ASSERT_TRUE(r.ceiling) << lesson->id;
            EXPECT_NEAR(*r.pct_of_ceiling, 100.0 * r.Rate() / *r.ceiling, 1e-6 * *r.pct_of_ceiling)
                << lesson->id;
        }
    }
}

// One process per GPU: a rank killed mid-run ends the run with a message naming it, and no
// rank (nor anything a rank started) is left behind.
namespace {

// This process's children (every thread's), from /proc.
std::vector<pid_t> Children() {
    std::vector<pid_t> out;
    const std::string tasks = "/proc/" + std::to_string(getpid()) + "/task";
    for (const auto& task : std::filesystem::directory_iterator(tasks)) {
        std::ifstream in(task.path() / "children");
        pid_t pid;
        while (in >> pid) out.push_back(pid);
    }
    return out;
}

void UseTheCliForRanks() {}

}  // namespace

TEST(Ranks, AKilledRankEndsTheRunNamingItAndLeavesNoProcess) {
    REQUIRE_GPU();
    const Lesson* lesson = Runnable(Lessons().FindLesson("allreduce/one-process-per-gpu"));
    if (!lesson) GTEST_SKIP() << "NCCL is missing";
    UseTheCliForRanks();
    const int gpus = std::min(2, GetDevices().count());
    const int victim = gpus - 1;
    std::atomic<bool> done{false};
    std::string error;
    std::vector<pid_t> seen;
    std::thread run([&] {
        Session session(Lessons());
        RunOptions o;
        o.Set("size", "64MiB");
        o.Set("gpus", std::to_string(gpus));
        o.reps = 100000;  // 20 ms each: far longer than the test waits
        o.min_time_s = 60;
        o.max_time_s = 120;
        o.measure_ceilings = false;
        try {
            session.Run(*lesson, o);
        } catch (const std::exception& e) {
            error = e.what();
        }
        done = true;
    });
    // Wait for the ranks, then for them to be running all-reduces, then kill the last.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!done && std::chrono::steady_clock::now() < deadline) {
        seen = Children();
        if (int(seen.size()) == gpus) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_EQ(int(seen.size()), gpus) << "the ranks did not start: " << error;
    std::sort(seen.begin(), seen.end());                   // started in rank order
    std::this_thread::sleep_for(std::chrono::seconds(8));  // past NCCL's start-up
    ASSERT_FALSE(done) << "the run ended before a rank was killed: " << error;
    ASSERT_EQ(kill(seen[size_t(victim)], SIGKILL), 0);
    run.join();
    EXPECT_NE(error.find("rank " + std::to_string(victim) + " ("), std::string::npos) << error;
    EXPECT_NE(error.find("killed by signal 9"), std::string::npos) << error;
    for (pid_t pid : seen) EXPECT_FALSE(ProcessAlive(pid)) << "rank pid " << pid << " is left";
    EXPECT_TRUE(Children().empty());
}

// Across hosts: each "host" started through the remote shell (here a stand-in that runs the
// command on this machine with one GPU visible, tests/rsh-as-hosts.sh), one rank per host.
TEST(Ranks, RanksOnSeveralHostsStartThroughTheRemoteShell) {
    REQUIRE_GPUS(2);
    const Lesson* lesson = Runnable(Lessons().FindLesson("allreduce/one-process-per-gpu"));
    if (!lesson) GTEST_SKIP() << "NCCL is missing";
    UseTheCliForRanks();
    setenv("CUDA_LESSONS_HOSTS", "node0,node1", 1);
    setenv("CUDA_LESSONS_RSH", LESSONS_SOURCE_DIR "/tests/rsh-as-hosts.sh", 1);
    Session session(Lessons());
    RunOptions o;
    o.Set("size", "1MiB");
    o.Set("gpus", "1");
    o.reps = 3;
    o.measure_ceilings = false;
    std::string error;
    std::optional<RunResult> r;
    try {
        r = session.Run(*lesson, o);
    } catch (const std::exception& e) {
        error = e.what();
    }
    unsetenv("CUDA_LESSONS_HOSTS");
    unsetenv("CUDA_LESSONS_RSH");
    ASSERT_TRUE(r) << error;
    EXPECT_TRUE(r->verified) << r->check_message;
    EXPECT_EQ(*r->Value("ranks"), 2);
    EXPECT_TRUE(r->Part("rank1 nccl"));
    EXPECT_TRUE(Children().empty());
}

TEST(Ranks, ARankThatCannotLoadNcclIsNamed) {
    REQUIRE_GPU();
    const Lesson* lesson = Runnable(Lessons().FindLesson("allreduce/one-process-per-gpu"));
    if (!lesson) GTEST_SKIP() << "NCCL is missing";
    UseTheCliForRanks();
    setenv("CUDA_LESSONS_NCCL", "/nonexistent/libnccl.so.2", 1);  // the ranks', not ours (loaded)
    Session session(Lessons());
    RunOptions o;
    o.Set("size", "4KiB");
    o.measure_ceilings = false;
    std::string error;
    try {
        session.Run(*lesson, o);
    } catch (const std::exception& e) {
        error = e.what();
    }
    unsetenv("CUDA_LESSONS_NCCL");
    EXPECT_NE(error.find("rank 0 (GPU 0, pid "), std::string::npos) << error;
    EXPECT_NE(error.find("NCCL not found"), std::string::npos) << error;
    EXPECT_TRUE(Children().empty());
}

TEST(Ranks, OneProcessPerGpuMatchesTheOneProcessCallAndFitsAlphaBeta) {
    REQUIRE_GPU();
    const Lesson* one = Runnable(Lessons().FindLesson("allreduce/nccl"));
    const Lesson* ranks = Runnable(Lessons().FindLesson("allreduce/one-process-per-gpu"));
    if (!one || !ranks) GTEST_SKIP() << "NCCL is missing";
    UseTheCliForRanks();
    const int gpus = GetDevices().count();
    Session session(Lessons());
    std::vector<std::pair<uint64_t, double>> points;
    for (const char* size : {"64KiB", "1MiB", "16MiB", "64MiB"}) {
        RunOptions o;
        o.Set("size", size);
        o.Set("gpus", std::to_string(gpus));
        o.measure_ceilings = false;
        const RunResult r = session.Run(*ranks, o);
        ASSERT_TRUE(r.verified) << size << ": " << r.check_message;
        ASSERT_TRUE(r.Value("all_reduces_per_sample").has_value());
        EXPECT_GE(*r.Value("all_reduces_per_sample"), 1);
        EXPECT_EQ(*r.Value("ranks"), gpus);
        points.push_back({r.params.Number("size"), r.median_ms});
        if (std::string(size) == "64MiB" && gpus > 1) {
            const RunResult base = session.Run(*one, o);
            ASSERT_TRUE(base.verified);
            // A figure, not a verdict: no timing thresholds in tests.
            std::printf("note: 64 MiB on %d GPUs: one process %.3f ms, one per GPU %.3f ms\n", gpus,
                        base.median_ms, r.median_ms);
        }
    }
    const Chapter& chapter = Lessons().ChapterOf(*ranks);
    ASSERT_TRUE(chapter.size_fit);
    ParamValues p;
    p.Set("gpus", ParamValue::Number(uint64_t(gpus)));
    const Chapter::Fit fit = chapter.size_fit(points, p);
    std::printf("note: %s\n", fit.en.c_str());
    EXPECT_NE(fit.en.find(gpus > 1 ? "alpha =" : "not fitted"), std::string::npos) << fit.en;
}

TEST(MultiGpu, MoreGpusThanPresentIsAUsageErrorNamingTheCount) {
    REQUIRE_GPU();
    Session session(Lessons());
    RunOptions o;
    o.Set("gpus", std::to_string(GetDevices().count() + 1));
    o.Set("size", "4KiB");
    try {
        session.Run(*Lessons().FindLesson("split/each-scans-its-share"), o);
        FAIL() << "expected a usage error";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("present: use 1 to"), std::string::npos) << e.what();
    }
}

#if LESSONS_HAVE_CUDA
TEST(MultiGpu, WithoutNcclTheNcclLessonsSaySoAndTheOthersRun) {
    REQUIRE_GPU();
    const std::string env = "CUDA_LESSONS_NCCL=/nonexistent/libnccl.so.2 ";
    FILE* pipe = popen((env + CliPath() + " list 2>&1").c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, n);
    pclose(pipe);
    EXPECT_NE(text.find("unavailable: NCCL not found"), std::string::npos) << text;
    EXPECT_EQ(
        std::system((env + CliPath() +
                     " run allreduce/ring --size 1MiB --reps 1 --no-ceilings > /dev/null 2>&1")
                        .c_str()),
        0);
    const int code =
        std::system((env + CliPath() +
                     " run allreduce/nccl --size 1MiB --reps 1 --no-ceilings > /dev/null 2>&1")
                        .c_str());
    EXPECT_NE(code, 0) << "lesson 47 cannot run without NCCL";
}
#endif

#if LESSONS_HAVE_CUDA
// The NCCL loader, in fresh processes (it loads once per process). No GPU needed.
TEST(NcclLoaderDeathTest, AMissingLibrarySaysWhatToInstallAndWhereItLooked) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            setenv("CUDA_LESSONS_NCCL", "/nonexistent/libnccl.so.2", 1);
            unsetenv("NCCL_NVLS_ENABLE");
            const bool missing = nccl::Load() == nullptr;
            const std::string why = nccl::Unavailable();
            const char* nvls = std::getenv("NCCL_NVLS_ENABLE");
            std::fprintf(stderr, "%s\n", why.c_str());
            std::exit(missing && why.find("/nonexistent/libnccl.so.2") != std::string::npos &&
                              nvls && std::string(nvls) == "0"
                          ? 0
                          : 1);
        },
        ::testing::ExitedWithCode(0), "unavailable: NCCL not found.*install.*CUDA_LESSONS_NCCL");
}

// A CUDA_LESSONS_NCCL that is no library (a directory, a text file): the loader's own reason is
// said, not only the path.
TEST(NcclLoaderDeathTest, AChosenFileThatIsNoLibrarySaysWhy) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::string dir = ::testing::TempDir();
    EXPECT_EXIT(
        {
            setenv("CUDA_LESSONS_NCCL", dir.c_str(), 1);
            const bool missing = nccl::Load() == nullptr;
            const std::string why = nccl::Unavailable();
            std::fprintf(stderr, "%s\n", why.c_str());
            std::exit(missing ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "NCCL not found \\(tried .* \\(.*[Dd]irectory.*\\)\\)");
}

// A text file and a character device named as the library: each refused with dlopen's reason
// (not an ELF file), never read at length.
TEST(NcclLoaderDeathTest, ATextFileOrADeviceIsNoLibraryEither) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::string text = ::testing::TempDir() + "/not-nccl.so";
    {
        std::FILE* f = std::fopen(text.c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fputs("this is a text file, not a shared library\n", f);
        std::fclose(f);
    }
    for (const std::string& path : {text, std::string("/dev/zero")}) {
        EXPECT_EXIT(
            {
                setenv("CUDA_LESSONS_NCCL", path.c_str(), 1);
                const bool missing = nccl::Load() == nullptr;
                const std::string why = nccl::Unavailable();
                std::fprintf(stderr, "%s\n", why.c_str());
                std::exit(missing ? 0 : 1);
            },
            ::testing::ExitedWithCode(0), "NCCL not found \\(tried .*" + path + ".* \\(.+\\)\\)")
            << path;
    }
}

TEST(NcclLoaderDeathTest, TheToolkitsNcclLoadsAndAUserNvlsSettingIsKept) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            unsetenv("CUDA_LESSONS_NCCL");
            setenv("NCCL_NVLS_ENABLE", "1", 1);
            if (!nccl::Load()) {
                std::fprintf(stderr, "no NCCL here: %s\n", nccl::Unavailable().c_str());
                std::exit(77);
            }
            std::fprintf(stderr, "%s\n", nccl::Describe().c_str());
            std::exit(std::string(std::getenv("NCCL_NVLS_ENABLE")) == "1" ? 0 : 1);
        },
        [](int status) {
            return WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 77);
        },
        "");
}

TEST(NcclLoader, CandidatesAreTheVariableAloneWhenSet) {
    const char* old = std::getenv("CUDA_LESSONS_NCCL");
    const std::string saved = old ? old : "";
    setenv("CUDA_LESSONS_NCCL", "/x/libnccl.so.2", 1);
    EXPECT_EQ(nccl::Candidates(), std::vector<std::string>{"/x/libnccl.so.2"});
    unsetenv("CUDA_LESSONS_NCCL");
    const std::vector<std::string> c = nccl::Candidates();
    ASSERT_GE(c.size(), 2u);
    EXPECT_EQ(c.front(), "libnccl.so.2");
    EXPECT_NE(std::find(c.begin(), c.end(), "/usr/local/cuda/lib64/libnccl.so.2"), c.end());
    if (old) setenv("CUDA_LESSONS_NCCL", saved.c_str(), 1);
}

// `list` and `info` ask each NCCL step whether it can run, and `info` what NCCL is: found
// without loading it (about 218 MB of address space on the H200 machine), while a missing or
// broken library keeps the loader's message. No GPU needed; exit 77: no NCCL here.
TEST(NcclLoaderDeathTest, ListAndInfoFindNcclWithoutLoadingIt) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            unsetenv("CUDA_LESSONS_NCCL");
            bool found = false;
            for (const std::string& c : nccl::Candidates()) found |= !FindLibraryFile(c).empty();
            if (!found) std::exit(77);
            std::string why;
            int asked = 0;
            for (const char* id :
                 {"allreduce/nccl", "allreduce/one-process-per-gpu", "reduce/multi-gpu-nccl"}) {
                const Lesson* l = Lessons().FindLesson(id);
                if (!l || !l->runner.unavailable) continue;
                why += l->runner.unavailable();
                ++asked;
            }
            if (asked != 3) std::exit(2);  // an NCCL step lost its question
            const std::string status = NcclStatus();
            void* loaded = dlopen("libnccl.so.2", RTLD_LAZY | RTLD_NOLOAD);
            std::fprintf(stderr, "unavailable: '%s'; info: %s; loaded: %s\n", why.c_str(),
                         status.c_str(), loaded ? "yes" : "no");
            std::exit(!loaded && why.empty() && status.find("found") != std::string::npos ? 0 : 1);
        },
        [](int status) {
            return WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 77);
        },
        "");
    EXPECT_EXIT(
        {
            setenv("CUDA_LESSONS_NCCL", "/nonexistent/libnccl.so.2", 1);
            const std::string why = NcclUnavailable();
            std::fprintf(stderr, "%s\n", why.c_str());
            std::exit(why.empty() ? 1 : 0);
        },
        ::testing::ExitedWithCode(0),
        "unavailable: NCCL not found \\(tried /nonexistent/libnccl.so.2 \\(.+\\)\\).*install");
}
#endif
