// Chapter 5's CPU parts: the reference against hand-computed products, the sampled check,
// the tolerance, and the check's rules (NaN or Inf anywhere fails); the tile configurations'
// names and descriptions, and the catalogue's tile choices made from them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "catalog.h"
#include "gemm/gemm_cpu.h"
#include "gemm/gemm_tiles.h"
#include "gemm_chapter.h"
#include "gemm_steps.h"
#include "lesson.h"

using namespace lessons;
using namespace lessons::gemm;

namespace {

WorkloadSpec Spec(uint64_t m, uint64_t n, uint64_t k, const char* data = "random") {
    WorkloadSpec spec;
    spec.params.Set("m", ParamValue::Number(m));
    spec.params.Set("n", ParamValue::Number(n));
    spec.params.Set("k", ParamValue::Number(k));
    spec.params.Set("data", ParamValue::Choice(data));
    spec.seed = 7;
    return spec;
}

// Every tiled step's table.
const std::span<const GemmTile> kTileTables[] = {kTilesSharedMemoryTiles,
                                                 kTiles1dRegisterBlocking,
                                                 kTiles2dRegisterBlocking,
                                                 kTilesVectorizedTransposedA,
                                                 kTilesWarpTiling,
                                                 kTilesDoubleBuffering,
                                                 kTilesWmmaTf32};

// A name read back into the shape it says ("256t-128x256x8-w64x64-s3"); min_blocks, which no
// name carries, stays 1. nullopt when the name is malformed.
std::optional<GemmTile> ParseTileName(const std::string& name) {
    GemmTile t;
    char rest[32] = {};
    const int read =
        std::sscanf(name.c_str(), "%dt-%dx%dx%d%31s", &t.threads, &t.bm, &t.bn, &t.bk, rest);
    if (read < 4) return std::nullopt;
    std::string tail = read == 5 ? rest : "";
    for (GemmAblation a :
         {GemmAblation::kScalarGlobal, GemmAblation::kUntransposedA, GemmAblation::kRowLanes}) {
        const std::string suffix = AblationSuffix(a);
        if (tail.size() > suffix.size() && tail.ends_with(suffix)) {
            t.ablation = a;
            tail.resize(tail.size() - suffix.size());
        }
    }
    if (const size_t s = tail.find("-s"); s != std::string::npos) {
        t.stages = std::stoi(tail.substr(s + 2));
        tail = tail.substr(0, s);
    }
    if (tail.rfind("-w", 0) == 0) {
        if (std::sscanf(tail.c_str(), "-w%dx%d", &t.wm, &t.wn) != 2) return std::nullopt;
    } else if (!tail.empty()) {
        if (std::sscanf(tail.c_str(), "-%dx%d", &t.tm, &t.tn) != 2) return std::nullopt;
    }
    return t;
}

// C as the reference says, rounded to float: what a correct step writes.
std::vector<float> ReferenceC(const GemmWorkload& w) {
    std::vector<float> c(size_t(w.m()) * size_t(w.n()), 0.0f);
    for (size_t s = 0; s < w.checked().size(); ++s)
        c[w.checked()[s]] = float(w.reference()[s].value);
    return c;
}

}  // namespace

