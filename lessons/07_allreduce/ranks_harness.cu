// The harness of chapter 7's multi-process steps: one process per GPU. The step (in the CLI or
// the GUI's worker) starts the ranks (rank_group.h), passes rank 0's NCCL id to the others, and
// then asks every rank for each sample; the ranks (this same program, `cuda-lessons-cli rank`)
// make their own copy of the data from the seed, call NCCL for their GPU (the lesson's source,
// NcclRankCall) and answer one line per request:
//
//   rank 0 at start          -> id <256 hex digits>
//   id <hex>                 -> ready <pid> <GPU name>        (after ncclCommInitRank)
//   run <times>              -> ran <ms per all-reduce, its events> <ms in all, its host clock>
//   verify                   -> verified <1|0> <largest error / allowed> [<first mismatch>]
//   quit, or end of input    -> (exits)
//   anything wrong           -> error <message>               (and exits)
//
// A sample is `times` all-reduces back to back on every rank, `times` chosen once so that a
// sample lasts about 20 ms (as nccl-tests repeats its calls): the ranks never start a request at
// exactly the same moment, and over a few microseconds of all-reduce that difference would be
// most of what is measured. The sample's time is the slowest rank's, per all-reduce; its parts
// are every rank's ("rank1 nccl").
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "allreduce/allreduce_gpu.cuh"
#include "allreduce/ranks_gpu.cuh"
#include "allreduce_chapter.h"
#include "allreduce_steps.h"
#include "cuda/cuda_util.h"
#include "errors.h"
#include "kernels_of.h"
#include "nccl/nccl_loader.h"
#include "nccl/nccl_ranks.h"
#include "nccl_probe.h"
#include "rank_group.h"

namespace lessons::allreduce {
namespace {

constexpr double kSampleMs = 20;  // a sample's length, at least, where one all-reduce is shorter
constexpr int kMaxTimes = 1000;

std::string Hex(const nccl::UniqueId& id) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (char c : id.internal) {
        const unsigned char b = static_cast<unsigned char>(c);
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out;
}

bool FromHex(const std::string& hex, nccl::UniqueId* id) {
    if (hex.size() != 2 * sizeof id->internal) return false;
    auto value = [](char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        return -1;
    };
    for (size_t i = 0; i < sizeof id->internal; ++i) {
        const int hi = value(hex[2 * i]), lo = value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return false;
        id->internal[i] = static_cast<char>(hi * 16 + lo);
    }
    return true;
}

// The program the ranks run: CUDA_LESSONS_RANK_PROGRAM when set (tests, whose own binary is no
// CLI), else this program itself.
std::string RankProgram() {
    if (const char* p = std::getenv("CUDA_LESSONS_RANK_PROGRAM"); p && *p) {
        if (access(p, X_OK) != 0)
            throw UsageError(std::string("CUDA_LESSONS_RANK_PROGRAM names '") + p +
                             "', which is no program this user can run");
        return p;
    }
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) throw std::runtime_error("cannot find this program's own file to start the ranks");
    return std::string(path, size_t(n));
}

bool ParseUnsigned(const std::string& s, uint64_t max, uint64_t* out) {
    if (s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos)
        return false;
    errno = 0;
    const unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
    if (errno || v > max) return false;
    *out = v;
    return true;
}

// What the step tells each rank, and reads back from its arguments.
struct RankArgs {
    int rank = 0;
    int ranks = 1;
    int device = 0;
    uint64_t count = 0;
    bool ones = false;
    uint64_t seed = 1;

    std::vector<std::string> ToArgs() const {
        return {"--rank",   std::to_string(rank),     "--ranks", std::to_string(ranks),
                "--device", std::to_string(device),   "--count", std::to_string(count),
                "--data",   ones ? "ones" : "random", "--seed",  std::to_string(seed)};
    }

