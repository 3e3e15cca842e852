// What a GPU step's timed region holds (issue 40, item 1): the calls the host made between the
// two events whose elapsed time became a sample, seen through CUPTI's callbacks. Every step of
// the chapters whose rate is over their kernels (2, 3, 4, 5, 6, 8, 9, 10) is run, and each of
// its timed regions must hold:
//   - at least one kernel launch, and for a step with kernels of its own, one of those;
//   - none of the engine's own kernels (the timing hold, the L2 flush, the ceilings' kernels);
//   - no copy or memset of the program's own, and no call that waits for the GPU (a
//     synchronize, a blocking copy, a free), which would also let the timing hold go by itself.
// A library step's region may hold the library's own memsets: they are part of its call, as in
// any program's timing of it. Whether the times then agree with the kernels' under Nsight
// Compute is a benchmark (scripts/step-vs-ncu.sh), not a test: a bound between two timings is
// for a person to read on a shared machine.
// Without a GPU, or without CUPTI (libcupti.so of the CUDA toolkit), it reports SKIPPED with the
// reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "catalog.h"
#include "device.h"
#include "dl_open.h"
#include "gpu_lessons.h"
#include "gpu_test.h"
#include "machine_code.h"
#include "session.h"

#if LESSONS_HAVE_CUPTI
#include <cupti.h>

#include "cuda/cuda_util.h"
#endif

using namespace lessons;

#if LESSONS_HAVE_CUPTI
namespace {

// CUPTI's calls, opened at run time: a test program that links libcupti would not start where
// the toolkit's library folder is not on the loader's path.
struct Cupti {
    CUptiResult (*subscribe)(CUpti_SubscriberHandle*, CUpti_CallbackFunc, void*) = nullptr;
    CUptiResult (*unsubscribe)(CUpti_SubscriberHandle) = nullptr;
    CUptiResult (*enable_domain)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain) = nullptr;
    std::string why;  // empty when loaded
};

const Cupti& LoadCupti() {
    static const Cupti api = [] {
        Cupti a;
        std::vector<std::string> candidates = {"libcupti.so.13", "libcupti.so"};
        for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
            if (const char* home = std::getenv(var); home && *home)
                for (const char* sub : {"/lib64/", "/lib/", "/extras/CUPTI/lib64/"})
                    candidates.push_back(std::string(home) + sub + "libcupti.so");
        for (const char* sub : {"/lib64/", "/lib/", "/extras/CUPTI/lib64/"})
            candidates.push_back(std::string("/usr/local/cuda") + sub + "libcupti.so");
        std::string tried, reason;
        for (const std::string& c : candidates) {
            void* h = dl::Open(c, tried, reason);
            if (!h) continue;
            if (dl::Bind(h, "cuptiSubscribe", a.subscribe) &&
                dl::Bind(h, "cuptiUnsubscribe", a.unsubscribe) &&
                dl::Bind(h, "cuptiEnableDomain", a.enable_domain))
                return a;
            dl::Tried(tried, c + " (without cuptiSubscribe)");
        }
        a.why = "no CUPTI library could be opened (tried " + tried + ")";
        return a;
    }();
    return api;
}

// One API call as the callback saw it on entry.
struct Call {
    std::string function;         // "cudaLaunchKernel", "cuMemsetD32Async", ...
    std::string symbol;           // the kernel of a launch
    const void* event = nullptr;  // the event of an event record
};

// The calls of every thread, in order, and the pairs of events whose elapsed time was read.
struct Trace {
    std::mutex mutex;
    std::map<std::thread::id, std::vector<Call>> calls;
    struct Elapsed {
        std::thread::id thread;
        size_t at = 0;  // index in the thread's calls
        const void* start = nullptr;
        const void* stop = nullptr;
        unsigned long long hold_timeouts = 0;  // the process's count when it was read
    };
    std::vector<Elapsed> elapsed;
};

