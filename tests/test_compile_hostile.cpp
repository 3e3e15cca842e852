// A student's source as a hostile user writes it (issue 45, hostile-input-2026-11-28.md): the
// #include check that a raw string fooled (N7), compiles that never end or take all memory (N3,
// N2, M7), a log of hundreds of megabytes (N9), signals and cancels during a compile (N14), the
// signature check switched off by a macro (M5), and the CLI's messages about it (M2, M8, M9).
// The compile tests need NVRTC (skipped, with the reason, where it is missing); no test needs a
// GPU. Times are bounds for "stops at all", never measurements.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "errors.h"
#include "gpu_test.h"
#include "kernel_compile.h"
#include "nvrtc_loader.h"
#include "shell.h"

using json = nlohmann::json;
using namespace lessons;

namespace {

bool Has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A fresh folder, removed at the end, holding the hostile files and a secret to leak.
class Dir : public ScratchDir {
public:
    Dir() : ScratchDir("compile-hostile") {}
};

const char* kSecret = "LESSONS_SECRET_hunter2";

// Lesson 4.2's kernel, as the CLI tests use it.
const char* kGemvHead =
    "__global__ void gemv_warp_per_row_kernel(const float* a, const float* x, float* y,\n"
    "                                            int m, int n) {\n";

KernelSpec GemvSpec() {
    KernelSpec s;
    s.kernel = "gemv_warp_per_row_kernel";
    s.signature = "const float*, const float*, float*, int, int";
    return s;
}

// 1.4 KB that the preprocessor makes into 2^30 tokens: minutes of compiling, growing memory.
std::string MacroBomb() {
    std::string s = "#define A0 x = x + 1;\n";
    for (int i = 1; i <= 30; ++i)
        s += "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" +
             std::to_string(i - 1) + "\n";
    return s + kGemvHead + "    int x = 0;\n    A30\n}\n";
}

std::string JsonString(const std::string& s) {
    return json(s).dump();
}

}  // namespace

// --- N7: no file reachable from the student's source, however it is spelled ---

TEST(CompileHostile, IncludeCheckReadsRawStringsAsTheCompilerDoes) {
    const std::vector<std::string> none;
    // The report's file: a raw string holding "/*" made the check skip the #include after it.
    const std::string report =
        "__device__ const char* s = R\"x(\n/*\n)x\";\n#include \"/etc/shadow\"\n// */\n";
    EXPECT_TRUE(Has(CheckKernelSource(report, none), "line 4: #include")) << report;
    // Each raw-string prefix, a raw string in a skipped #if group (NVRTC lexes those too), in a
    // #define, and a digit separator (1'0 is one number, not the start of a character literal).
    for (const std::string& src : {
             std::string("auto s = u8R\"(\n/*\n)\";\n#include \"/etc/passwd\"\n// */\n"),
             std::string("auto s = LR\"(\n/*\n)\";\n#include \"/etc/passwd\"\n// */\n"),
             std::string("auto s = uR\"a(\n/*)\"\n)a\";\n#include \"/etc/passwd\"\n// */\n"),
             std::string("#if 0\nR\"(\n/*\n)\"\n#endif\n#include \"/etc/passwd\"\n// */\n"),
             std::string("#define S R\"(\n/*\n)\"\n#include \"/etc/passwd\"\n// */\n"),
             std::string("int y = 1'0; auto s = \"'/*\";\n#include \"/etc/passwd\"\n// */\n"),
             std::string("int y = 0x1'f'0; auto c = '\"';\n#include \"/etc/passwd\"\n"),
         }) {
        const std::string why = CheckKernelSource(src, none);
        EXPECT_TRUE(Has(why, "#include \"/etc/passwd\" is not allowed")) << src << "\n" << why;
    }
    // Names built or asked for outside a directive: __has_include (tells whether any path
    // exists) and token pasting, which builds it where no check can see the name.
    for (const std::string& src : {
             std::string("#if __has_include(\"/root/.ssh/id_rsa\")\n#error yes\n#endif\n"),
             std::string("#if __has_include_next(<x>)\n#endif\n"),
             std::string("#if __has_embed(\"/etc/passwd\")\n#endif\n"),
             std::string("#define CAT(a, b) a##b\n#if CAT(__has_, include)(\"/etc/shadow\")\n"
                         "#endif\n"),
             std::string("#define CAT(a, b) a %:%: b\nint CAT(x, y);\n"),
         }) {
        const std::string why = CheckKernelSource(src, none);
        EXPECT_TRUE(Has(why, "is not allowed")) << src << "\n" << why;
    }
    // What a kernel may hold: raw strings with comment marks, digit separators, a # in a
    // string, __has_include only in a comment, the exercise's own header.
    for (const std::string& src : {
             std::string("auto s = R\"(/* // )\"; // R\"(\n__global__ void k() {}\n"),
             std::string("int big = 1'000'000; char c = '\\'';\n// __has_include and ##\n"),
             std::string("const char* s = \"## __has_include\";\n"),
         }) {
        EXPECT_EQ(CheckKernelSource(src, none), "") << src;
    }
    EXPECT_EQ(CheckKernelSource("#include <mma.h>\n", {"mma.h"}), "");
}