TEST(GemmReference, HandComputedProducts) {
    // [1 2 3; 4 5 -6] · [7 8; 9 10; 11 -12] = [58 -8; 7 154]
    const float a[] = {1, 2, 3, 4, 5, -6};
    const float b[] = {7, 8, 9, 10, 11, -12};
    double c[4], mag[4];
    GemmReference(a, b, 2, 2, 3, c, mag);
    EXPECT_EQ(c[0], 58.0);
    EXPECT_EQ(c[1], -8.0);
    EXPECT_EQ(c[2], 7.0);      // 28 + 45 - 66
    EXPECT_EQ(c[3], 154.0);    // 32 + 50 + 72
    EXPECT_EQ(mag[0], 58.0);   // 7 + 18 + 33
    EXPECT_EQ(mag[1], 64.0);   // 8 + 20 + 36
    EXPECT_EQ(mag[2], 139.0);  // 28 + 45 + 66
    EXPECT_EQ(mag[3], 154.0);  // 32 + 50 + 72
    const ReferenceElement e = GemmReferenceAt(a, b, 2, 3, 1, 0);
    EXPECT_EQ(e.value, 7.0);
    EXPECT_EQ(e.magnitude, 139.0);
    // 1 × 1 × 1, and a row times a column.
    const float x = -3.0f, y = 0.5f;
    GemmReference(&x, &y, 1, 1, 1, c, mag);
    EXPECT_EQ(c[0], -1.5);
    EXPECT_EQ(mag[0], 1.5);
    const float row[] = {1, 2, 3, 4}, col[] = {4, 3, 2, 1};
    GemmReference(row, col, 1, 1, 4, c, mag);
    EXPECT_EQ(c[0], 20.0);
}

TEST(GemmReference, OneElementMatchesTheFullProduct) {
    const GemmWorkload w(Spec(17, 33, 65));
    ASSERT_TRUE(w.full_check());
    ASSERT_EQ(w.checked().size(), size_t(17 * 33));
    for (uint64_t at : {uint64_t(0), uint64_t(40), uint64_t(17 * 33 - 1)}) {
        const ReferenceElement e =
            GemmReferenceAt(w.a(), w.b(), 33, 65, int(at / 33), int(at % 33));
        EXPECT_DOUBLE_EQ(e.value, w.reference()[at].value);
        EXPECT_DOUBLE_EQ(e.magnitude, w.reference()[at].magnitude);
    }
}

TEST(GemmWorkload, DataKindsAndSeeds) {
    const GemmWorkload ones(Spec(3, 5, 7, "ones"));
    for (const ReferenceElement& e : ones.reference()) EXPECT_EQ(e.value, 7.0);
    const GemmWorkload r1(Spec(4, 4, 4)), r2(Spec(4, 4, 4));
    EXPECT_EQ(std::vector<float>(r1.a(), r1.a() + 16), std::vector<float>(r2.a(), r2.a() + 16));
    EXPECT_NE(std::vector<float>(r1.a(), r1.a() + 16), std::vector<float>(r1.b(), r1.b() + 16));
    for (int i = 0; i < 16; ++i) EXPECT_TRUE(r1.a()[i] >= -1.0f && r1.a()[i] < 1.0f);
}

TEST(GemmWorkload, FullUpTo512CubedThenSampled) {
    EXPECT_TRUE(GemmWorkload(Spec(512, 512, 512, "ones")).full_check());
    EXPECT_TRUE(GemmWorkload(Spec(65, 64, 32768, "ones")).full_check());  // few elements
    const GemmWorkload w(Spec(1030, 263, 531));                           // 143.8 M multiply-adds
    EXPECT_FALSE(w.full_check());
    EXPECT_GE(w.checked().size(), size_t(kSampledElements));
    const auto has = [&](uint64_t at) {
        return std::find(w.checked().begin(), w.checked().end(), at) != w.checked().end();
    };
    EXPECT_TRUE(has(0));
    EXPECT_TRUE(has(262));
    EXPECT_TRUE(has(1029ull * 263));
    EXPECT_TRUE(has(1030ull * 263 - 1));
    for (size_t s = 0; s < w.checked().size(); s += 97) {
        const uint64_t at = w.checked()[s];
        EXPECT_DOUBLE_EQ(
            GemmReferenceAt(w.a(), w.b(), 263, 531, int(at / 263), int(at % 263)).value,
            w.reference()[s].value);
    }
}

