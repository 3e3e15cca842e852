// The harness of chapter 2's GPU steps. The kernel steps copy their inputs to the GPU when the
// step is set up and time the kernel alone (CUDA events); the transfer step times the
// host-to-device copy itself, as the host waits for it (steady_clock), and measures the
// allocations once.
#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "basics/basics_gpu.cuh"
#include "basics_chapter.h"
#include "basics_steps.h"
#include "cuda/cuda_util.h"
#include "cuda/module.h"
#include "errors.h"
#include "exercise.h"
#include "exercise_cases.h"
#include "exercise_kinds.h"
#include "kernel_timer.cuh"
#include "kernels_of.h"
#include "launch_checks.cuh"
#include "result.h"
#include "units.h"

namespace lessons::basics {
namespace {

// The kernels of a family, one per value of the lesson's parameter that selects among them:
// `implements(k)` is the value kernel k runs. Every value the parameter accepts must have
// exactly one kernel, and every kernel a value: checked when the runner is made, so that a
// mistake is reported at start.
template <class K>
class Variants {
public:
    using Implements = std::function<ParamValue(const K&)>;
    Variants(const Lesson& lesson, std::string param, const std::vector<const K*>& kernels,
             const Implements& implements)
        : m_param(std::move(param)) {
        const ParamSpec* spec = lesson.FindParam(m_param);
        if (!spec) throw std::logic_error("it has no parameter '" + m_param + "'");
        const std::vector<ParamValue> values = spec->Values();
        for (const ParamValue& v : values) {
            const K* found = nullptr;
            for (const K* k : kernels)
                if (implements(*k) == v) {
                    if (found) throw std::logic_error("two kernels run " + Name(*spec, v));
                    found = k;
                }
            if (!found) throw std::logic_error("no kernel runs " + Name(*spec, v));
            m_kernels.emplace_back(v, found);
        }
        if (m_kernels.size() != kernels.size())
            throw std::logic_error("a kernel runs a value '" + m_param + "' does not accept");
    }

    const K& operator()(const ParamValues& params) const {
        const ParamValue* value = params.Find(m_param);
        for (const auto& [v, k] : m_kernels)
            if (value && *value == v) return *k;
        throw std::logic_error("no kernel for this value of '" + m_param + "'");
    }

private:
    static std::string Name(const ParamSpec& spec, const ParamValue& v) {
        return spec.name + "=" + spec.Format(v);
    }

    std::string m_param;
    std::vector<std::pair<ParamValue, const K*>> m_kernels;
};

// Copies `n` floats to a device buffer on `stream`.
void Upload(float* device, const float* host, uint64_t n, cuda::Stream& stream) {
    if (n)
        LESSONS_CUDA_CHECK(
            cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream.get()));
}

void Download(float* host, const float* device, uint64_t n, cuda::Stream& stream) {
    if (n)
        LESSONS_CUDA_CHECK(
            cudaMemcpyAsync(host, device, n * sizeof(float), cudaMemcpyDeviceToHost, stream.get()));
    stream.Synchronize();
}

// A step whose timed part is kernels on its own stream, between two events.
class KernelStep : public StepInstance {
public:
    explicit KernelStep(const Workload& w) : m_work(static_cast<const BasicsWorkload&>(w)) {}

protected:
    template <typename Enqueue>
    Sample Timed(Enqueue&& enqueue) {
        return m_timer.Time(m_stream.get(),
                            [&](cudaStream_t s) { LESSONS_CUDA_CHECK(enqueue(s)); });
    }

