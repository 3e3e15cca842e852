// The machine code embedded at build time (PTX, and SASS where the toolkit has cuobjdump), its
// instruction classes, and the ncu command line of a step.
#include <gtest/gtest.h>

#include <algorithm>

#include "catalog.h"
#include "device.h"
#include "machine_code.h"

using namespace lessons;

namespace {

// A lesson by its id ("reduce/v5-vectorized-one-pass"): inserting a step renumbers nothing here.
const Lesson& L(std::string_view id) {
    const Lesson* l = Catalog().FindLesson(id);
    EXPECT_NE(l, nullptr) << id;
    return *l;
}

// The counts of one class in every function of `listing` whose demangled name contains each
// of `parts`; -1 when no function matches.
int CountIn(std::string_view listing, Isa isa, const std::vector<std::string>& parts,
            const std::string& klass) {
    int total = -1;
    for (const MachineFunction& f : SplitFunctions(listing, isa)) {
        if (!std::all_of(parts.begin(), parts.end(),
                         [&](const std::string& p) { return f.name.find(p) != std::string::npos; }))
            continue;
        const auto counts = CountClasses(f.code, isa);
        auto it = counts.find(klass);
        total = std::max(total, 0) + (it == counts.end() ? 0 : it->second);
    }
    return total;
}

const MachineCodeFile* FileOf(std::string_view lesson) {
    const auto& files = MachineCodeFiles().files;
    auto it = files.find(L(lesson).source_path);
    return it == files.end() ? nullptr : &it->second;
}

// The 16-byte-load lessons and lesson 25's scalar-load ablation, in one ISA.
void CheckWideLoads(Isa isa) {
    const MachineCodeFile* f25 = FileOf("reduce/v5-vectorized-one-pass");
    const MachineCodeFile* f10 = FileOf("split/vector-loads-block-compaction");
    ASSERT_TRUE(f25 && f10);
    const std::string_view code25 = isa == Isa::kPtx ? f25->ptx : f25->sass;
    const std::string_view code10 = isa == Isa::kPtx ? f10->ptx : f10->sass;
    // Loads::kFloat4 is 0, kScalar is 1 (reduce_toggles.h).
    const std::string kernel25 = "reduce_v5_vectorized_one_pass_kernel<";
    EXPECT_GT(CountIn(code25, isa, {kernel25, "Loads)0"}, "LDG.128"), 0);
    EXPECT_EQ(CountIn(code25, isa, {kernel25, "Loads)1"}, "LDG.128"), 0)
        << "the scalar-load variant has no 16-byte loads";
    EXPECT_GT(CountIn(code25, isa, {kernel25, "Loads)1"}, "LDG"), 0)
        << "the scalar-load variant loads one float at a time";
    // Lesson 1.10: Loads::k16Byte is 0, k4Byte is 1 (split_toggles.h): the 4-byte ablation
    // loads the same words one at a time, and the compiler does not merge them.
    const std::string kernel10 = "split_vector_loads_block_compaction_kernel<";
    EXPECT_GT(CountIn(code10, isa, {kernel10, "Loads)0"}, "LDG.128"), 0);
    EXPECT_EQ(CountIn(code10, isa, {kernel10, "Loads)1"}, "LDG.128"), 0)
        << "the 4-byte-load variant has no 16-byte loads";
    EXPECT_GT(CountIn(code10, isa, {kernel10, "Loads)1"}, "LDG"), 0);
    // Lesson 30 (GEMV) reads its rows as float4.
    if (const Lesson* l30 = Catalog().FindLesson("gemv/vectorized-rows-per-warp")) {
        auto it = MachineCodeFiles().files.find(l30->source_path);
        ASSERT_NE(it, MachineCodeFiles().files.end());
        const std::string_view code30 = isa == Isa::kPtx ? it->second.ptx : it->second.sass;
        EXPECT_GT(CountIn(code30, isa, {"gemv_vectorized_rows_per_warp_kernel"}, "LDG.128"), 0);
    }
    // Lesson 37 (GEMM) loads its A and B tiles as float4.
    if (Catalog().FindLesson("gemm/vectorized-transposed-a")) {
        const MachineCodeFile* f37 = FileOf("gemm/vectorized-transposed-a");
        ASSERT_TRUE(f37);
        EXPECT_GT(CountIn(isa == Isa::kPtx ? f37->ptx : f37->sass, isa,
                          {"gemm_vectorized_transposed_a_kernel"}, "LDG.128"),
                  0);
    }
    // A lesson before the vector loads has none.
    const MachineCodeFile* f24 = FileOf("reduce/v4-warp-shuffle");
    ASSERT_TRUE(f24);
    EXPECT_EQ(CountIn(isa == Isa::kPtx ? f24->ptx : f24->sass, isa,
                      {"reduce_v4_warp_shuffle_kernel"}, "LDG.128"),
              0);
}

}  // namespace