void CUPTIAPI OnCall(void* user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                     const void* data) {
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    const auto* d = static_cast<const CUpti_CallbackData*>(data);
    if (d->callbackSite != CUPTI_API_ENTER || !d->functionName) return;
    auto* trace = static_cast<Trace*>(user);
    Call call;
    call.function = d->functionName;
    if (call.function.find("Launch") != std::string::npos && d->symbolName)
        call.symbol = d->symbolName;
    const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
    if (runtime && (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020 ||
                    cbid == CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010))
        call.event = static_cast<const cudaEventRecord_v3020_params*>(d->functionParams)->event;
    std::lock_guard<std::mutex> lock(trace->mutex);
    std::vector<Call>& mine = trace->calls[std::this_thread::get_id()];
    if (runtime && (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v3020 ||
                    cbid == CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v12080)) {
        const auto* p = static_cast<const cudaEventElapsedTime_v12080_params*>(d->functionParams);
        // The host reads the time once the stop event is done: the region's hold has ended.
        trace->elapsed.push_back({std::this_thread::get_id(), mine.size(), p->start, p->end,
                                  cuda::StreamHoldTimeouts()});
    }
    mine.push_back(std::move(call));
}

// The callbacks on for the life of the object.
class Subscription {
public:
    explicit Subscription(Trace& trace) {
        const Cupti& api = LoadCupti();
        m_result = api.subscribe(&m_handle, &OnCall, &trace);
        if (m_result != CUPTI_SUCCESS) {
            m_handle = nullptr;
            return;
        }
        m_ok = api.enable_domain(1, m_handle, CUPTI_CB_DOMAIN_RUNTIME_API) == CUPTI_SUCCESS &&
               api.enable_domain(1, m_handle, CUPTI_CB_DOMAIN_DRIVER_API) == CUPTI_SUCCESS;
    }
    ~Subscription() {
        if (m_handle) LoadCupti().unsubscribe(m_handle);
    }
    Subscription(const Subscription&) = delete;
    Subscription& operator=(const Subscription&) = delete;
    bool ok() const { return m_ok; }
    // Another tool (ncu, nsys, a sanitizer) holds CUPTI's one subscription.
    bool taken() const { return m_result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED; }
    int result() const { return static_cast<int>(m_result); }

private:
    CUpti_SubscriberHandle m_handle = nullptr;
    CUptiResult m_result = CUPTI_SUCCESS;
    bool m_ok = false;
};

bool Has(const std::string& s, const char* part) {
    return s.find(part) != std::string::npos;
}

bool IsLaunch(const Call& c) {
    return (Has(c.function, "LaunchKernel") || Has(c.function, "LaunchCooperativeKernel")) &&
           !c.symbol.empty();
}

// A call that puts work other than a kernel on the GPU.
bool IsCopyOrSet(const Call& c) {
    return Has(c.function, "Memcpy") || Has(c.function, "Memset") ||
           Has(c.function, "LaunchHostFunc") || Has(c.function, "GraphLaunch");
}

// A call that makes the host wait for the GPU: a synchronize, a copy that is not asynchronous, a
// free (which waits for the device).
bool Waits(const Call& c) {
    if (Has(c.function, "Synchronize")) return true;
    if (Has(c.function, "Memcpy") && !Has(c.function, "Async")) return true;
    return c.function == "cudaFree" || c.function.rfind("cuMemFree", 0) == 0;
}

// The engine's own kernels, which are never a step's work.
const char* const kEngineKernels[] = {"hold_kernel",         "flush_l2_kernel",
                                      "ceiling_read_kernel", "ceiling_read_tiles_kernel",
                                      "ceiling_fma_kernel",  "ceiling_empty_kernel"};

// Steps that call a library between kernels of their own: the library's memsets are its call's.
const std::set<std::string> kLibraryInside = {"attention/unfused"};

// Steps whose timed region is not their kernels', and why.
const std::map<std::string, std::string> kNotOverKernels = {
    {"basics/pinned-transfers", "its work is the copies it times"},
    {"reduce/multi-gpu-nccl", "a run over the GPUs, each timed on its own thread"},
};

struct Region {
    std::vector<const Call*> calls;
    unsigned long long hold_timeouts = 0;  // holds that let go by themselves in this region
};