    const BasicsWorkload& m_work;
    cuda::Stream m_stream;
    KernelTimer m_timer{KernelTimer::Batching::kShortKernelsBatched};
};

// y = x^T A on the stream: the step's kernel, or a student's in its place.
using VecMatLaunch =
    std::function<cudaError_t(const float* a, const float* x, float* y, unsigned rows,
                              uint64_t cols, int block, cudaStream_t stream)>;

class VecMatStep : public KernelStep {
public:
    VecMatStep(const Workload& w, VecMatLaunch launch, int block, unsigned rows)
        : KernelStep(w),
          m_launch(std::move(launch)),
          m_block(block),
          m_rows(rows),
          m_cols(VecMatColumns(m_work.count(), rows)),
          m_a(std::max<uint64_t>(m_rows * m_cols, 1), "the matrix A"),
          m_x(m_rows, "the vector x"),
          m_y(std::max<uint64_t>(m_cols, 1), "the output y"),
          m_host_y(m_cols) {
        if (m_cols) {
            Upload(m_a.get(), m_work.a(), m_rows * m_cols, m_stream);
            Upload(m_x.get(), m_work.b(), m_rows, m_stream);
        }
        m_stream.Synchronize();
    }
    Sample Run() override {
        return Timed([&](cudaStream_t s) {
            return m_launch(m_a.get(), m_x.get(), m_y.get(), m_rows, m_cols, m_block, s);
        });
    }
    Check Verify() const override {
        Download(m_host_y.data(), m_y.get(), m_cols, const_cast<cuda::Stream&>(m_stream));
        return CheckVecMat(m_work.a(), m_work.b(), m_rows, m_cols, m_host_y.data());
    }
    Work GetWork() const override { return VecMatWork(m_rows, m_cols); }

private:
    VecMatLaunch m_launch;
    int m_block;
    unsigned m_rows;
    uint64_t m_cols;
    cuda::DeviceBuffer<float> m_a, m_x, m_y;
    mutable std::vector<float> m_host_y;
};

// Branch divergence (out = f(in)) and coalescing (out = in + b), one thread per element; the
// coalescing step's arrays start `offset` floats into their allocations.
class ElementStep : public KernelStep {
public:
    ElementStep(const Workload& w, const ElementKernel& k, int block, bool two_inputs,
                unsigned offset, unsigned ways)
        : KernelStep(w),
          m_kernel(k),
          m_block(block),
          m_offset(offset),
          m_ways(ways),
          m_two(two_inputs),
          m_in(m_work.count() + offset + 1, "the input"),
          m_b(two_inputs ? m_work.count() + offset + 1 : 1, "the second input"),
          m_out(m_work.count() + offset + 1, "the output"),
          m_host_out(m_work.count()) {
        Upload(m_in.get() + m_offset, m_work.a(), m_work.count(), m_stream);
        if (m_two) Upload(m_b.get() + m_offset, m_work.b(), m_work.count(), m_stream);
        m_stream.Synchronize();
    }
    Sample Run() override {
        return Timed([&](cudaStream_t s) {
            return m_kernel.launch(m_in.get() + m_offset, m_b.get() + (m_two ? m_offset : 0),
                                   m_out.get() + m_offset, m_work.count(), m_block, s);
        });
    }
    Check Verify() const override {
        Download(m_host_out.data(), m_out.get() + m_offset, m_work.count(),
                 const_cast<cuda::Stream&>(m_stream));
        if (m_two) return CheckAdd(m_work.a(), m_work.b(), m_work.count(), m_host_out.data());
        return CheckDivergence(m_work.a(), m_work.count(), m_ways, m_host_out.data());
    }
    Work GetWork() const override {
        return m_two ? AddWork(m_work.count()) : DivergenceWork(m_work.count());
    }

private:
    const ElementKernel& m_kernel;
    int m_block;
    unsigned m_offset, m_ways;
    bool m_two;
    cuda::DeviceBuffer<float> m_in, m_b, m_out;
    mutable std::vector<float> m_host_out;
};

double MsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Pinned transfers: a host buffer of the chosen kind holding the data, sent to the GPU each run.
// At set-up it also measures what a pageable buffer costs (malloc + first touch) and, for
// the locked kinds, a few pageable and locked copies, for the break-even.
class TransferStep : public StepInstance {
public:
    TransferStep(const Workload& w, HostMemory kind)
        : m_work(static_cast<const BasicsWorkload&>(w)),
          m_bytes(m_work.SizeBytes()),
          m_device(std::max<uint64_t>(m_work.count(), 1), "the device copy") {
        Allocate(kind, &m_host);
        std::copy(m_work.a(), m_work.a() + m_work.count(), static_cast<float*>(m_host.ptr));
        if (kind != HostMemory::kPageable) {
            HostBuffer pageable;
            Allocate(HostMemory::kPageable, &pageable);
            m_alloc_pageable_ms = pageable.alloc_ms;
            std::copy(m_work.a(), m_work.a() + m_work.count(), static_cast<float*>(pageable.ptr));
            m_pageable_copy_ms = MedianCopyMs(pageable.ptr);
            FreeHost(&pageable);
            m_locked_copy_ms = MedianCopyMs(m_host.ptr);
        } else {
            m_alloc_pageable_ms = m_host.alloc_ms;
        }
    }
    ~TransferStep() override { FreeHost(&m_host); }
    TransferStep(const TransferStep&) = delete;
    TransferStep& operator=(const TransferStep&) = delete;

