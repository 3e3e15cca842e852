// The harness of chapter 1's GPU steps: copy the text to the device, scan it, copy the
// offsets back, each part timed with CUDA events on the step's own stream. The kernels and
// what launching them needs come from kernels/split/ (split_gpu.cuh).
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/cuda_util.h"
#include "cuda/module.h"
#include "errors.h"
#include "exercise.h"
#include "exercise_cases.h"
#include "exercise_kinds.h"
#include "kernels_of.h"
#include "launch_checks.cuh"
#include "split/split_cpu.h"
#include "split/split_gpu.cuh"
#include "split_chapter.h"
#include "split_launch.cuh"
#include "split_steps.h"

namespace lessons::split {
namespace {

using Clock = std::chrono::steady_clock;
double MsSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// How a step scans: launches on `stream` and returns the count when it already has it on
// the host (Thrust), or leaves it in `count` on the device (nullopt).
using ScanFn = std::function<std::optional<uint64_t>(
    const char* buf, uint64_t n, unsigned long long* out, unsigned long long* count, cudaStream_t)>;

ScanFn KernelScan(const SplitKernel& k, int block) {
    return [&k, block](const char* buf, uint64_t n, unsigned long long* out,
                       unsigned long long* count, cudaStream_t stream) -> std::optional<uint64_t> {
        LESSONS_CUDA_CHECK(k.launch(buf, n, out, count, block, stream));
        return std::nullopt;
    };
}

std::optional<uint64_t> ThrustScan(const char* buf, uint64_t n, unsigned long long* out,
                                   unsigned long long*, cudaStream_t stream) {
    unsigned long long found = 0;
    LESSONS_CUDA_CHECK(SplitThrustCopyIf(buf, n, out, &found, stream));
    return found;
}

// Page-locked copy of the text (the pinned-memory step's allocation), timed; and, for comparison, a
// pageable one (malloc + first touch, which is where the operating system really hands out
// the pages).
class PinnedText {
public:
    PinnedText(const char* text, uint64_t n, bool measure) {
        const auto t0 = Clock::now();
        char* ptr = nullptr;
        LESSONS_CUDA_CHECK(SplitAllocPinned(&ptr, n));
        m_buffer = cuda::PinnedBuffer<char>::Adopt(ptr, n);
        m_alloc_pinned_ms = MsSince(t0);
        if (n) std::memcpy(ptr, text, n);
        if (measure) {
            const auto t1 = Clock::now();
            char* pageable = static_cast<char*>(std::malloc(n ? n : 1));
            if (!pageable)
                throw UsageError("out of host memory for the pageable comparison buffer");
            for (uint64_t i = 0; i < n; i += 4096) pageable[i] = 0;  // fault every page in
            m_alloc_pageable_ms = MsSince(t1);
            std::free(pageable);
        }
    }
    const char* get() const { return m_buffer.get(); }
    double alloc_pinned_ms() const { return m_alloc_pinned_ms; }
    double alloc_pageable_ms() const { return m_alloc_pageable_ms; }

private:
    cuda::PinnedBuffer<char> m_buffer;
    double m_alloc_pinned_ms = 0, m_alloc_pageable_ms = 0;
};

// Device buffer of the text, zero from n to its end (the padding some kernels read).
cuda::DeviceBuffer<char> PaddedDeviceText(uint64_t n, uint64_t padded, cudaStream_t stream) {
    cuda::DeviceBuffer<char> buf(padded + 16, "the text");
    LESSONS_CUDA_CHECK(cudaMemsetAsync(buf.get() + n, 0, padded + 16 - n, stream));
    return buf;
}

// The offsets on the device, their counter, and their way back to the host.
class GpuSplitBase : public SplitStep {
protected:
    explicit GpuSplitBase(const Workload& w)
        : SplitStep(w, true),
          m_dev_out(SplitCapacity(m_work.SizeBytes()), "the offsets"),
          m_count(1, "the counter"),
          m_host_count(1, "the counter") {}

    uint64_t ReadCount(cuda::Stream& stream) {
        LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_host_count.get(), m_count.get(),
                                           sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                           stream.get()));
        stream.Synchronize();
        return *m_host_count.get();
    }