// The regions of one run: for each elapsed-time read, the calls of its thread after the last
// record of its start event and before the record of its stop event. `timeouts` is the count of
// holds that let go by themselves before the run.
std::vector<Region> Regions(const Trace& trace, unsigned long long timeouts) {
    std::vector<Region> out;
    for (const Trace::Elapsed& e : trace.elapsed) {
        const unsigned long long before = timeouts;
        timeouts = e.hold_timeouts;
        const std::vector<Call>& calls = trace.calls.at(e.thread);
        size_t stop = e.at, start = e.at;
        bool found_stop = false, found_start = false;
        for (size_t i = e.at; i-- > 0;) {
            if (!found_stop) {
                if (calls[i].event == e.stop) {
                    stop = i;
                    found_stop = true;
                }
                continue;
            }
            if (calls[i].event == e.start) {
                start = i;
                found_start = true;
                break;
            }
        }
        if (!found_start) continue;  // events recorded on another thread: not this check's
        Region r;
        r.hold_timeouts = e.hold_timeouts - before;
        for (size_t i = start + 1; i < stop; ++i) r.calls.push_back(&calls[i]);
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace

TEST(GpuTimedRegion, EveryStepTimesItsKernelsAndNothingElse) {
    REQUIRE_GPU();
    if (!LoadCupti().why.empty()) GTEST_SKIP() << LoadCupti().why;
    Session session(RunnableCatalog());
    int checked = 0;
    std::vector<std::string> not_here;
    for (const char* chapter :
         {"basics", "reduce", "gemv", "gemm", "roofline", "tensor-cores", "softmax", "attention"}) {
        for (const Lesson* lesson : GpuLessonsOf(chapter)) {
            const std::string what = lesson->id;
            if (kNotOverKernels.count(what)) continue;
            if (const std::string why = session.Unavailable(*lesson); !why.empty()) {
                not_here.push_back(what + ": " + why);
                continue;
            }
            const std::vector<std::string> own =
                KernelNames(*lesson, RunnableCatalog().FindLesson(lesson->previous));
            const unsigned long long timeouts_before = cuda::StreamHoldTimeouts();
            Trace trace;
            RunResult result;
            {
                Subscription sub(trace);
                if (sub.taken())
                    GTEST_SKIP() << "another tool (ncu, nsys, a sanitizer) holds CUPTI's callbacks";
                ASSERT_TRUE(sub.ok()) << "CUPTI's callbacks could not be turned on (CUptiResult "
                                      << sub.result() << ")";
                RunOptions o = OneRun(40 + checked);
                o.reps = 3;
                result = session.Run(*lesson, o);
            }
            ASSERT_TRUE(result.verified) << what << ": " << result.check_message;
            const std::vector<Region> regions = Regions(trace, timeouts_before);
            ASSERT_EQ(regions.size(), 4u)
                << what << ": timed regions other than the checked run's and three samples'";
            for (size_t i = 0; i < regions.size(); ++i) {
                const Region& r = regions[i];
                // The first region is the checked run's, the others the timed samples'.
                EXPECT_EQ(r.hold_timeouts, 0u)
                    << what << ": region " << i + 1 << " of " << regions.size()
                    << ": its timing hold let go by itself (the host did not queue the "
                       "region's work within the hold's limit)";
                std::ostringstream held;
                int launches = 0;
                bool own_launched = own.empty();
                for (const Call* c : r.calls) {
                    held << " " << c->function << (c->symbol.empty() ? "" : "(" + c->symbol + ")");
                    if (IsLaunch(*c)) {
                        ++launches;
                        for (const char* engine : kEngineKernels)
                            EXPECT_FALSE(Has(c->symbol, engine))
                                << what << ": the engine's " << engine << " is timed";
                        for (const std::string& k : own)
                            if (Has(c->symbol, k.c_str())) own_launched = true;
                    }
                    if (!lesson->library && !kLibraryInside.count(what)) {
                        EXPECT_FALSE(IsCopyOrSet(*c))
                            << what << ": " << c->function << " inside the timed region";
                    }
                    EXPECT_FALSE(Waits(*c))
                        << what << ": " << c->function << " waits inside the timed region";
                }
                EXPECT_GE(launches, 1)
                    << what << ": a timed region without a kernel:" << held.str();
                EXPECT_TRUE(own_launched)
                    << what << ": none of its kernels in a timed region:" << held.str();
            }
            int launches = 0;
            for (const Call* c : regions.back().calls) launches += IsLaunch(*c);
            std::cout << "[ timed    ] " << result.label << " " << what << ": " << regions.size()
                      << " regions, " << launches << " launch calls in the last\n";
            ++checked;
        }
    }
    for (const std::string& n : not_here) std::cout << "[ not here ] " << n << "\n";
    EXPECT_GT(checked, 0) << "no step of the chapters could run on this GPU";
}

#else

TEST(GpuTimedRegion, EveryStepTimesItsKernelsAndNothingElse) {
    REQUIRE_GPU();
    GTEST_SKIP() << "built without the CUDA toolkit's CUPTI headers (cupti.h)";
}

#endif