TEST(MachineCode, EveryHandWrittenGpuLessonHasItsCode) {
    const MachineCodeTable& t = MachineCodeFiles();
    if (!BuiltWithCuda()) {
        EXPECT_TRUE(t.files.empty());
        EXPECT_NE(std::string(t.why_none), "");
        GTEST_SKIP() << "no machine code: " << t.why_none;
    }
    EXPECT_EQ(std::string(t.why_none), "");
    for (const Lesson& l : Catalog().lessons()) {
        if (l.kind != StepKind::kGpu || l.library || l.source_path.empty()) continue;
        auto it = t.files.find(l.source_path);
        ASSERT_NE(it, t.files.end()) << l.id;
        const Lesson* prev = Catalog().FindLesson(l.previous);
        const auto names = KernelNames(l, prev);
        EXPECT_FALSE(names.empty()) << l.id;
        // The file's own kernels are in its PTX (a step that reuses the previous lesson's
        // kernel has none of its own).
        if (l.source.find("__global__") != std::string_view::npos)
            for (const std::string& name : names) {
                const auto fs = SplitFunctions(it->second.ptx, Isa::kPtx);
                EXPECT_TRUE(std::any_of(fs.begin(), fs.end(),
                                        [&](const MachineFunction& f) {
                                            return f.name.find(name) != std::string::npos;
                                        }))
                    << l.id << " " << name;
            }
    }
}

TEST(MachineCode, SixteenByteLoadsInPtx) {
    if (!BuiltWithCuda()) GTEST_SKIP() << "no machine code: " << MachineCodeFiles().why_none;
    CheckWideLoads(Isa::kPtx);
}

TEST(MachineCode, SixteenByteLoadsInSass) {
    const MachineCodeTable& t = MachineCodeFiles();
    if (!BuiltWithCuda()) GTEST_SKIP() << "no machine code: " << t.why_none;
    if (std::string(t.sass_arch).empty())
        GTEST_SKIP() << "no SASS in this build: " << t.files.begin()->second.sass_note;
    EXPECT_EQ(std::string(t.sass_arch).rfind("sm_", 0), 0u);
    CheckWideLoads(Isa::kSass);
}

// Every hand-written kernel file has its SASS in this build: from this build's cuobjdump, or
// recorded (assets/sass/sm_90.tar.xz) from the same sources and compiler. A kernel changed
// since the recording fails here until scripts/record-sass.sh records it again on a GPU
// machine.
TEST(MachineCode, EveryKernelFileHasThisBuildsSass) {
    const MachineCodeTable& t = MachineCodeFiles();
    if (!BuiltWithCuda()) GTEST_SKIP() << "no machine code: " << t.why_none;
    if (std::string(t.sass_arch).empty() && std::string(t.ptx_arch) != "compute_90")
        GTEST_SKIP() << "the recorded SASS is sm_90's; this build's highest architecture is "
                     << t.ptx_arch << " and its toolkit has no cuobjdump";
    std::string missing;
    for (const auto& [path, file] : t.files)
        if (file.sass.empty())
            missing += "\n  " + path + ": " +
                       (std::string(file.sass_note) == "stale"
                            ? "recorded from other sources (" + std::string(file.sass_source) + ")"
                            : std::string(file.sass_note));
    EXPECT_TRUE(missing.empty())
        << "no SASS of this build for:" << missing
        << "\nrecord it again on a GPU machine: scripts/record-sass.sh (see assets/sass/README.md)";
    EXPECT_EQ(std::string(t.sass_arch), "sm_90");
}

// Generic loads (SASS LD, not LDG or LDS: the address space is found per address at run time) in
// the functions whose names contain `part`.
int GenericLoads(std::string_view listing, const std::string& part) {
    int total = 0;
    for (const MachineFunction& f : SplitFunctions(listing, Isa::kSass)) {
        if (f.name.find(part) == std::string::npos) continue;
        std::string_view code = f.code;
        for (size_t at = code.find(" LD."); at != std::string_view::npos;
             at = code.find(" LD.", at + 1))
            ++total;
    }
    return total;
}