    // Throws UsageError naming the argument.
    static RankArgs From(const std::vector<std::string>& args) {
        RankArgs a;
        bool seen[6] = {};
        for (size_t i = 0; i < args.size(); i += 2) {
            const std::string& name = args[i];
            if (i + 1 >= args.size()) throw UsageError(name + " has no value");
            const std::string& v = args[i + 1];
            uint64_t n = 0;
            static const char* const kNames[] = {"--rank",  "--ranks", "--device",
                                                 "--count", "--data",  "--seed"};
            for (int k = 0; k < 6; ++k)
                if (name == kNames[k] && seen[k])
                    throw UsageError("rank: " + name + " is given twice (each once)");
            if (name == "--rank" && ParseUnsigned(v, kMaxInputs - 1, &n)) {
                a.rank = int(n), seen[0] = true;
            } else if (name == "--ranks" && ParseUnsigned(v, 64 * kMaxInputs, &n) && n >= 1) {
                a.ranks = int(n), seen[1] = true;
            } else if (name == "--device" && ParseUnsigned(v, 1023, &n)) {
                a.device = int(n), seen[2] = true;
            } else if (name == "--count" && ParseUnsigned(v, uint64_t(1) << 40, &n)) {
                a.count = n, seen[3] = true;
            } else if (name == "--data" && (v == "ones" || v == "random")) {
                a.ones = v == "ones", seen[4] = true;
            } else if (name == "--seed" && ParseUnsigned(v, ~uint64_t(0), &n)) {
                a.seed = n, seen[5] = true;
            } else {
                throw UsageError("rank: '" + name.substr(0, 40) + " " + v.substr(0, 40) +
                                 "' is no valid argument (--rank, --ranks, --device, --count, "
                                 "--data ones|random, --seed, each once)");
            }
        }
        for (bool s : seen)
            if (!s)
                throw UsageError(
                    "rank: every one of --rank --ranks --device --count --data --seed is needed");
        if (a.rank >= a.ranks) throw UsageError("rank: --rank must be below --ranks");
        return a;
    }
};

// ---- The step: starts the ranks and asks them for samples. ----

class ProcessStep : public StepInstance {
public:
    ProcessStep(const Workload& w, const StepContext& c, const std::string& lesson,
                const RankSettings* settings)
        : m_count(static_cast<const AllreduceWorkload&>(w).count()) {
        const auto& work = static_cast<const AllreduceWorkload&>(w);
        const std::vector<std::string> hosts = RankHosts();
        const int per_host = static_cast<int>(c.devices.size());
        const bool remote =
            std::any_of(hosts.begin(), hosts.end(), [](auto& h) { return !IsThisHost(h); });
        m_ranks = per_host * int(std::max<size_t>(hosts.size(), 1));
        if (m_ranks > kMaxInputs)
            throw UsageError(std::to_string(m_ranks) + " ranks is more than this chapter's " +
                             std::to_string(kMaxInputs));
        std::vector<std::string> env = {"NCCL_NVLS_ENABLE=0"};  // DEVICE.md: keep it off
        if (const char* v = std::getenv("NCCL_NVLS_ENABLE"))
            env[0] = std::string("NCCL_NVLS_ENABLE=") + v;
        // The caller's choices of network and logging reach the ranks on other hosts too (ranks
        // here inherit them anyway).
        for (const char* name : kPassedNcclVariables)
            if (const char* v = std::getenv(name)) env.push_back(std::string(name) + "=" + v);
        if (settings) {
            const std::string algo = c.params.Has("algo") ? c.params.Choice("algo") : "nccl";
            settings->add(algo, remote, env);
            if (c.params.Has("algo") && algo == "nccl") env.push_back("NCCL_ALGO");  // unset
        }
        m_settings = env;
        const std::string program = RankProgram();
        std::vector<RankSpec> specs;
        for (int r = 0; r < m_ranks; ++r) {
            RankArgs a;
            a.rank = r;
            a.ranks = m_ranks;
            a.device = c.devices[size_t(r % per_host)];
            a.count = m_count;
            a.ones = work.exact();
            a.seed = work.seed();
            RankSpec spec;
            const std::string host = hosts.empty() ? std::string() : hosts[size_t(r / per_host)];
            spec.where =
                (host.empty() ? std::string() : host + " ") + "GPU " + std::to_string(a.device);
            std::vector<std::string> rank_args = {program, "rank", lesson};
            for (const std::string& s : a.ToArgs()) rank_args.push_back(s);
            if (host.empty() || IsThisHost(host)) {
                spec.argv = rank_args;
                spec.env = env;
            } else {
                // ssh host 'env' 'NAME=VALUE'... 'program' 'rank' ...: the same path on every
                // host, every word quoted for the remote shell.
                spec.argv = RemoteCommand(host, env, rank_args);
            }
            specs.push_back(std::move(spec));
        }
        std::string note;
        const auto timeout = RankTimeout(std::chrono::seconds(120), &note);
        if (!note.empty()) std::fprintf(stderr, "note: %s\n", note.c_str());
        const auto t0 = std::chrono::steady_clock::now();
        m_group = std::make_unique<RankGroup>(std::move(specs), timeout, c.cancel);
        const std::string id = m_group->Receive(0);
        if (id.rfind("id ", 0) != 0) Unexpected(0, id);
        m_group->SendAll(id);
        for (int r = 0; r < m_ranks; ++r) {
            const std::string ready = m_group->Receive(r);
            if (ready.rfind("ready ", 0) != 0) Unexpected(r, ready);
        }
        m_init_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count();
        // NCCL connects its channels on the first call: one untimed, then one to size a sample.
        Ask(1);
        const double once = Ask(1).total_ms;
        m_times = once > 0 ? std::clamp(int(std::ceil(kSampleMs / once)), 1, kMaxTimes) : kMaxTimes;
    }