    // Queues the copy of m_found offsets to the host (none when a broken kernel reported more
    // than can exist; Verify() reports that).
    void ReadOffsets(cudaStream_t stream) {
        const uint64_t capacity = SplitCapacity(m_work.SizeBytes());
        if (m_found > capacity)
            m_found = capacity + 1;
        else if (m_found)
            LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_out.get(), m_dev_out.get(), m_found * 8,
                                               cudaMemcpyDeviceToHost, stream));
    }

    cuda::DeviceBuffer<unsigned long long> m_dev_out;
    cuda::DeviceBuffer<unsigned long long> m_count;
    cuda::PinnedBuffer<unsigned long long> m_host_count;
};

// How a step that copies, scans and copies back is set up.
struct StepSpec {
    ScanFn scan;
    bool pinned = false;              // host text in page-locked memory
    uint64_t padded_bytes = 0;        // device bytes the kernel reads (zero-padded past n)
    bool measure_allocation = false;  // report pinned vs pageable allocation cost
};

// H2D, scan, D2H of the count (unless the scan returned it) and of the offsets.
class GpuSplitStep : public GpuSplitBase {
public:
    GpuSplitStep(const Workload& w, StepSpec spec) : GpuSplitBase(w), m_spec(std::move(spec)) {
        const uint64_t n = m_work.SizeBytes();
        m_buf = PaddedDeviceText(n, std::max(m_spec.padded_bytes, n), m_stream.get());
        if (m_spec.pinned) m_pinned.emplace(m_work.data(), n, m_spec.measure_allocation);
        m_stream.Synchronize();
    }

    Sample Run() override {
        const uint64_t n = m_work.SizeBytes();
        cudaStream_t s = m_stream.get();
        m_start.Record(s);
        // The same call with pageable or pinned memory: what changes is where `host` points.
        const char* host = m_pinned ? m_pinned->get() : m_work.data();
        if (n) LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_buf.get(), host, n, cudaMemcpyHostToDevice, s));
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_count.get(), 0, sizeof(unsigned long long), s));
        m_copied.Record(s);
        const std::optional<uint64_t> known =
            m_spec.scan(m_buf.get(), n, m_dev_out.get(), m_count.get(), s);
        m_scanned.Record(s);
        m_found = known ? *known : ReadCount(m_stream);
        ReadOffsets(s);
        m_stop.Record(s);
        m_stream.Synchronize();
        Sample sample;
        sample.parts = {{"h2d", cuda::ElapsedMs(m_start, m_copied)},
                        {"kernel", cuda::ElapsedMs(m_copied, m_scanned)},
                        {"d2h", cuda::ElapsedMs(m_scanned, m_stop)}};
        sample.total_ms = cuda::ElapsedMs(m_start, m_stop);
        return sample;
    }

    std::vector<NamedValue> Extras() const override {
        if (!m_pinned || !m_spec.measure_allocation) return {};
        return {{"alloc_pinned_ms", m_pinned->alloc_pinned_ms()},
                {"alloc_pageable_ms", m_pinned->alloc_pageable_ms()}};
    }

private:
    StepSpec m_spec;
    cuda::Stream m_stream;
    cuda::DeviceBuffer<char> m_buf;
    std::optional<PinnedText> m_pinned;
    cuda::Event m_start, m_copied, m_scanned, m_stop;
};

// Overlapped chunks: the copy and the scan overlap, so only the whole is timed; the copy alone
// is measured once at set-up for comparison. Its rate is the text over the whole time, against
// the host-to-device ceiling: the copy is what it hides the scan behind.
class OverlappedStep : public GpuSplitBase {
public:
    static constexpr int kStreams = 4;

    OverlappedStep(const Workload& w, const SplitKernel& kernel, int block)
        : GpuSplitBase(w),
          m_kernel(kernel),
          m_block(block),
          m_pinned(m_work.data(), m_work.SizeBytes(), false),
          m_chunk(SplitOverlappedChunk(m_work.SizeBytes(), kernel.padded(1, block))) {
        const uint64_t n = m_work.SizeBytes();
        m_buf = PaddedDeviceText(n, kernel.padded(n, block), m_main.get());
        for (int i = 0; i < kStreams; ++i) {
            m_raw_streams[i] = m_streams[i].get();
            m_raw_events[i] = m_events[i].get();
        }
        // The copy alone, for the comparison the lesson is about (median of three).
        std::vector<double> copies;
        for (int rep = 0; rep < 3 && n; ++rep) {
            m_start.Record(m_main.get());
            LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_buf.get(), m_pinned.get(), n,
                                               cudaMemcpyHostToDevice, m_main.get()));
            m_stop.Record(m_main.get());
            copies.push_back(cuda::ElapsedMs(m_start, m_stop));
        }
        std::sort(copies.begin(), copies.end());
        m_copy_alone_ms = copies.empty() ? 0 : copies[copies.size() / 2];
        m_main.Synchronize();
    }

    Sample Run() override {
        const uint64_t n = m_work.SizeBytes();
        cudaStream_t s = m_main.get();
        m_start.Record(s);
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_count.get(), 0, sizeof(unsigned long long), s));
        if (n)
            LESSONS_CUDA_CHECK(SplitOverlappedChunks(
                m_pinned.get(), m_buf.get(), n, m_dev_out.get(), m_count.get(),
                m_kernel.launch_range, m_block, m_chunk, s, m_raw_streams, m_raw_events, kStreams));
        m_found = ReadCount(m_main);
        ReadOffsets(s);
        m_stop.Record(s);
        m_main.Synchronize();
        Sample sample;
        sample.total_ms = cuda::ElapsedMs(m_start, m_stop);
        return sample;
    }

    std::vector<NamedValue> Extras() const override {
        return {{"h2d_alone_ms", m_copy_alone_ms},
                {"chunk_bytes", double(m_chunk)},
                {"streams", double(kStreams)}};
    }