// What the other lessons are about, in their SASS: warp shuffles (29), cp.async copies (39, and
// none in 38), tensor-core MMAs (41) fed from shared memory by LDS, not by generic loads.
TEST(MachineCode, SassHasWhatLessonsTeach) {
    const MachineCodeTable& t = MachineCodeFiles();
    if (!BuiltWithCuda()) GTEST_SKIP() << "no machine code: " << t.why_none;
    if (std::string(t.sass_arch).empty())
        GTEST_SKIP() << "no SASS in this build: " << t.files.begin()->second.sass_note;
    const MachineCodeFile* f29 = FileOf("gemv/warp-per-row");
    const MachineCodeFile* f41 = FileOf("gemm/wmma-tf32");
    ASSERT_TRUE(f29 && f41);
    EXPECT_GT(CountIn(f29->sass, Isa::kSass, {"gemv_warp_per_row_kernel"}, "SHFL"), 0);
    EXPECT_GT(CountIn(f41->sass, Isa::kSass, {"gemm_wmma_tf32_kernel"}, "HMMA"), 0);
    EXPECT_GT(CountIn(f41->sass, Isa::kSass, {"gemm_wmma_tf32_kernel"}, "LDS"), 0);
    EXPECT_EQ(GenericLoads(f41->sass, "gemm_wmma_tf32_kernel"), 0);
    EXPECT_EQ(CountIn(f29->sass, Isa::kSass, {"gemv_warp_per_row_kernel"}, "HMMA"), 0);
    const MachineCodeFile* f38 = FileOf("gemm/warp-tiling");
    const MachineCodeFile* f39 = FileOf("gemm/double-buffering");
    ASSERT_TRUE(f38 && f39);
    EXPECT_GT(CountIn(f39->sass, Isa::kSass, {"gemm_double_buffering_kernel"}, "CP.ASYNC"), 0);
    EXPECT_EQ(CountIn(f38->sass, Isa::kSass, {"gemm_warp_tiling_kernel"}, "CP.ASYNC"), 0);
}

TEST(MachineCode, ClassesOfSassLines) {
    auto cls = [](const char* line) {
        const InstructionClass* c = ClassOfLine(line, Isa::kSass);
        return c ? std::string(c->name) : std::string("-");
    };
    EXPECT_EQ(cls("        /*0090*/                   LDG.E.128.CONSTANT R4, desc[UR4][R2.64] ;"),
              "LDG.128");
    EXPECT_EQ(cls("        /*00a0*/              @!P0 LDG.E.CONSTANT R9, desc[UR4][R6.64] ;"),
              "LDG");
    EXPECT_EQ(cls("        /*0100*/                   STG.E desc[UR4][R2.64], R5 ;"), "STG");
    EXPECT_EQ(cls("        /*0110*/                   SHFL.DOWN PT, R3, R0, 0x10, 0x1f ;"), "SHFL");
    EXPECT_EQ(cls("        /*0120*/                   LDS R4, [R2] ;"), "LDS");
    EXPECT_EQ(cls("        /*0130*/                   STS [R2], R4 ;"), "STS");
    EXPECT_EQ(cls("        /*0140*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;"), "BAR");
    EXPECT_EQ(cls("        /*0150*/                   HMMA.16816.F32 R4, R8, R12, R4 ;"), "HMMA");
    EXPECT_EQ(cls("        /*0160*/              @P0 BRA 0x300 ;"), "BRA");
    EXPECT_EQ(cls("        /*0170*/                   RED.E.ADD.STRONG.GPU PT, [R2.64], R5 ;"),
              "ATOM");
    EXPECT_EQ(cls("        /*0180*/                   FFMA R4, R5, R6, R4 ;"), "FP32");
    EXPECT_EQ(
        cls("        /*01a0*/              @!P1 LDGSTS.E.BYPASS.128 [R3], desc[UR4][R4.64] ;"),
        "CP.ASYNC");
    EXPECT_EQ(cls("        /*01b0*/                   LDGDEPBAR ;"), "CP.ASYNC");
    EXPECT_EQ(cls("        /*01c0*/                   DEPBAR.LE SB0, 0x1 ;"), "CP.ASYNC");
    EXPECT_EQ(cls("        /*0190*/                   IMAD R4, R5, R6, R4 ;"), "-");
    EXPECT_EQ(cls("                Function : _Z6kernelPf"), "-");
    EXPECT_EQ(cls("        .headerflags    @\"EF_CUDA_SM90\""), "-");
}

