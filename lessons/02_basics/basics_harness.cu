// The harness of chapter 2's GPU steps. Lessons 15-17 copy their inputs to the GPU when the
// step is set up and time the kernel alone (CUDA events); lesson 18 times the host-to-device
// copy itself, as the host waits for it (steady_clock), and measures the allocations once.
#include <algorithm>
#include <array>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "basics/basics_gpu.cuh"
#include "basics_chapter.h"
#include "cuda/cuda_util.h"
#include "errors.h"
#include "result.h"
#include "units.h"

namespace lessons::basics {
namespace {

int Block(const ParamValues& params) {
    return static_cast<int>(params.Number("block"));
}

// The position of a choice among its names, which index the kernel tables.
template <size_t N>
size_t Index(const ParamValues& params, const char* name, const std::array<const char*, N>& names) {
    const std::string& value = params.Choice(name);
    for (size_t i = 0; i < N; ++i)
        if (value == names[i]) return i;
    throw std::logic_error(std::string("no kernel for ") + name + "=" + value);
}

size_t StrideIndex(const ParamValues& params) {
    const uint64_t stride = params.Number("stride");
    for (size_t i = 0; i < kStrides.size(); ++i)
        if (kStrides[i] == stride) return i;
    throw std::logic_error("no kernel for stride=" + std::to_string(stride));
}

const VecMatKernel& VecMat(const ParamValues& p) {
    return kVecMat15[Index(p, "variant", kVecMatNames)];
}
const ElementKernel& Divergence(const ParamValues& p) {
    return kDivergence16[Index(p, "divergence", kDivergenceNames)];
}
const ElementKernel& Add(const ParamValues& p) {
    return kAdd17[StrideIndex(p)];
}

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
        m_start.Record(m_stream.get());
        LESSONS_CUDA_CHECK(enqueue(m_stream.get()));
        m_stop.Record(m_stream.get());
        m_stream.Synchronize();
        Sample s;
        s.total_ms = cuda::ElapsedMs(m_start, m_stop);
        s.parts = {{"kernel", s.total_ms}};
        return s;
    }

    const BasicsWorkload& m_work;
    cuda::Stream m_stream;
    cuda::Event m_start, m_stop;
};

class VecMatStep : public KernelStep {
public:
    VecMatStep(const Workload& w, const VecMatKernel& k, int block, unsigned rows)
        : KernelStep(w),
          m_kernel(k),
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
            return m_kernel.launch(m_a.get(), m_x.get(), m_y.get(), m_rows, m_cols, m_block, s);
        });
    }
    Check Verify() const override {
        Download(m_host_y.data(), m_y.get(), m_cols, const_cast<cuda::Stream&>(m_stream));
        return CheckVecMat(m_work.a(), m_work.b(), m_rows, m_cols, m_host_y.data());
    }
    Work GetWork() const override { return VecMatWork(m_rows, m_cols); }

private:
    const VecMatKernel& m_kernel;
    int m_block;
    unsigned m_rows;
    uint64_t m_cols;
    cuda::DeviceBuffer<float> m_a, m_x, m_y;
    mutable std::vector<float> m_host_y;
};

// Lessons 16 (out = f(in)) and 17 (out = in + b), one thread per element; lesson 17's
// arrays start `offset` floats into their allocations.
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

// Lesson 18: a host buffer of the chosen kind holding the data, sent to the GPU each run.
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

StepRunner VecMatRunner() {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext& c) {
        const VecMatKernel& k = VecMat(c.params);
        const unsigned rows = static_cast<unsigned>(c.params.Number("rows"));
        cuda::CheckBlockAgainstKernel(k.kernel, k.name, Block(c.params), k.dynamic_smem(rows));
        return std::unique_ptr<StepInstance>(
            std::make_unique<VecMatStep>(w, k, Block(c.params), rows));
    };
    r.attributes = [](const ParamValues& p) {
        const VecMatKernel& k = VecMat(p);
        return cuda::QueryKernelAttributes(k.kernel, k.name, Block(p),
                                           k.dynamic_smem(static_cast<unsigned>(p.Number("rows"))));
    };
    return r;
}

StepRunner DivergenceRunner() {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext& c) {
        const ElementKernel& k = Divergence(c.params);
        cuda::CheckBlockAgainstKernel(k.kernel, k.name, Block(c.params));
        const unsigned ways = kDivergenceWays[Index(c.params, "divergence", kDivergenceNames)];
        return std::unique_ptr<StepInstance>(
            std::make_unique<ElementStep>(w, k, Block(c.params), false, 0u, ways));
    };
    r.attributes = [](const ParamValues& p) {
        const ElementKernel& k = Divergence(p);
        return cuda::QueryKernelAttributes(k.kernel, k.name, Block(p));
    };
    return r;
}

StepRunner AddRunner() {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext& c) {
        const ElementKernel& k = Add(c.params);
        cuda::CheckBlockAgainstKernel(k.kernel, k.name, Block(c.params));
        const unsigned offset = static_cast<unsigned>(c.params.Number("offset"));
        return std::unique_ptr<StepInstance>(
            std::make_unique<ElementStep>(w, k, Block(c.params), true, offset, 1u));
    };
    r.attributes = [](const ParamValues& p) {
        const ElementKernel& k = Add(p);
        return cuda::QueryKernelAttributes(k.kernel, k.name, Block(p));
    };
    return r;
}

StepRunner TransferRunner() {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext& c) {
        const auto kind = static_cast<HostMemory>(Index(c.params, "memory", kMemoryNames));
        return std::unique_ptr<StepInstance>(std::make_unique<TransferStep>(w, kind));
    };
    return r;
}

}  // namespace

std::vector<std::pair<std::string, StepRunner>> BasicsGpuRunners() {
    return {
        {"basics/15-global-vs-shared", VecMatRunner()},
        {"basics/16-branch-divergence", DivergenceRunner()},
        {"basics/17-coalescing", AddRunner()},
        {"basics/18-pinned-transfers", TransferRunner()},
    };
}

}  // namespace lessons::basics