TEST(CompileHostile, NoSecretReachesTheLogThroughAnyInclude) {
    REQUIRE_NVRTC();
    const Dir dir;
    const std::string secret = dir.Write("secret.txt", std::string(kSecret) + "\n");
    for (const std::string& src : {
             "__device__ const char* s = R\"x(\n/*\n)x\";\n#include \"" + secret + "\"\n// */\n",
             "#if __has_include(\"" + secret + "\")\n#error it exists\n#endif\n",
             "#define CAT(a, b) a##b\n#if CAT(__has_, include)(\"" + secret +
                 "\")\n#error it exists\n#endif\n",
         }) {
        const CompileResult r = CompileKernel(src, GemvSpec(), 90);
        EXPECT_EQ(r.status, CompileStatus::kRefused) << src << "\n" << r.message << r.log;
        EXPECT_FALSE(Has(r.log + r.message, kSecret)) << src;
        EXPECT_FALSE(Has(r.log + r.message, "it exists")) << src;
    }
    // A header the exercise allows by name is looked for in the toolkit's folder, never in the
    // folder the program runs in (NVRTC looks first beside "kernel.cu", the current folder).
    dir.Write("lessons_allowed.h", std::string(kSecret) + "\n");
    KernelSpec spec = GemvSpec();
    spec.allowed_includes = {"lessons_allowed.h"};
    char here[4096];
    ASSERT_NE(getcwd(here, sizeof here), nullptr);
    ASSERT_EQ(chdir(dir.path().c_str()), 0);
    const CompileResult r = CompileKernel(
        "#include \"lessons_allowed.h\"\n" + std::string(kGemvHead) + "}\n", spec, 90);
    ASSERT_EQ(chdir(here), 0);
    EXPECT_EQ(r.status, CompileStatus::kError) << r.log;
    EXPECT_FALSE(Has(r.log + r.message, kSecret)) << r.log;
}

TEST(CompileHostile, CliRefusesTheReportsIncludeAndLeaksNothing) {
    REQUIRE_NVRTC();
    const Dir dir;
    const std::string secret = dir.Write("secret.txt", std::string(kSecret) + "\n");
    const std::string file =
        dir.Write("inc.cu", "__device__ const char* s = R\"x(\n/*\n)x\";\n#include \"" + secret +
                                "\"\n// */\n" + kGemvHead + "}\n");
    const Output out = Cli("run gemv/warp-per-row --kernel " + file + " --format json");
    EXPECT_EQ(out.code, 2) << out.text;
    EXPECT_TRUE(Has(out.text, "\"status\": \"refused\"")) << out.text;
    EXPECT_FALSE(Has(out.text, kSecret)) << out.text;
}