private:
    const SplitKernel& m_kernel;
    int m_block;
    PinnedText m_pinned;
    cuda::Stream m_main;
    cuda::Stream m_streams[kStreams];
    cuda::Event m_events[kStreams];
    cudaStream_t m_raw_streams[kStreams];
    cudaEvent_t m_raw_events[kStreams];
    cuda::DeviceBuffer<char> m_buf;
    uint64_t m_chunk;
    double m_copy_alone_ms = 0;
    cuda::Event m_start, m_stop;
};

// The step of a Kernel row: one kernel of kernels/split/, set up by the StepSpec.
StepRunner KernelRunner(PickKernel pick, const Kernel& kind) {
    return LaunchRunner(std::move(pick), [kind](const Workload& w, const StepContext&,
                                                const SplitKernel& k, int block) {
        StepSpec spec;
        spec.scan = KernelScan(k, block);
        spec.pinned = kind.pinned;
        spec.padded_bytes = k.padded ? k.padded(w.SizeBytes(), block) : w.SizeBytes();
        spec.measure_allocation = kind.measure_allocation;
        return std::unique_ptr<StepInstance>(std::make_unique<GpuSplitStep>(w, std::move(spec)));
    });
}

// A student's kernel (an exercise) in place of a hand-written step's own: the grid, dynamic
// shared memory and padding the step's kernel declares (SplitKernel), and the arguments its row
// says that kernel takes (Kernel::args): (buf, n, out, count), the padded (buf, out, count), or
// (buf, out, count, offset_base), whose offsets start at offset_base (0: the whole buffer is one
// range). The exercise tests on a GPU run each reference solution through this at edge sizes.
ScanFn StudentScan(const SplitKernel& k, ScanArgs args,
                   std::shared_ptr<const cuda::LoadedKernel> student, int block) {
    const bool takes_n = args == ScanArgs::kWithN;
    const bool takes_base = args == ScanArgs::kWithOffsetBase;
    return [&k, student, block, takes_n, takes_base](
               const char* buf, uint64_t n, unsigned long long* out, unsigned long long* count,
               cudaStream_t stream) -> std::optional<uint64_t> {
        const uint64_t blocks = k.blocks(n, block);
        if (blocks == 0) return std::nullopt;
        unsigned long long offset_base = 0;
        void* with_n[] = {&buf, &n, &out, &count};
        void* without_n[] = {&buf, &out, &count};
        void* with_base[] = {&buf, &out, &count, &offset_base};
        student->Launch(static_cast<unsigned>(blocks), static_cast<unsigned>(block), stream,
                        takes_n      ? with_n
                        : takes_base ? with_base
                                     : without_n,
                        static_cast<unsigned>(k.dynamic_smem(block)));
        return std::nullopt;
    };
}

StepRunner StudentRunner(PickKernel pick, const Kernel& kind,
                         std::shared_ptr<const StudentKernel> student) {
    StepRunner r;
    r.make = [pick, kind, student](const Workload& w, const StepContext& c) {
        const SplitKernel& k = pick(c.params);
        const int block = BlockOf(c.params);
        CheckLaunch(k, w.SizeBytes(), block);
        auto loaded = cuda::LoadStudentKernel(*student, block);
        StepSpec spec;
        spec.scan = StudentScan(k, kind.args, std::move(loaded), block);
        spec.pinned = kind.pinned;
        spec.padded_bytes = k.padded ? k.padded(w.SizeBytes(), block) : w.SizeBytes();
        spec.measure_allocation = kind.measure_allocation;
        return std::unique_ptr<StepInstance>(std::make_unique<GpuSplitStep>(w, std::move(spec)));
    };
    r.attributes = StudentAttributes(student);
    return r;
}