TEST(MachineCode, ClassesOfPtxLines) {
    auto cls = [](const char* line) {
        const InstructionClass* c = ClassOfLine(line, Isa::kPtx);
        return c ? std::string(c->name) : std::string("-");
    };
    EXPECT_EQ(cls("\tld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd5];"), "LDG.128");
    EXPECT_EQ(cls("\tld.global.nc.v2.u64 \t{%rd1, %rd2}, [%rd5];"), "LDG.128");
    EXPECT_EQ(cls("\t@%p1 ld.global.f32 \t%f1, [%rd5];"), "LDG");
    EXPECT_EQ(cls("\tshfl.sync.down.b32\t%r1|%p2, %r2, 16, 31, -1;"), "SHFL");
    EXPECT_EQ(cls("\tbar.sync \t0;"), "BAR");
    EXPECT_EQ(cls("\tst.shared.f32 \t[%r4], %f9;"), "STS");
    EXPECT_EQ(cls("\tcp.async.cg.shared.global [%r3], [%rd7], 16, %r9;"), "CP.ASYNC");
    EXPECT_EQ(cls("\tcp.async.wait_group 1;"), "CP.ASYNC");
    EXPECT_EQ(cls("\tatom.global.add.u32 \t%r5, [%rd2], 1;"), "ATOM");
    EXPECT_EQ(cls("\t@%p3 bra \t$L__BB0_4;"), "BRA");
    EXPECT_EQ(cls("$L__BB0_4:"), "-");
    EXPECT_EQ(cls("\t.reg .f32 \t%f<10>;"), "-");
}

TEST(MachineCode, SplitsFunctions) {
    const std::string sass =
        "\tcode for sm_90\n"
        "\t\tFunction : _Z1aPf\n"
        "        /*0000*/   LDG.E.128 R4, desc[UR4][R2.64] ;\n"
        "        /*0010*/   EXIT ;\n"
        "\t\tFunction : _Z1bPf\n"
        "        /*0000*/   LDS R4, [R2] ;\n";
    const auto fs = SplitFunctions(sass, Isa::kSass);
    ASSERT_EQ(fs.size(), 2u);
    EXPECT_EQ(fs[0].name, "a(float*)");
    EXPECT_EQ(CountClasses(fs[0].code, Isa::kSass).at("LDG.128"), 1);
    EXPECT_EQ(CountClasses(fs[1].code, Isa::kSass).count("LDG.128"), 0u);
    EXPECT_EQ(CountClasses(fs[1].code, Isa::kSass).at("LDS"), 1);
}

TEST(MachineCode, FocusOfTheVectorLoadLessons) {
    for (const char* n : {"split/vector-loads-block-compaction", "reduce/v5-vectorized-one-pass"}) {
        const auto focus = FocusClasses(L(n));
        EXPECT_NE(std::find(focus.begin(), focus.end(), "LDG.128"), focus.end()) << n;
    }
    const auto focus24 = FocusClasses(L("reduce/v4-warp-shuffle"));
    EXPECT_NE(std::find(focus24.begin(), focus24.end(), "SHFL"), focus24.end());
    for (const Lesson& l : Catalog().lessons())
        for (const std::string& c : FocusClasses(l)) {
            const auto& all = InstructionClasses();
            EXPECT_TRUE(std::any_of(all.begin(), all.end(),
                                    [&](const InstructionClass& k) { return c == k.name; }))
                << l.id << ": " << c;
        }
}