// The second wall: even a path the check lets through (here, as an exercise's "allowed"
// header) is unreadable to the compiling child, where the kernel has Landlock.
TEST(CompileHostile, CompilingChildReadsNoFileOutsideTheToolkit) {
    REQUIRE_NVRTC();
    if (!CompileReadsConfined()) GTEST_SKIP() << "this kernel has no Landlock (Linux 5.13+)";
    const Dir dir;
    const std::string secret = dir.Write("secret.txt", std::string(kSecret) + "\n");
    for (const std::string& path : {secret, std::string("/proc/self/environ")}) {
        KernelSpec spec = GemvSpec();
        spec.allowed_includes = {path};
        const CompileResult r =
            CompileKernel("#include \"" + path + "\"\n" + std::string(kGemvHead) + "}\n", spec, 90);
        EXPECT_EQ(r.status, CompileStatus::kError) << path << ": " << r.message;
        EXPECT_TRUE(Has(r.log, "cannot open source file")) << path << ": " << r.log;
        EXPECT_FALSE(Has(r.log + r.message, kSecret)) << r.log;
        EXPECT_FALSE(Has(r.log + r.message, "PATH=")) << r.log;
    }
}

// --- N3, N2, M7: a compile within a time and a memory limit ---

TEST(CompileHostile, MacroBombIsStoppedAtTheTimeLimit) {
    REQUIRE_NVRTC();
    CompileLimits limits;
    limits.seconds = 2;
    const CompileResult r = CompileKernel(MacroBomb(), GemvSpec(), 90, nullptr, limits);
    EXPECT_EQ(r.status, CompileStatus::kError);
    EXPECT_TRUE(r.stopped);
    EXPECT_TRUE(Has(r.message, "the compile took longer than 2 s and was stopped")) << r.message;
}

TEST(CompileHostile, RunningOutOfMemoryIsAMessageNotAnAbort) {
    REQUIRE_NVRTC();
    CompileLimits limits;
    limits.seconds = 120;
    limits.memory_mib = 128;
    const CompileResult r = CompileKernel(MacroBomb(), GemvSpec(), 90, nullptr, limits);
    EXPECT_EQ(r.status, CompileStatus::kError);
    EXPECT_TRUE(r.stopped);
    EXPECT_TRUE(Has(r.message, "the compile ran out of memory (limit 128 MiB")) << r.message;
    EXPECT_FALSE(Has(r.message, "smaller size")) << r.message;
    // This process is intact: the next compile works.
    const CompileResult ok = CompileKernel(std::string(kGemvHead) + "}\n", GemvSpec(), 90);
    EXPECT_TRUE(ok.ok()) << ok.message << ok.log;
    // The CLI says the same and exits 1 (the worker answers the same: see the serve test).
    const Dir dir;
    const std::string bomb = dir.Write("bomb.cu", MacroBomb());
    const Output out = Sh("CUDA_LESSONS_COMPILE_MIB=128 " + CliPath() +
                          " run gemv/warp-per-row --kernel " + bomb + " 2>&1");
    EXPECT_EQ(out.code, 1) << out.text;
    EXPECT_TRUE(Has(out.text, "ran out of memory (limit 128 MiB")) << out.text;
}

// --- N9, M10: a log of any size gives a bounded reply ---

TEST(CompileHostile, HugeLogIsCappedWithANote) {
    REQUIRE_NVRTC();
    std::string src = kGemvHead;
    for (int i = 0; i < 5000; ++i) src += "    int unused_variable_" + std::to_string(i) + ";\n";
    src += "}\n";
    ASSERT_LT(src.size(), kMaxKernelSourceBytes);
    const CompileResult r = CompileKernel(src, GemvSpec(), 90);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_LE(r.log.size(), kMaxCompileLogBytes + 200);
    EXPECT_TRUE(Has(r.log, "of the compiler's log cut: it is kept to 64.0 KiB"))
        << r.log.substr(0, 200);
    EXPECT_EQ(r.Warnings(), 5000);  // all counted, though not all listed
    const Dir dir;
    const Output out = Cli(
        "run gemv/warp-per-row --kernel " + dir.Write("warn.cu", src) + " --format json", false);
    EXPECT_LT(out.text.size(), size_t(1) << 20);  // the GUI takes lines up to 4 MiB
    const json j = json::parse(out.text);
    EXPECT_EQ(j["compile"]["warnings"], 5000);
}