    Sample Run() override { return Ask(m_times); }

    Check Verify() const override {
        m_group->SendAll("verify");
        Check check;
        check.ok = true;
        double worst = 0;
        for (int r = 0; r < m_ranks; ++r) {
            const std::string line = m_group->Receive(r);
            std::istringstream in(line);
            std::string word;
            int ok = 0;
            double error = 0;
            if (!(in >> word >> ok >> error) || word != "verified") Unexpected(r, line);
            worst = std::max(worst, error);
            if (!ok && check.ok) {
                std::string rest;
                std::getline(in, rest);
                check.ok = false;
                check.message = m_group->Name(r) + ": " + (rest.empty() ? "wrong" : rest.substr(1));
            }
        }
        check.values = {{"gpus", double(m_ranks)}, {"max_error", worst}};
        return check;
    }

    Work GetWork() const override { return AllreduceWorkOf(m_count, uint64_t(m_ranks)); }

    std::vector<NamedValue> Extras() const override {
        return {{"ranks", double(m_ranks)},
                {"all_reduces_per_sample", double(m_times)},
                {"start_ms", m_init_ms}};
    }

private:
    [[noreturn]] void Unexpected(int rank, const std::string& line) const {
        throw RankError(rank, m_group->Name(rank) + " answered '" + line.substr(0, 80) +
                                  "', which is not what was asked");
    }

    Sample Ask(int times) const {
        m_group->SendAll("run " + std::to_string(times));
        Sample sample;
        double slowest = 0;
        std::vector<double> each(size_t(m_ranks), 0.0);
        for (int r = 0; r < m_ranks; ++r) {
            const std::string line = m_group->Receive(r);
            std::istringstream in(line);
            std::string word;
            double event_ms = 0, host_ms = 0;
            if (!(in >> word >> event_ms >> host_ms) || word != "ran" || !(event_ms >= 0) ||
                !(host_ms >= 0) || !std::isfinite(event_ms) || !std::isfinite(host_ms))
                Unexpected(r, line);
            each[size_t(r)] = event_ms;
            sample.total_ms = std::max(sample.total_ms, host_ms / times);
            slowest = std::max(slowest, event_ms);
        }
        for (int r = 0; r < m_ranks; ++r)
            sample.parts.push_back({"rank" + std::to_string(r) + " nccl", each[size_t(r)]});
        sample.parts.push_back({"nccl", slowest});
        return sample;
    }