StepRunner ThrustRunner() {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext&) {
        StepSpec spec;
        spec.scan = &ThrustScan;
        spec.pinned = true;
        return std::unique_ptr<StepInstance>(std::make_unique<GpuSplitStep>(w, std::move(spec)));
    };
    return r;
}

StepRunner OverlappedChunksRunner(const SplitKernel& kernel) {
    return LaunchRunner(
        [&kernel](const ParamValues&) -> const SplitKernel& { return kernel; },
        [](const Workload& w, const StepContext&, const SplitKernel& k, int block) {
            return std::unique_ptr<StepInstance>(std::make_unique<OverlappedStep>(w, k, block));
        });
}

}  // namespace

PickKernel KernelByToggle(const Lesson& lesson, const std::vector<const SplitKernel*>& kernels) {
    const bool toggled = std::any_of(kernels.begin(), kernels.end(), [](const SplitKernel* k) {
        return std::any_of(k->toggles.begin(), k->toggles.end(),
                           [](const ToggleValue& t) { return t.name != nullptr; });
    });
    if (!toggled) {
        if (kernels.size() != 1)
            throw std::logic_error("it has " + std::to_string(kernels.size()) +
                                   " kernels to launch, and no toggle to choose among them");
        const SplitKernel& k = *kernels.front();
        return [&k](const ParamValues&) -> const SplitKernel& { return k; };
    }
    CheckVariants(lesson, kernels);
    return [kernels](const ParamValues& p) -> const SplitKernel& { return VariantAt(kernels, p); };
}

const SplitKernel& RangeKernelAsWritten(const std::vector<const SplitKernel*>& kernels) {
    const SplitKernel* found = nullptr;
    for (const SplitKernel* k : kernels)
        if (std::all_of(k->toggles.begin(), k->toggles.end(), AsWritten)) {
            if (found) throw std::logic_error("two kernels are the kernel as written");
            found = k;
        }
    if (!found) throw std::logic_error("none of the kernels is the kernel as written");
    if (!found->launch_range || !found->padded)
        throw std::logic_error(std::string("kernel ") + found->name +
                               " cannot scan a chunk of a longer text (no launch_range)");
    return *found;
}

void CheckLaunch(const SplitKernel& k, uint64_t n, int block) {
    cuda::CheckBlockAgainstKernel(k.kernel, k.name, block, k.dynamic_smem(block));
    const uint64_t blocks = k.blocks(n, block);
    if (blocks > static_cast<uint64_t>(INT_MAX))
        throw UsageError("this size needs " + std::to_string(blocks) + " blocks of " +
                         std::to_string(block) +
                         " threads, more than the grid limit of 2^31 - 1; use a larger block or "
                         "a smaller size");
}

StepRunner LaunchRunner(PickKernel pick, MakeKernelStep make) {
    StepRunner r;
    r.make = [pick, make](const Workload& w, const StepContext& c) {
        const SplitKernel& k = pick(c.params);
        const int block = BlockOf(c.params);
        CheckLaunch(k, w.SizeBytes(), block);
        return make(w, c, k, block);
    };
    r.attributes = [pick](const ParamValues& params) {
        const SplitKernel& k = pick(params);
        const int block = BlockOf(params);
        return cuda::QueryKernelAttributes(k.kernel, k.name, block, k.dynamic_smem(block));
    };
    return r;
}

LESSONS_STEP_KIND(Kernel, [](const Kernel& k, const StepSite& site) {
    return KernelRunner(KernelByToggle(site.lesson, KernelsOf<SplitKernel>(site, k.from)), k);
});
// A student's scan kernel: the arguments the row says its kernel takes; the 64-bit types and
// the output toggle's enum (split_toggles.h, which a kernel's instance line names) in the prelude.
namespace {

KernelSpec StudentSpec(const Kernel& kind) {
    KernelSpec spec;
    spec.signature =
        kind.args == ScanArgs::kWithN
            ? "const char*, uint64_t, unsigned long long*, unsigned long long*"
        : kind.args == ScanArgs::kWithOffsetBase
            ? "const char*, unsigned long long*, unsigned long long*, unsigned long long"
            : "const char*, unsigned long long*, unsigned long long*";
    spec.prelude = std::string(kNvrtcIntegers) +
                   EmbeddedDeclarations("kernels/split/split_toggles.h", {"enum class"});
    return spec;
}

}  // namespace