// --- N14: cancel, shutdown and signals during a compile ---
// (No clock here: a compile left running ends at its time limit with "took longer than", not
// "cancelled", so each status tells whether the cancel, shutdown or signal stopped it.)

TEST(CompileHostile, CancelStopsTheCompileAtOnce) {
    REQUIRE_NVRTC();
    std::atomic<bool> cancel{false};
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        cancel = true;
    });
    bool cancelled = false;
    try {
        CompileKernel(MacroBomb(), GemvSpec(), 90, &cancel);
    } catch (const Cancelled&) {
        cancelled = true;
    }
    stopper.join();
    EXPECT_TRUE(cancelled);
}

TEST(CompileHostile, CtrlCDuringACompileExits130Cancelled) {
    REQUIRE_NVRTC();
    const Dir dir;
    const std::string bomb = dir.Write("bomb.cu", MacroBomb());
    const Output out =
        Sh("CUDA_LESSONS_COMPILE_SECONDS=100 " + CliPath() + " run gemv/warp-per-row --kernel " +
           bomb + " 2>&1 & p=$!; sleep 2; kill -INT $p; wait $p; echo \"rc=$?\"");
    EXPECT_TRUE(Has(out.text, "cancelled")) << out.text;
    EXPECT_TRUE(Has(out.text, "rc=130")) << out.text;
}

TEST(CompileHostile, WorkerAnswersCancelShutdownAndSigtermDuringACompile) {
    REQUIRE_NVRTC();
    const std::string compile =
        "{\"op\":\"compile\",\"id\":1,\"lesson\":\"gemv/warp-per-row\",\"kernel\":" +
        JsonString(MacroBomb()) + "}";
    const Dir dir;
    const std::string request = dir.Write("compile.json", compile + "\n");
    const std::string serve = "CUDA_LESSONS_COMPILE_SECONDS=100 " + CliPath() + " serve";
    // The worker reads a FIFO that this shell keeps open (fd 3) between requests.
    const std::string start_worker =
        "cd " + dir.path() + "; mkfifo in; " + serve + " < in > out.txt 2>&1 & p=$!; exec 3> in; ";
    // cancel, then an info (the worker goes on), then a compile stopped by shutdown.
    Output out = Sh("(" + start_worker + "cat " + request + " >&3; sleep 2; " +
                    "echo '{\"op\":\"cancel\",\"id\":2}' >&3; " +
                    "echo '{\"op\":\"info\",\"id\":3}' >&3; " + "sed 's/\"id\":1,/\"id\":4,/' " +
                    request + " >&3; sleep 2; echo '{\"op\":\"shutdown\",\"id\":5}' >&3; " +
                    "wait $p; echo \"rc=$?\"; exec 3>&-; cat out.txt)");
    EXPECT_TRUE(Has(out.text, R"({"id":1,"type":"done","status":"cancelled"})")) << out.text;
    EXPECT_TRUE(Has(out.text, R"({"id":2,"type":"done","status":"ok"})")) << out.text;
    EXPECT_TRUE(Has(out.text, R"({"id":3,"type":"done","status":"ok"})")) << out.text;
    EXPECT_TRUE(Has(out.text, R"({"id":4,"type":"done","status":"cancelled"})")) << out.text;
    EXPECT_TRUE(Has(out.text, R"({"id":5,"type":"done","status":"ok"})")) << out.text;
    EXPECT_TRUE(Has(out.text, "rc=0")) << out.text;
    // SIGTERM: answered as a shutdown, exit 0.
    Sh("rm -f " + dir.path() + "/in " + dir.path() + "/out.txt");
    out = Sh("(" + start_worker + "cat " + request + " >&3; sleep 2; kill -TERM $p; wait $p; " +
             "echo \"rc=$?\"; exec 3>&-; cat out.txt)");
    EXPECT_TRUE(Has(out.text, R"({"id":1,"type":"done","status":"cancelled"})")) << out.text;
    EXPECT_TRUE(Has(out.text, R"({"id":null,"type":"done","status":"ok"})")) << out.text;
    EXPECT_TRUE(Has(out.text, "rc=0")) << out.text;
}