TEST(GemmTolerance, ScalesWithKAndTf32IsLooser) {
    EXPECT_DOUBLE_EQ(GemmTolerance(1, false), 8 * std::ldexp(1.0, -24));
    EXPECT_DOUBLE_EQ(GemmTolerance(4096, false), 8 * 64 * std::ldexp(1.0, -24));
    EXPECT_GT(GemmTolerance(4096, true), 4 * GemmTolerance(4096, false));
    EXPECT_DOUBLE_EQ(GemmTolerance(4096, true),
                     GemmTolerance(4096, false) + 16 * std::ldexp(1.0, -11) / 64);
}

TEST(GemmCheck, CorrectPassesAndWrongFails) {
    const GemmWorkload w(Spec(17, 33, 65));
    std::vector<float> c = ReferenceC(w);
    EXPECT_TRUE(CheckGemm(w, c.data(), false).ok) << CheckGemm(w, c.data(), false).message;
    // Just inside and just outside the tolerance at one element.
    const size_t at = 100;
    const double tol = GemmTolerance(65, false) * w.reference()[at].magnitude;
    c[at] = float(w.reference()[at].value + 0.5 * tol);
    EXPECT_TRUE(CheckGemm(w, c.data(), false).ok);
    c[at] = float(w.reference()[at].value + 4 * tol);
    const Check bad = CheckGemm(w, c.data(), false);
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.message.find("C[3][1]"), std::string::npos) << bad.message;
    // Said with its form: the same words in Chinese, with the same element.
    EXPECT_EQ(bad.message_id, kProductWrong.id);
    RegisterMessageForms(ProductMessages());  // as the catalogue does for chapters 5 and 8
    const std::string zh = Render(Message{bad.message_id, bad.message_args, bad.message}, "zh");
    EXPECT_NE(zh.find("个不对；C[3][1] = "), std::string::npos) << zh;
    // The same error is inside TF32's tolerance.
    EXPECT_TRUE(CheckGemm(w, c.data(), true).ok);
    // One product left out (what a kernel that skips a k-step would do) fails.
    c = ReferenceC(w);
    c[at] =
        float(w.reference()[at].value - double(w.a()[3 * 65 + 64]) * double(w.b()[64 * 33 + 1]));
    EXPECT_FALSE(CheckGemm(w, c.data(), false).ok);
}

TEST(GemmCheck, NaNOrInfAnywhereFails) {
    for (float bad :
         {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
          -std::numeric_limits<float>::infinity()}) {
        const GemmWorkload full(Spec(17, 33, 65));
        std::vector<float> c = ReferenceC(full);
        c[5] = bad;
        const Check check = CheckGemm(full, c.data(), true);
        EXPECT_FALSE(check.ok);
        EXPECT_NE(check.message.find("NaN or Inf"), std::string::npos) << check.message;
        RegisterMessageForms(ProductMessages());
        EXPECT_EQ(Render(Message{check.message_id, check.message_args, check.message}, "zh"),
                  "C 中有 1 个元素是 NaN 或 Inf，第一个是 C[0][5]");
    }
    // Sampled: a NaN where no sample looks is still found by the scan of all of C.
    const GemmWorkload w(Spec(1030, 263, 531));
    std::vector<float> c = ReferenceC(w);
    ASSERT_TRUE(CheckGemm(w, c.data(), false).ok);
    uint64_t unsampled = 1;
    while (std::find(w.checked().begin(), w.checked().end(), unsampled) != w.checked().end())
        ++unsampled;
    c[unsampled] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(CheckGemm(w, c.data(), false).ok);
    // A C that is all NaN (a kernel that wrote nothing; the harness fills C with NaN first).
    std::fill(c.begin(), c.end(), std::numeric_limits<float>::quiet_NaN());
    EXPECT_FALSE(CheckGemm(w, c.data(), true).ok);
}