    Sample Run() override {
        const auto t0 = std::chrono::steady_clock::now();
        LESSONS_CUDA_CHECK(
            CopyToDeviceAndWait(m_device.get(), m_host.ptr, m_bytes, m_stream.get()));
        Sample s;
        s.total_ms = MsSince(t0);
        s.parts = {{"h2d", s.total_ms}};
        return s;
    }
    Check Verify() const override {
        std::vector<float> back(m_work.count());
        Download(back.data(), m_device.get(), m_work.count(), const_cast<cuda::Stream&>(m_stream));
        return CheckTransfer(m_work.a(), back.data(), m_work.count());
    }
    Work GetWork() const override { return TransferWork(m_bytes); }
    std::vector<NamedValue> Extras() const override {
        std::vector<NamedValue> out{{"alloc_pageable_ms", m_alloc_pageable_ms}};
        if (m_host.kind == HostMemory::kPageable) return out;
        const double locked_ms =
            m_host.kind == HostMemory::kPinned ? m_host.alloc_ms : m_host.register_ms;
        out.push_back(
            {m_host.kind == HostMemory::kPinned ? "alloc_pinned_ms" : "register_ms", locked_ms});
        out.push_back({"pageable_copy_ms", m_pageable_copy_ms});
        out.push_back({"locked_copy_ms", m_locked_copy_ms});
        // Pinned: what cudaMallocHost costs beyond malloc + touch; registered: the register
        // call on top of a buffer the program had anyway.
        const double extra = m_host.kind == HostMemory::kPinned
                                 ? m_host.alloc_ms - m_alloc_pageable_ms
                                 : m_host.register_ms;
        const double runs = BreakEvenRuns(extra, m_pageable_copy_ms - m_locked_copy_ms);
        if (runs >= 0) out.push_back({"break_even_runs", runs});
        return out;
    }

private:
    void Allocate(HostMemory kind, HostBuffer* out) {
        const cudaError_t e = AllocateHost(kind, m_bytes, out);
        if (e == cudaErrorMemoryAllocation || e == cudaErrorHostMemoryAlreadyRegistered) {
            cudaGetLastError();
            throw UsageError(std::string("cannot allocate ") + FormatSize(m_bytes) + " of " +
                             kMemoryNames[size_t(kind)] +
                             " host memory (memory=" + kMemoryNames[size_t(kind)] +
                             "): choose a smaller size or another kind of memory");
        }
        LESSONS_CUDA_CHECK(e);
    }
    double MedianCopyMs(const void* host) {
        std::vector<double> ms;
        for (int i = 0; i < 3; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            LESSONS_CUDA_CHECK(CopyToDeviceAndWait(m_device.get(), host, m_bytes, m_stream.get()));
            ms.push_back(MsSince(t0));
        }
        return Median(ms);
    }