    uint64_t m_count;
    int m_ranks = 1;
    int m_times = 1;
    double m_init_ms = 0;
    std::vector<std::string> m_settings;
    std::unique_ptr<RankGroup> m_group;
};

// ---- A rank: this program started by the step. ----

// Where a rank answers: standard output at first, then (TakeOverStdout) a copy of it of its own.
FILE* g_answers = stdout;

void Say(const std::string& line) {
    std::fputs((line + "\n").c_str(), g_answers);
    std::fflush(g_answers);
}

// Libraries print on standard output (NCCL_DEBUG=INFO does): the answers move to a descriptor
// of their own and standard output becomes standard error, which the step passes on.
void TakeOverStdout() {
    std::fflush(stdout);
    const int answers = dup(STDOUT_FILENO);
    FILE* f = answers >= 0 ? fdopen(answers, "w") : nullptr;
    if (!f || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) return;  // keep stdout: still works
    g_answers = f;
}

// Ends the rank when its starter has gone (it was reparented): a rank stuck inside NCCL would
// otherwise never see the end of its input.
void WatchStarter() {
    const pid_t starter = getppid();
    std::thread([starter] {
        for (;;) {
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
            if (getppid() != starter) _exit(3);
        }
    }).detach();
}

int RankMain(const NcclRankCall& call, const std::vector<std::string>& args) {
    nccl::Comm comm = nullptr;
    const nccl::Api* api = nullptr;
    try {
        const RankArgs a = RankArgs::From(args);
        TakeOverStdout();
        WatchStarter();
        api = nccl::Load();
        if (!api) throw UnavailableError(nccl::Unavailable());
        const nccl::RankApi* ranks = nccl::LoadRankApi();
        if (!ranks)
            throw UnavailableError(
                "this NCCL lacks ncclGetUniqueId, ncclCommInitRank or "
                "ncclCommAbort (NCCL 2.x has them all)");
        int devices = 0;
        LESSONS_CUDA_CHECK(cudaGetDeviceCount(&devices));
        if (a.device >= devices)
            throw UsageError("GPU " + std::to_string(a.device) + " is not here: this machine has " +
                             std::to_string(devices));
        LESSONS_CUDA_CHECK(cudaSetDevice(a.device));
        if (a.rank == 0) {
            nccl::UniqueId id{};
            nccl::Check(call.make_id(*ranks, &id), "ncclGetUniqueId");
            Say("id " + Hex(id));
        }
        // Every rank's data, as the one-process steps make it (the same seed, the same streams).
        const AllreduceWorkload work(a.count, a.ranks, a.ones, a.seed);
        const uint64_t n = a.count;
        cuda::DeviceBuffer<float> in(std::max<uint64_t>(n, 1), "the input");
        cuda::DeviceBuffer<float> out(std::max<uint64_t>(n, 1), "the output");
        if (n)
            LESSONS_CUDA_CHECK(cudaMemcpy(in.get(), work.input(a.rank), n * sizeof(float),
                                          cudaMemcpyHostToDevice));
        cuda::Stream stream;
        cuda::Event start, stop;
        std::string line;
        if (!std::getline(std::cin, line)) return 0;
        nccl::UniqueId id{};
        if (line.rfind("id ", 0) != 0 || !FromHex(line.substr(3), &id))
            throw UsageError("the first request must be 'id <256 hex digits>'");
        nccl::Check(call.join(*ranks, id, a.ranks, a.rank, &comm), "ncclCommInitRank");
        cudaDeviceProp prop{};
        cudaGetDeviceProperties(&prop, a.device);
        Say("ready " + std::to_string(getpid()) + " " + prop.name);
        while (std::getline(std::cin, line)) {
            if (line == "quit") break;
            uint64_t times = 0;
            if (line.rfind("run ", 0) == 0 && ParseUnsigned(line.substr(4), kMaxTimes, &times) &&
                times >= 1) {
                cudaError_t cuda_error = cudaSuccess;
                const auto t0 = std::chrono::steady_clock::now();
                const nccl::Result r =
                    call.all_reduce(*api, comm, in.get(), out.get(), n, stream.get(), start.get(),
                                    stop.get(), int(times), &cuda_error);
                LESSONS_CUDA_CHECK(cuda_error);
                nccl::Check(r, "ncclAllReduce");
                LESSONS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
                const double host_ms =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count();
                char reply[96];
                std::snprintf(reply, sizeof reply, "ran %.6f %.6f",
                              cuda::ElapsedMs(start, stop) / double(times), host_ms);
                Say(reply);
            } else if (line == "verify") {
                std::vector<std::vector<float>> mine(1, std::vector<float>(n));
                if (n)
                    LESSONS_CUDA_CHECK(cudaMemcpy(mine[0].data(), out.get(), n * sizeof(float),
                                                  cudaMemcpyDeviceToHost));
                // The check's own rule, on this rank's vector (numbered as its rank).
                const Check check = CheckAllreduce(work, mine, a.rank);
                double worst = 0;
                for (const NamedValue& v : check.values)
                    if (v.name == "max_error") worst = v.value;
                char reply[64];
                std::snprintf(reply, sizeof reply, "verified %d %.6g", check.ok ? 1 : 0, worst);
                Say(std::string(reply) + (check.ok ? "" : " " + check.message));
            } else {
                throw UsageError("unknown request '" + line.substr(0, 60) + "'");
            }
        }
        api->CommDestroy(comm);
        return 0;
    } catch (const std::exception& e) {
        std::string message = e.what();
        for (char& ch : message)
            if (ch == '\n' || ch == '\r') ch = ' ';
        Say("error " + message);
        if (const nccl::RankApi* ranks = nccl::LoadRankApi(); comm && ranks) ranks->CommAbort(comm);
        return dynamic_cast<const UsageError*>(&e) ? 2 : 1;
    }
}

StepRunner Runner(const std::string& lesson, const NcclRankCall* call,
                  const RankSettings* settings) {
    StepRunner r;
    r.make = [lesson, settings](const Workload& w, const StepContext& c) {
        if (!nccl::Load()) throw UnavailableError(nccl::Unavailable());
        return std::unique_ptr<StepInstance>(std::make_unique<ProcessStep>(w, c, lesson, settings));
    };
    r.unavailable = [] { return NcclUnavailable(); };  // found, not loaded (nccl_probe.h)
    r.rank = [call](const std::vector<std::string>& args) { return RankMain(*call, args); };
    return r;
}

}  // namespace

LESSONS_STEP_KIND(ProcessPerGpu, [](const ProcessPerGpu&, const StepSite& site) {
    return Runner(site.lesson.id, &OnlyKernel<NcclRankCall>(site), nullptr);
});
LESSONS_STEP_KIND(ProcessPerGpuWith, [](const ProcessPerGpuWith&, const StepSite& site) {
    return Runner(site.lesson.id, &OnlyKernel<NcclRankCall>(site, KernelsFrom::kPreviousLesson),
                  &OnlyKernel<RankSettings>(site));
});

}  // namespace lessons::allreduce