TEST(GemmNeeds, GrowWithTheMatricesAndSaturate) {
    ParamValues p;
    p.Set("m", ParamValue::Number(4096));
    p.Set("n", ParamValue::Number(4096));
    p.Set("k", ParamValue::Number(4096));
    const MemoryNeeds needs = GemmGpuNeeds(p);
    EXPECT_EQ(needs.device_bytes, 3ull * 4096 * 4096 * 4 + (64ull << 20));
    EXPECT_EQ(needs.host_bytes, 4096ull * 4096 * 4);
    EXPECT_GT(GemmWorkloadHostBytes(32768, 32768, 32768), 8ull << 30);
}

TEST(GemmTiles, NamesAreUniqueWithinAStepAndReadBackToTheirShape) {
    for (std::span<const GemmTile> tiles : kTileTables) {
        ASSERT_FALSE(tiles.empty());
        for (const GemmTile& t : tiles) {
            const std::string name = TileName(t);
            EXPECT_EQ(t.threads, ThreadsOf(t)) << name;
            std::optional<GemmTile> back = ParseTileName(name);
            ASSERT_TRUE(back) << name;
            back->min_blocks = t.min_blocks;  // the one field no name carries
            EXPECT_EQ(*back, t) << name << " reads back as another shape";
            EXPECT_EQ(std::count_if(tiles.begin(), tiles.end(),
                                    [&](const GemmTile& u) { return TileName(u) == name; }),
                      1)
                << name << " names two tiles of one step";
        }
    }
}

// Recorded results store these names: they must not change.
TEST(GemmTiles, NamesAndDescriptionsAreAsRecorded) {
    EXPECT_EQ(TileName(kTilesSharedMemoryTiles[0]), "256t-16x16x64");
    EXPECT_EQ(TileName(kTilesSharedMemoryTiles[3]), "64t-8x8x8");
    EXPECT_EQ(TileName(kTiles1dRegisterBlocking[0]), "512t-128x64x8-16x1");
    EXPECT_EQ(TileName(kTiles2dRegisterBlocking[0]), "256t-64x64x16-4x4");
    EXPECT_EQ(TileName(kTilesVectorizedTransposedA[3]), "128t-64x128x8-8x8");
    EXPECT_EQ(TileName(kTilesWarpTiling[0]), "256t-128x128x16-w64x32");
    EXPECT_EQ(TileName(kTilesDoubleBuffering[0]), "256t-128x256x8-w64x64-s3");
    EXPECT_EQ(TileName(kTilesDoubleBuffering[3]), "128t-64x128x8-w32x64-s3");
    EXPECT_EQ(TileName(kTilesVectorizedTransposedA[4]), "256t-128x128x16-8x8-scalar-global");
    EXPECT_EQ(TileName(kTilesVectorizedTransposedA[5]), "256t-128x128x16-8x8-a-untransposed");
    EXPECT_EQ(TileName(kTilesDoubleBuffering[4]), "256t-128x256x8-w64x64-s1");
    EXPECT_EQ(TileName(kTilesDoubleBuffering[5]), "256t-128x256x8-w64x64-s3-lanes-rows");
    EXPECT_EQ(TileName(kTilesDoubleBuffering[6]), "512t-128x256x8-w32x64-s3");
    EXPECT_EQ(TileName(kTilesWmmaTf32[0]), "128t-128x128x16-w64x64");
    EXPECT_EQ(TileName(kTilesWmmaTf32[3]), "128t-64x64x16-w32x32");

    EXPECT_EQ(TileDescription(kTilesSharedMemoryTiles[0], false),
              "256 threads, block tile 16x16x64, one output per thread");
    EXPECT_EQ(TileDescription(kTilesSharedMemoryTiles[0], true),
              "256 个线程，线程块分块 16x16x64，每线程 1 个输出");
    EXPECT_EQ(TileDescription(kTiles1dRegisterBlocking[0], false),
              "512 threads, block tile 128x64x8, 16x1 outputs per thread");
    EXPECT_EQ(TileDescription(kTiles1dRegisterBlocking[0], true),
              "512 个线程，线程块分块 128x64x8，每线程 16x1 个输出");
    EXPECT_EQ(TileDescription(kTilesWarpTiling[0], false),
              "256 threads, block tile 128x128x16, warp tile 64x32, 64 outputs per thread");
    EXPECT_EQ(TileDescription(kTilesWarpTiling[0], true),
              "256 个线程，线程块分块 128x128x16，线程束分块 64x32，每线程 64 个输出");
    EXPECT_EQ(TileDescription(kTilesDoubleBuffering[0], false),
              "256 threads, block tile 128x256x8, warp tile 64x64, 128 outputs per thread, "
              "3-stage pipeline");
    EXPECT_EQ(TileDescription(kTilesDoubleBuffering[0], true),
              "256 个线程，线程块分块 128x256x8，线程束分块 64x64，每线程 128 个输出，3 级流水线");
    EXPECT_EQ(TileDescription(kTilesDoubleBuffering[4], false),
              "256 threads, block tile 128x256x8, warp tile 64x64, 128 outputs per thread, no "
              "pipeline: each tile is copied, waited for, then used");
    EXPECT_EQ(TileDescription(kTilesDoubleBuffering[5], false),
              "256 threads, block tile 128x256x8, warp tile 64x64, 128 outputs per thread, "
              "3-stage pipeline; ablation: lanes in rows of 8 over the warp tile (lesson 5.7's "
              "map), no lane pairs reading one address");
    EXPECT_NE(TileDescription(kTilesVectorizedTransposedA[4], true).find("消融"),
              std::string::npos);
    for (std::span<const GemmTile> tiles : kTileTables)
        for (const GemmTile& t : tiles) {
            EXPECT_FALSE(TileDescription(t, false).empty()) << TileName(t);
            EXPECT_NE(TileDescription(t, true), TileDescription(t, false)) << TileName(t);
        }
}