    const BasicsWorkload& m_work;
    uint64_t m_bytes;
    cuda::DeviceBuffer<float> m_device;
    cuda::Stream m_stream;
    HostBuffer m_host;
    double m_alloc_pageable_ms = 0, m_pageable_copy_ms = 0, m_locked_copy_ms = 0;
};

// The host memory a `memory` choice names.
HostMemory MemoryOf(const ParamValues& params) {
    const std::string& name = params.Choice("memory");
    for (size_t i = 0; i < kMemoryNames.size(); ++i)
        if (name == kMemoryNames[i]) return static_cast<HostMemory>(i);
    throw std::logic_error("no host memory named '" + name + "'");
}

template <class K>
using PickKernel = std::function<const K&(const ParamValues&)>;
// Dynamic shared memory of a block of kernel k at a parameter set.
template <class K>
using SharedBytes = std::function<size_t(const K&, const ParamValues&)>;
// Sets up a step that launches kernel k with `block` threads (already checked).
template <class K>
using MakeKernelStep = std::function<std::unique_ptr<StepInstance>(
    const Workload&, const ParamValues&, const K& k, int block)>;

// A runner whose step launches the picked kernel: the block checked against the kernel before
// the step is made, the kernel's attributes reported at a block size.
template <class K>
StepRunner KernelRunner(PickKernel<K> pick, SharedBytes<K> smem, MakeKernelStep<K> make) {
    StepRunner r;
    r.make = [pick, smem, make](const Workload& w, const StepContext& c) {
        const K& k = pick(c.params);
        const int block = BlockOf(c.params);
        cuda::CheckBlockAgainstKernel(k.kernel, k.name, block, smem(k, c.params));
        return make(w, c.params, k, block);
    };
    r.attributes = [pick, smem](const ParamValues& p) {
        const K& k = pick(p);
        return cuda::QueryKernelAttributes(k.kernel, k.name, BlockOf(p), smem(k, p));
    };
    return r;
}

size_t NoSharedBytes(const ElementKernel&, const ParamValues&) {
    return 0;
}

unsigned Rows(const ParamValues& p) {
    return static_cast<unsigned>(p.Number("rows"));
}

}  // namespace

LESSONS_STEP_KIND(VecMat, [](const VecMat&, const StepSite& site) {
    const Variants<VecMatKernel> variants(
        site.lesson, "variant", KernelsOf<VecMatKernel>(site),
        [](const VecMatKernel& k) { return ParamValue::Choice(k.variant); });
    return KernelRunner<VecMatKernel>(
        variants,
        [](const VecMatKernel& k, const ParamValues& p) { return k.dynamic_smem(Rows(p)); },
        [](const Workload& w, const ParamValues& p, const VecMatKernel& k, int block) {
            return std::unique_ptr<StepInstance>(
                std::make_unique<VecMatStep>(w, k.launch, block, Rows(p)));
        });
});
// A student's kernel (an exercise) in place of the variant's own: one thread per column,
// ceil(cols / block) blocks, the variant's dynamic shared memory (x's rows of floats), the
// same check and timing.
LESSONS_EXERCISE_KIND(
    VecMat,
    [](const VecMat&, const StepSite&) {
        KernelSpec spec;  // the arguments VecMatLaunch passes below
        spec.signature = "const float*, const float*, float*, unsigned, uint64_t";
        spec.prelude = kNvrtcIntegers;
        return spec;
    },
    [](const VecMat&, const StepSite& site, std::shared_ptr<const StudentKernel> student) {
        const Variants<VecMatKernel> variants(
            site.lesson, "variant", KernelsOf<VecMatKernel>(site),
            [](const VecMatKernel& k) { return ParamValue::Choice(k.variant); });
        StepRunner r;
        r.make = [variants, student](const Workload& w, const StepContext& c) {
            const VecMatKernel& k = variants(c.params);
            const int block = BlockOf(c.params);
            const unsigned rows = Rows(c.params);
            const size_t smem = k.dynamic_smem(rows);
            cuda::CheckBlockAgainstKernel(k.kernel, k.name, block, smem);
            auto loaded = cuda::LoadStudentKernel(*student, block);
            VecMatLaunch launch = [loaded, smem](const float* a, const float* x, float* y,
                                                 unsigned n_rows, uint64_t cols, int threads,
                                                 cudaStream_t s) {
                if (cols == 0) return cudaSuccess;
                void* args[] = {&a, &x, &y, &n_rows, &cols};
                loaded->Launch(static_cast<unsigned>((cols + threads - 1) / threads),
                               static_cast<unsigned>(threads), s, args,
                               static_cast<unsigned>(smem));
                return cudaSuccess;
            };
            return std::unique_ptr<StepInstance>(
                std::make_unique<VecMatStep>(w, std::move(launch), block, rows));
        };
        r.attributes = StudentAttributes(student);
        return r;
    });