LESSONS_EXERCISE_KIND(
    Kernel, [](const Kernel& k, const StepSite&) { return StudentSpec(k); },
    [](const Kernel& k, const StepSite& site, std::shared_ptr<const StudentKernel> student) {
        return StudentRunner(KernelByToggle(site.lesson, KernelsOf<SplitKernel>(site, k.from)), k,
                             std::move(student));
    });
// The hidden cases of a scan exercise (`check`): texts given whole, where a pair at an odd
// position, a run of '\r' or a text of separators only breaks code that reads pairs two bytes
// at a time or forgets the last bytes; the chapter's data kinds at sizes that are no multiple of
// the 4 or 16 bytes a thread reads, nor of a block's share; the default size and one byte more.
namespace {

std::string Repeat(const std::string& unit, int times, const std::string& tail = "") {
    std::string out;
    for (int i = 0; i < times; ++i) out += unit;
    return out + tail;
}

// Lines ended by runs of 1 to 5 '\r' before their '\n': only the last '\r' of a run starts a
// pair.
std::string RunsOfCr(int lines) {
    std::string out;
    for (int i = 0; i < lines; ++i) out += std::string(size_t(i % 5 + 1), '\r') + "\n" + "ab";
    return out;
}

ExerciseCase SplitText(std::string name, std::string name_zh, std::string text) {
    return {std::move(name), std::move(name_zh), {}, std::move(text), true};
}

ExerciseCase SplitData(std::string name, std::string name_zh, uint64_t size, const char* data) {
    return {std::move(name), std::move(name_zh), {{"size", std::to_string(size)}, {"data", data}}};
}

}  // namespace

LESSONS_EXERCISE_CASES(Kernel, [](const Kernel&, const StepSite&) {
    ExerciseCaseSet set;
    set.size_param = "size";
    set.widths = {2, 4, 16, 256 * 4, 256 * 16};
    set.cases = {
        SplitData("1 byte of random text", "1 字节随机文本", 1, "random"),
        SplitText("2 bytes: one \\r\\n", "2 字节：一个 \\r\\n", "\r\n"),
        SplitText("3 bytes: a pair at an odd position", "3 字节：奇数位置上的一对", "a\r\n"),
        SplitText("5 bytes: pairs at odd positions only", "5 字节：只有奇数位置上的换行对",
                  "a\r\n\r\n"),
        SplitText("8195 bytes, all separators (\\r\\n from byte 0)",
                  "8195 字节，全是分隔符（从第 0 字节起的 \\r\\n）", Repeat("\r\n", 4097, "\r")),
        SplitText("8197 bytes, all separators (\\r\\n from byte 1)",
                  "8197 字节，全是分隔符（从第 1 字节起的 \\r\\n）", "\n" + Repeat("\r\n", 4098)),
        SplitText("runs of \\r before each \\n (10007 lines)", "每个 \\n 前有一串 \\r（10007 行）",
                  RunsOfCr(10007)),
        SplitText("a text of \\r only, then one \\r\\n at the very end",
                  "全是 \\r，只在最末尾有一个 \\r\\n", std::string(65537, '\r') + "\n"),
        SplitData("no separator at all, 1 MiB + 3 bytes", "完全没有分隔符，1 MiB + 3 字节",
                  (1 << 20) + 3, "none"),
        SplitData("dense lines, 28685 bytes (no multiple of 4 or 16)",
                  "密集短行，28685 字节（不是 4 或 16 的倍数）", 28685, "dense"),
        SplitData("dense lines, 4 MiB + 1 byte", "密集短行，4 MiB + 1 字节", (4 << 20) + 1,
                  "dense"),
        SplitData("random text, 64 MiB + 5 bytes (the default size and more)",
                  "随机文本，64 MiB + 5 字节（默认大小再多几个字节）", (uint64_t(64) << 20) + 5,
                  "random"),
    };
    return set;
});
LESSONS_STEP_KIND(Thrust, [](const Thrust&, const StepSite&) { return ThrustRunner(); });
LESSONS_STEP_KIND(OverlappedChunks, [](const OverlappedChunks&, const StepSite& site) {
    return OverlappedChunksRunner(
        RangeKernelAsWritten(KernelsOf<SplitKernel>(site, KernelsFrom::kPreviousLesson)));
});

}  // namespace lessons::split