// Each table is the `tile` parameter of exactly one step of the catalogue, whose choices are the
// table's names in its order (the first the default), with their descriptions in both languages.
TEST(GemmTiles, TheCatalogueOffersEachTableAsItsTileChoices) {
    const Registry& catalog = Catalog();
    const Chapter* gemm = catalog.FindChapter("gemm");
    ASSERT_NE(gemm, nullptr);
    for (std::span<const GemmTile> tiles : kTileTables) {
        int steps = 0;
        for (const Lesson* l : catalog.LessonsOf(*gemm)) {
            const gemm::Tiled* tiled = l->step.As<gemm::Tiled>();
            if (!tiled || !std::ranges::equal(tiled->tiles, tiles)) continue;
            ++steps;
            const ParamSpec* tile = l->FindParam("tile");
            ASSERT_NE(tile, nullptr) << l->id;
            std::vector<std::string> names, notes, notes_zh;
            for (const GemmTile& t : tiles) {
                names.push_back(TileName(t));
                notes.push_back(TileDescription(t, false));
                notes_zh.push_back(TileDescription(t, true));
            }
            EXPECT_EQ(tile->choices, names) << l->id;
            EXPECT_EQ(tile->choice_notes, notes) << l->id;
            EXPECT_EQ(tile->choice_notes_zh, notes_zh) << l->id;
            EXPECT_EQ(tile->Default(), ParamValue::Choice(names.front())) << l->id;
            EXPECT_TRUE(tile->launch_shape && tile->verbatim_choices) << l->id;
        }
        EXPECT_EQ(steps, 1) << "the table of " << TileName(tiles.front());
    }
    // And no tiled step has a table of its own that the kernels' header does not hold.
    for (const Lesson* l : catalog.LessonsOf(*gemm)) {
        const gemm::Tiled* tiled = l->step.As<gemm::Tiled>();
        if (!tiled) continue;
        EXPECT_TRUE(std::any_of(
            std::begin(kTileTables), std::end(kTileTables),
            [&](std::span<const GemmTile> t) { return std::ranges::equal(t, tiled->tiles); }))
            << l->id;
    }
}