// The hidden cases of the vector x matrix exercise (`check`): one row and one column, rows that
// are no multiple of the block that stages x, columns that are no multiple of the block, and the
// default size's worth of floats with 8192 rows; sizes are rows x columns floats.
namespace {

ExerciseCase VecMatCase(uint64_t rows, uint64_t cols, const char* data) {
    const bool ones = std::string(data) == "ones";
    const std::string dims = std::to_string(rows) + " x " + std::to_string(cols);
    return {dims + " (" + (ones ? "all 1.0" : "random") + ")",
            dims + "（" + (ones ? "全 1" : "随机") + "）",
            {{"rows", std::to_string(rows)},
             {"size", std::to_string(rows * cols * sizeof(float))},
             {"data", data}}};
}

}  // namespace

LESSONS_EXERCISE_CASES(VecMat, [](const VecMat&, const StepSite&) {
    ExerciseCaseSet set;
    set.size_param = "rows";
    set.widths = {32, 256};
    set.cases = {VecMatCase(1, 1, "ones"), VecMatCase(3, 5, "ones"), VecMatCase(257, 1025, "ones"),
                 VecMatCase(1000, 333, "random"), VecMatCase(8192, 2049, "random")};
    return set;
});

LESSONS_STEP_KIND(Divergence, [](const Divergence&, const StepSite& site) {
    const Variants<ElementKernel> variants(
        site.lesson, "divergence", KernelsOf<ElementKernel>(site), [](const ElementKernel& k) {
            const char* name = DivergenceName(k.ways);
            return ParamValue::Choice(name ? name : "");
        });
    return KernelRunner<ElementKernel>(
        variants, &NoSharedBytes,
        [](const Workload& w, const ParamValues&, const ElementKernel& k, int block) {
            return std::unique_ptr<StepInstance>(
                std::make_unique<ElementStep>(w, k, block, false, 0u, k.ways));
        });
});

LESSONS_STEP_KIND(Add, [](const Add&, const StepSite& site) {
    const Variants<ElementKernel> variants(
        site.lesson, "stride", KernelsOf<ElementKernel>(site),
        [](const ElementKernel& k) { return ParamValue::Number(k.stride); });
    return KernelRunner<ElementKernel>(
        variants, &NoSharedBytes,
        [](const Workload& w, const ParamValues& p, const ElementKernel& k, int block) {
            const unsigned offset = static_cast<unsigned>(p.Number("offset"));
            return std::unique_ptr<StepInstance>(
                std::make_unique<ElementStep>(w, k, block, true, offset, 1u));
        });
});

LESSONS_STEP_KIND(Transfer, [](const Transfer&, const StepSite&) {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext& c) {
        return std::unique_ptr<StepInstance>(std::make_unique<TransferStep>(w, MemoryOf(c.params)));
    };
    return r;
});

}  // namespace lessons::basics