TEST(NcuCommand, NamesTheKernelMetricsAndParameters) {
    const Lesson& l25 = L("reduce/v5-vectorized-one-pass");
    ParamValues v;
    v.Set("block", ParamValue::Number(512));
    v.Set("loads", ParamValue::Choice("scalar"));
    v.Set("size", ParamValue::Number(uint64_t(1) << 30));
    const std::string cmd = NcuCommand(l25, Catalog().FindLesson("reduce/v4-warp-shuffle"), v);
    EXPECT_EQ(cmd.rfind("ncu --clock-control none --print-units base --kernel-name ", 0), 0u)
        << cmd;
    EXPECT_NE(cmd.find("reduce_v5_vectorized_one_pass_kernel"), std::string::npos) << cmd;
    EXPECT_NE(cmd.find("reduce_v5_sum_block_sums_kernel"), std::string::npos) << cmd;
    // The evidence counters first, then the focus's (EvidenceMetrics).
    EXPECT_NE(cmd.find("--metrics gpu__time_duration.sum,dram__bytes_read.sum,"), std::string::npos)
        << cmd;
    EXPECT_NE(cmd.find(",dram__throughput.avg.pct_of_peak_sustained_elapsed"), std::string::npos);
    EXPECT_NE(cmd.find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), std::string::npos);
    EXPECT_NE(cmd.find(" cuda-lessons-cli run reduce/v5-vectorized-one-pass --set block=512 "
                       "--set loads=scalar"),
              std::string::npos)
        << cmd;
    EXPECT_NE(cmd.find("--set size=1GiB"), std::string::npos) << cmd;
    EXPECT_EQ(cmd.substr(cmd.size() - 23), " --no-ceilings --reps 1");
    // Parameters not given are left to their defaults (not written).
    EXPECT_EQ(cmd.find("passes="), std::string::npos);

    // Shared memory: bank conflicts; divergence: branch uniformity.
    const std::string c21 = NcuCommand(L("reduce/v1-shared-memory"),
                                       Catalog().FindLesson("reduce/v0-interleaved-global"), {});
    EXPECT_NE(c21.find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
              std::string::npos);
    EXPECT_NE(c21.find("smsp__sass_average_branch_targets_threads_uniform.pct"), std::string::npos);
    EXPECT_NE(c21.find("--kernel-name reduce_v1_shared_memory_kernel "), std::string::npos) << c21;
    // Lesson 5 launches lesson 4's kernel.
    EXPECT_NE(NcuCommand(L("split/pinned-memory"), &L("split/one-thread-per-pair"), {})
                  .find("split_one_thread_per_pair_kernel"),
              std::string::npos);
    // A library step: no kernel filter (the library picks its kernels).
    EXPECT_EQ(
        NcuCommand(L("reduce/cub"), &L("reduce/v5-vectorized-one-pass"), {}).find("--kernel-name"),
        std::string::npos);
    // A lesson without an old number (chapter 8) is named so that the CLI finds it.
    const Lesson* tma = Catalog().FindLesson("tensor-cores/tma");
    ASSERT_NE(tma, nullptr);
    EXPECT_NE(NcuCommand(*tma, nullptr, {}).find(" cuda-lessons-cli run tensor-cores/tma "),
              std::string::npos);
}

// Coalescing (lesson 17) is read through L1's line model: requests, sectors and the 128-byte
// lines (tag lookups) of its loads and stores, and the load sectors L1 already held.
TEST(NcuCommand, GlobalAccessStepsAskForTheLinesTheirRequestsTouch) {
    const std::string c17 = NcuCommand(L("basics/coalescing"), nullptr, {});
    for (const char* m : {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                          "l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum",
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                          "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                          "l1tex__t_set_accesses_pipe_lsu_mem_global_op_st.sum"})
        EXPECT_NE(c17.find(m), std::string::npos) << m << " in " << c17;
    // A step without global stores in focus does not ask for the store counters.
    const std::string c15 = NcuCommand(L("basics/global-vs-shared"), nullptr, {});
    EXPECT_NE(c15.find("l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum"), std::string::npos);
    EXPECT_EQ(c15.find("l1tex__t_set_accesses_pipe_lsu_mem_global_op_st.sum"), std::string::npos);
}

// The warpgroup steps' focus (HGMMA) asks for counters the H100's ncu answers: the tensor
// pipe's busy share (it counts HGMMA) and the GMMA instructions, not the gmma-only cycles
// metric, which ncu 2025.3 answered "n/a" for every wgmma step recorded on 2026-11-27.
TEST(NcuCommand, WarpgroupStepsAskForTensorPipeCountersTheH100Answers) {
    const Lesson* tma = Catalog().FindLesson("tensor-cores/tma");
    ASSERT_NE(tma, nullptr);
    const std::vector<std::string> m = NcuMetrics(*tma);
    const auto has = [&](const char* name) {
        return std::find(m.begin(), m.end(), name) != m.end();
    };
    EXPECT_TRUE(has("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"));
    EXPECT_TRUE(has("sm__inst_executed_pipe_tensor_op_gmma.sum"));
    EXPECT_FALSE(has("sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active"));
}
