#include "split_chapter.h"

#include <algorithm>
#include <ostream>

#include "checked.h"
#include "errors.h"
#include "files.h"
#include "generators.h"
#include "host_timing.h"
#include "split/split_cpu.h"
#include "units.h"

namespace lessons::split {
namespace {

// Maps any byte onto the 254 values that are neither '\r' nor '\n'.
char NoBreak(unsigned char b) {
    if (b == '\r' || b == '\n') return static_cast<char>(b + 100);
    return static_cast<char>(b);
}

void FillDenseChunk(SplitMix64& rng, char* out, uint64_t n) {
    static const char kPrintable[] = "abcdefghijklmnopqrstuvwxyz0123456789 ,.;";
    uint64_t i = 0;
    uint64_t bits = 0;
    int bits_left = 0;
    while (i < n) {
        if (bits_left < 16) {
            bits = rng.Next();
            bits_left = 64;
        }
        const int length = static_cast<int>(bits & 3);  // 0..3 bytes of text, then "\r\n"
        bits >>= 2;
        bits_left -= 2;
        for (int k = 0; k < length && i < n; ++k) {
            out[i++] = kPrintable[(bits & 0x3f) % (sizeof kPrintable - 1)];
            bits >>= 4;
            bits_left -= 4;
        }
        if (i < n) out[i++] = '\r';
        if (i < n) out[i++] = '\n';
    }
}

}  // namespace

TextKind ParseTextKind(const std::string& name) {
    if (name == "dense") return TextKind::kDense;
    if (name == "none") return TextKind::kNone;
    if (name == "random") return TextKind::kRandom;
    throw UsageError("unknown text kind '" + name + "': use random, dense or none");
}

void FillSplitText(TextKind kind, uint64_t seed, char* out, uint64_t size,
                   const std::atomic<bool>* cancel) {
    GenerateChunks(
        size, seed,
        [kind, out](SplitMix64& rng, uint64_t begin, uint64_t n) {
            char* chunk = out + begin;
            switch (kind) {
                case TextKind::kRandom:
                    FillRandomBytes(rng, chunk, n);
                    break;
                case TextKind::kDense:
                    FillDenseChunk(rng, chunk, n);
                    break;
                case TextKind::kNone:
                    FillRandomBytes(rng, chunk, n);
                    for (uint64_t i = 0; i < n; ++i)
                        chunk[i] = NoBreak(static_cast<unsigned char>(chunk[i]));
                    break;
            }
        },
        cancel);
}

SplitWorkload::SplitWorkload(const WorkloadSpec& spec) : m_size(spec.params.Number("size")) {
    m_data.reset(new char[m_size ? m_size : 1]);
    if (!spec.input_file.empty()) {
        ReadRegularFile(spec.input_file, m_data.get(), m_size, spec.cancel);
    } else {
        FillSplitText(ParseTextKind(spec.params.Choice("data")), spec.seed, m_data.get(), m_size,
                      spec.cancel);
    }
    m_reference = SplitReference(m_data.get(), m_size);
}

uint64_t SplitWorkloadHostBytes(uint64_t n) {
    return SaturatingAdd(n, SaturatingMul(8, SplitCapacity(n)));
}

SplitStep::SplitStep(const Workload& workload, bool on_gpu)
    : m_work(static_cast<const SplitWorkload&>(workload)),
      m_out(new uint64_t[SplitCapacity(workload.SizeBytes())]),
      m_on_gpu(on_gpu) {}

namespace {

constexpr MessageForm kTooMany{"split.too-many-offsets",
                               "the step reported {1} offsets, more than the buffer can hold",
                               "该步骤报告了 {1} 个偏移，超出缓冲区的容量"};
// The first difference of the sorted offsets: both hold one there, or one list has ended.
constexpr MessageForm kWrongBreaks{
    "split.wrong-breaks",
    "found {1} line breaks, expected {2}; first difference at sorted position {3}: got {4}, "
    "expected {5}",
    "找到 {1} 个换行，应为 {2} 个；排序后第一个不同在位置 {3}：得到 {4}，应为 {5}"};
constexpr MessageForm kMissingBreaks{
    "split.missing-breaks",
    "found {1} line breaks, expected {2}; first difference at sorted position {3}: got nothing, "
    "expected {4}",
    "找到 {1} 个换行，应为 {2} 个；排序后第一个不同在位置 {3}：没有得到，应为 {4}"};
constexpr MessageForm kExtraBreaks{
    "split.extra-breaks",
    "found {1} line breaks, expected {2}; first difference at sorted position {3}: got {4}, "
    "expected nothing",
    "找到 {1} 个换行，应为 {2} 个；排序后第一个不同在位置 {3}：得到 {4}，不应有"};

}  // namespace

std::vector<MessageForm> SplitMessages() {
    return {kTooMany, kWrongBreaks, kMissingBreaks, kExtraBreaks};
}

Check SplitStep::Verify() const {
    Check check;
    check.values.push_back({"found", double(m_found)});
    const std::vector<uint64_t>& expected = m_work.reference();
    if (m_found > SplitCapacity(m_work.SizeBytes())) {
        check.Fail(kTooMany, {std::to_string(m_found)});
        return check;
    }
    std::vector<uint64_t> got(m_out.get(), m_out.get() + m_found);
    std::sort(got.begin(), got.end());
    if (got == expected) {
        check.ok = true;
        return check;
    }
    const auto mismatch = std::mismatch(got.begin(), got.end(), expected.begin(), expected.end());
    std::vector<std::string> args = {std::to_string(got.size()), std::to_string(expected.size()),
                                     std::to_string(mismatch.first - got.begin())};
    if (mismatch.first == got.end()) {
        args.push_back(std::to_string(*mismatch.second));  // got ended first (they differ)
        check.Fail(kMissingBreaks, std::move(args));
    } else if (mismatch.second == expected.end()) {
        args.push_back(std::to_string(*mismatch.first));
        check.Fail(kExtraBreaks, std::move(args));
    } else {
        args.push_back(std::to_string(*mismatch.first));
        args.push_back(std::to_string(*mismatch.second));
        check.Fail(kWrongBreaks, std::move(args));
    }
    return check;
}

Work SplitWork(uint64_t n, uint64_t found, bool on_gpu) {
    Work w;
    w.bytes_read = n;
    if (on_gpu) {
        w.h2d_bytes = n;
        w.bound = Bound::kRead;  // read-mostly: the text once, 8 bytes per (rare) line break
    }
    CountBreaks(w, found, on_gpu);
    return w;
}

void CountBreaks(Work& work, uint64_t found, bool on_gpu) {
    work.bytes_written = 8 * found;
    work.d2h_bytes = on_gpu ? 8 * found + 8 : 0;  // the offsets and their count
}

uint64_t ExpectedBreaks(const std::string& data, uint64_t n) {
    if (n < 2) return 0;
    if (data == "dense") return static_cast<uint64_t>(static_cast<double>(n) / 3.5);
    if (data == "none") return 0;
    return (n - 1) / 65536;  // random (and a file, as the best guess): "\r\n" is 1 in 256 x 256
}

Work SplitStep::Measured(Work declared) const {
    CountBreaks(declared, m_found, m_on_gpu);
    return declared;
}

void SplitStep::WriteOutput(std::ostream& out) const {
    std::vector<uint64_t> sorted(m_out.get(), m_out.get() + m_found);
    std::sort(sorted.begin(), sorted.end());
    for (uint64_t v : sorted) out << v << '\n';
}

MemoryNeeds SplitCpuNeeds(const ParamValues& params) {
    const uint64_t n = params.Number("size");
    return {SaturatingMul(8, SplitCapacity(n)), 0};
}

MemoryNeeds SplitGpuNeeds(const ParamValues& params) {
    // The text (with up to 64 KiB of padding), the offsets, the counter.
    const uint64_t n = params.Number("size");
    const uint64_t offsets = SaturatingMul(8, SplitCapacity(n));
    const uint64_t text = SaturatingAdd(n, uint64_t(64) << 10);
    return {offsets, SaturatingAdd(text, offsets + 8)};
}

MemoryNeeds SplitPinnedGpuNeeds(const ParamValues& params) {
    MemoryNeeds needs = SplitGpuNeeds(params);
    // The page-locked copy of the text.
    needs.host_bytes = SaturatingAdd(needs.host_bytes, params.Number("size"));
    return needs;
}

namespace {

// A CPU step: one call of a kernels/split function, timed with steady_clock.
template <typename Fn>
class CpuSplitStep : public SplitStep {
public:
    CpuSplitStep(const Workload& w, Fn fn) : SplitStep(w, false), m_fn(fn) {}
    Sample Run() override {
        return TimeOnHost(
            [this] { m_found = m_fn(m_work.data(), m_work.SizeBytes(), m_out.get()); });
    }

private:
    Fn m_fn;
};

template <typename Fn>
std::unique_ptr<StepInstance> MakeCpu(const Workload& w, Fn fn) {
    return std::make_unique<CpuSplitStep<Fn>>(w, fn);
}

}  // namespace

std::unique_ptr<StepInstance> MakeSplitNaive(const Workload& w, const StepContext&) {
    return MakeCpu(w, &SplitNaive);
}

std::unique_ptr<StepInstance> MakeSplitEvenPositions(const Workload& w, const StepContext&) {
    return MakeCpu(w, &SplitEvenPositions);
}

std::unique_ptr<StepInstance> MakeSplitOpenMP(const Workload& w, const StepContext& c) {
    const int threads = static_cast<int>(c.params.Number("threads"));
    return MakeCpu(w, [threads](const char* buf, uint64_t n, uint64_t* out) {
        return SplitOpenMP(buf, n, out, threads);
    });
}

}  // namespace lessons::split