// --- M5: the signature check cannot be switched off ---

TEST(CompileHostile, SignatureCheckSurvivesTheStudentsMacros) {
    REQUIRE_NVRTC();
    const std::string wrong =
        "__global__ void gemv_warp_per_row_kernel(const float* a, const float* x, float* y,\n"
        "                                            int m, long n) {}\n";
    for (const std::string& tail : {
             std::string("#define static_assert(...)\n"),
             std::string("#define decltype(x) void (*)(const float*, const float*, float*, int, "
                         "int)\n"),
             std::string("#define lessons_exercise_same_type std::is_same\n"),
             std::string("#define value value || true\n"),
             std::string("#define static_assert(...) \\"),  // a continuation at the end
             std::string("// an open comment \\"),
         }) {
        const CompileResult r = CompileKernel(wrong + tail, GemvSpec(), 90);
        EXPECT_EQ(r.status, CompileStatus::kError) << tail;
        EXPECT_TRUE(Has(r.message + r.log, "must be declared as __global__ void")) << tail << "\n"
                                                                                   << r.log;
    }
    // The right kernel with the same macros still compiles.
    const CompileResult ok =
        CompileKernel(std::string(kGemvHead) + "}\n#define static_assert(...)\n#define value 0\n",
                      GemvSpec(), 90);
    EXPECT_TRUE(ok.ok()) << ok.message << ok.log;
}

// --- M2, M8, M9: the CLI's messages ---

TEST(CompileHostile, TableShowsTheLogWhenNoErrorHasALine) {
    REQUIRE_NVRTC();
    const Dir dir;
    const std::string file =
        dir.Write("asm_bad.cu",
                  std::string(kGemvHead) + "    asm volatile(\"not a ptx instruction;\");\n}\n");
    const Output out = Cli("run gemv/warp-per-row --kernel " + file);
    EXPECT_EQ(out.code, 2) << out.text;
    EXPECT_TRUE(Has(out.text, "the compiler's log:")) << out.text;
    EXPECT_TRUE(Has(out.text, "Parsing error")) << out.text;
    EXPECT_FALSE(Has(out.text, "(0 errors")) << out.text;
}

TEST(CompileHostile, KernelFileIsCalledTheKernelFile) {
    const Dir dir;
    const Output missing = Cli("run gemv/warp-per-row --kernel " + dir.path() + "/none.cu");
    EXPECT_TRUE(Has(missing.text, "cannot open kernel file")) << missing.text;
    const Output folder = Cli("run gemv/warp-per-row --kernel " + dir.path());
    EXPECT_TRUE(Has(folder.text, "kernel file '" + dir.path() + "' is a directory")) << folder.text;
    EXPECT_FALSE(Has(missing.text + folder.text, "input file"));
}

TEST(CompileHostile, OversizedKernelFileGivesAJsonRefusal) {
    const Dir dir;
    const std::string big = dir.Write("big.cu", std::string(kMaxKernelSourceBytes + 1, ' '));
    const Output out = Cli("run gemv/warp-per-row --kernel " + big + " --format json", false);
    EXPECT_EQ(out.code, 2) << out.text;
    const json j = json::parse(out.text);
    EXPECT_EQ(j["compile"]["status"], "refused");
    EXPECT_TRUE(Has(j["compile"]["message"].get<std::string>(), "more than the 256 KiB"));
}

TEST(CompileHostile, LineNumbersAreReadWhole) {
    const std::vector<Diagnostic> d = ParseDiagnostics(
        "kernel.cu(2147483647): error: expected a \";\"\n"
        "kernel.cu(99999999999999): error: far\n",
        "");
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].line, 2147483647);
    EXPECT_EQ(d[1].line, 2147483647);  // saturated, not cut to its first digits
}
