// The worker client (worker/worker_client.h) through the page: what it asks the worker and when,
// the answers it keeps, a worker of another protocol, kernel attributes, whole-chapter runs,
// sweeps, the memory figures it refreshes; the device facts it reads from the worker's info
// reply; and the results store (model/results_store.h) alone, without a worker.
#include <gtest/gtest.h>

#include "app_fixture.h"
#include "model/compare.h"

using namespace app_test;

TEST_F(AppLogic, StartAsksForListAndInfoAndMarksLessons) {
    ASSERT_GE(sent.size(), 2u);
    EXPECT_EQ(sent[0]["op"], "list");
    EXPECT_EQ(sent[1]["op"], "info");
    EXPECT_EQ(controller->Mode(Named("split/openmp")), LessonMode::kLive);
    EXPECT_EQ(controller->Mode(Named("split/one-thread-per-pair")), LessonMode::kRecorded)
        << "GPU lesson, no GPU, recorded results embedded";
}

TEST_F(AppLogic, KernelAttributesFollowTheBlockSize) {
    RestartWithGpu(2);
    Open("split/one-thread-per-pair");
    Frames(2);
    const KernelAttributes* a = controller->Attributes(Named("split/one-thread-per-pair"), ui.run);
    ASSERT_NE(a, nullptr) << "asked of the worker for the default block";
    EXPECT_EQ(ui.run.params["block"], ParamValue::Number(256));
    EXPECT_EQ(a->active_blocks_per_sm, 8);
    int asked = 0;
    for (const Json& r : sent) asked += r["op"] == "attributes";
    Frames(3);
    int asked_again = 0;
    for (const Json& r : sent) asked_again += r["op"] == "attributes";
    EXPECT_EQ(asked, asked_again) << "answers are remembered, not asked every frame";
    for (const Json& r : sent)
        if (r["op"] == "attributes") {
            EXPECT_EQ(r["params"], Json({{"block", 256}})) << "the lesson's own parameters";
        }
    ui.run.params["block"] = ParamValue::Number(512);
    Frames(3);
    a = controller->Attributes(Named("split/one-thread-per-pair"), ui.run);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->active_blocks_per_sm, 4);
}

// A worker that answers the attributes query with an error (as it does when the query fails)
// is asked once, and says so once: not a request and a notice every frame.
TEST_F(AppLogic, AnAttributesQueryThatFailsIsAskedOnce) {
    worker_has_gpu = true;
    controller->RestartWorker();
    worker->attributes_fail = true;
    Frames(2);
    Open("split/one-thread-per-pair");
    const size_t notices_before = controller->notices().size();
    Frames(30);
    EXPECT_EQ(controller->Attributes(Named("split/one-thread-per-pair"), ui.run), nullptr);
    Frames(30);
    int asked = 0;
    for (const Json& r : sent) asked += r["op"] == "attributes";
    EXPECT_EQ(asked, 1);
    EXPECT_EQ(controller->notices().size(), notices_before + 1);
    // Another setting is another question; a new worker may answer the old one.
    ui.run.params["block"] = ParamValue::Number(512);
    Frames(5);
    asked = 0;
    for (const Json& r : sent) asked += r["op"] == "attributes";
    EXPECT_EQ(asked, 2);
}

TEST_F(AppLogic, RunTheWholeChapterFillsEveryBarAndCancelStopsTheRest) {
    worker_has_gpu = true;
    controller->RestartWorker();  // every lesson runs here
    Frames(2);
    Open("split/openmp");
    const Chapter& chapter = registry.ChapterOf(Named("split/openmp"));
    std::vector<std::string> expected;
    for (const Lesson* l : registry.LessonsOf(chapter)) expected.push_back(l->id);
    ASSERT_GT(expected.size(), 2u);
    sent.clear();
    Click("run_chapter");
    std::vector<std::string> asked;
    for (const Json& r : Runs()) asked.push_back(r["lesson"].get<std::string>());
    EXPECT_EQ(asked, expected) << "every lesson of the chapter, in order, by id";
    for (const Json& r : Runs())
        EXPECT_EQ(r["params"]["size"], ui.run.params["size"].number) << "the page's size";
    Frames(2);
    // Every bar of the step chart is a live result.
    size_t live_bars = 0;
    for (const chart::Bar& b : probe.step_bars) live_bars += b.value > 0 && !b.invalid;
    EXPECT_GE(live_bars, expected.size());
    for (const std::string& id : expected)
        EXPECT_NE(controller->Latest(Named(id), ResolveParams(chapter.params, ui.run)), nullptr)
            << id;

    // Held by the worker: progress, then Esc cancels every run left.
    worker->answer_runs = false;
    sent.clear();
    Key(kKeyC);
    EXPECT_EQ(Runs().size(), expected.size()) << "the C key does the same";
    EXPECT_TRUE(controller->Busy());
    EXPECT_NE(controller->BusyWith().find("of " + std::to_string(expected.size())),
              std::string::npos)
        << controller->BusyWith();
    EXPECT_GE(controller->Progress(), 0.0f);
    EXPECT_EQ(controller->BusyWith("zh").rfind("\xE6\x95\xB4\xE7\xAB\xA0", 0), 0u)  // 整章
        << controller->BusyWith("zh");
    // A second press replaces the pending batch rather than queueing another.
    sent.clear();
    Key(kKeyC);
    ASSERT_FALSE(sent.empty());
    EXPECT_EQ(sent.front()["op"], "cancel");
    Key(kKeyEscape);
    EXPECT_EQ(sent.back()["op"], "cancel");
    Frames(2);
    EXPECT_FALSE(controller->Busy()) << controller->BusyWith();
}

TEST_F(AppLogic, SweepsNameTheParameterTheyGoOver) {
    RestartWithGpu(2);
    Open("reduce/v0-interleaved-global");
    worker->answer_runs = false;
    sent.clear();
    Key(kKeyS);
    std::vector<Json> sweeps;
    for (const Json& r : sent)
        if (r["op"] == "sweep") sweeps.push_back(r);
    ASSERT_EQ(sweeps.size(), 1u) << "the previous lesson runs on the CPU: no block size to sweep";
    EXPECT_EQ(sweeps[0]["over"], "block");
    EXPECT_EQ(sweeps[0]["values"], Json({32, 64, 128, 256, 512, 1024}));
    EXPECT_FALSE(sweeps[0]["params"].contains("block"));
    controller->SweepSizes(Named("reduce/v0-interleaved-global"), ui.run);
    sweeps.clear();
    for (const Json& r : sent)
        if (r["op"] == "sweep" && r["over"] == "size") sweeps.push_back(r);
    ASSERT_EQ(sweeps.size(), 2u) << "this lesson and the previous one";
    EXPECT_EQ(sweeps[1]["lesson"], "reduce/v0-interleaved-global");
    EXPECT_EQ(sweeps[1]["values"].front(), 1024);
    EXPECT_EQ(sweeps[1]["values"].back(), 64u << 20);
    EXPECT_FALSE(sweeps[1]["params"].contains("size"));
    EXPECT_EQ(sweeps[1]["params"]["block"], 256);
}

// The memory that caps the data size is read again every few seconds and when a page is
// shown: the host's here, the GPU's free memory asked of an idle worker.
TEST_F(AppLogic, MemoryCapsAreReadAgainAndExplained) {
    RestartWithGpu(2);
    Open("reduce/v0-interleaved-global");
    ASSERT_GT(ui.host_available, 0u);
    ASSERT_TRUE(controller->devices().First());
    EXPECT_EQ(controller->devices().First()->free_memory_bytes, uint64_t(80) << 30);
    const double first = ui.host_available_at;
    worker->gpu_free = uint64_t(1) << 30;  // another program took the GPU's memory
    sent.clear();
    Wait(kMemoryRefreshSeconds + 0.2);
    EXPECT_GT(ui.host_available_at, first) << "the host's memory is read again";
    int infos = 0;
    for (const Json& r : sent) infos += r["op"] == "info";
    EXPECT_EQ(infos, 1) << "asked once in " << kMemoryRefreshSeconds << " s, not every frame";
    EXPECT_EQ(controller->devices().First()->free_memory_bytes, uint64_t(1) << 30);
    EXPECT_FALSE(controller->Busy()) << "a refresh is not shown as work in progress";
    // Showing another page reads them at once.
    Wait(1);
    const double before = ui.host_available_at;
    Key(kKeyLeft);
    EXPECT_GT(ui.host_available_at, before);
    // Not while a run is in flight.
    worker->answer_runs = false;
    Key(kKeyR);
    sent.clear();
    Wait(kMemoryRefreshSeconds + 0.2);
    for (const Json& r : sent) EXPECT_NE(r["op"], "info");
    // The tooltip says what the cap is and where each figure comes from, in both languages.
    const std::string en = CapExplanation("en", "1 GiB", "free GPU memory", uint64_t(3) << 30, 2,
                                          uint64_t(1) << 30, 4);
    EXPECT_NE(en.find("1 GiB, limited by free GPU memory"), std::string::npos) << en;
    EXPECT_NE(en.find("MemAvailable"), std::string::npos) << en;
    EXPECT_NE(en.find("3 GiB"), std::string::npos) << en;
    EXPECT_NE(en.find("90%"), std::string::npos) << en;
    EXPECT_NE(en.find("cudaMemGetInfo"), std::string::npos) << en;
    EXPECT_NE(en.find("4 s ago"), std::string::npos) << en;
    const std::string zh =
        CapExplanation("zh", "1 GiB", "GPU 空闲显存", uint64_t(3) << 30, 2, 0, 0);
    EXPECT_NE(zh.find("受限于GPU 空闲显存"), std::string::npos) << zh;
    EXPECT_NE(zh.find("空闲显存未知"), std::string::npos) << zh;
}

// A worker from an older build says hello in protocol 1: it is refused, gets no request and
// is not restarted.
class AppLogicOldWorker : public AppLogic {
protected:
    AppLogicOldWorker() : AppLogic(Catalog(), 1) {}
};

TEST_F(AppLogicOldWorker, IsRefusedWithAClearMessageAndNotRestarted) {
    Frames(10);
    EXPECT_TRUE(sent.empty()) << sent.front().dump();
    EXPECT_EQ(workers_started, 1);
    EXPECT_EQ(controller->WorkerState(), "refused");
    ASSERT_FALSE(controller->notices().empty());
    const std::string& notice = controller->notices().back();
    EXPECT_NE(notice.find("the worker speaks protocol 1, this program needs 2: rebuild "
                          "cuda-lessons-cli next to it"),
              std::string::npos)
        << notice;
    EXPECT_NE(controller->Mode(Named("split/openmp")), LessonMode::kLive);
    EXPECT_EQ(controller->Mode(Named("split/one-thread-per-pair")), LessonMode::kRecorded);
    EXPECT_NE(controller->UnavailableReason(Named("split/openmp")).text.find("protocol 1"),
              std::string::npos);
    Open("split/openmp");
    Click("run");
    Key(kKeyR);
    EXPECT_TRUE(sent.empty()) << "nothing is sent to a refused worker";
    controller->RestartWorker();  // by hand: tries again, refused again
    Frames(2);
    EXPECT_EQ(workers_started, 2);
    EXPECT_TRUE(sent.empty());
}

// Requests name a lesson by its id; results, recorded with the ids of their time
// ("reduce/20-v0-interleaved-global") or sent by the worker, are named by the current ids and
// numbers of this catalogue.
TEST_F(AppLogic, RequestsAndResultsNameLessonsByTheirCurrentIds) {
    RestartWithGpu(3);
    Open("split/one-thread-per-pair");  // a GPU step and the CPU step before it: one at a time
    sent.clear();
    Click("run");
    ASSERT_EQ(Runs().size(), 2u);
    EXPECT_EQ(Runs()[0]["lesson"], "split/openmp");
    EXPECT_EQ(Runs()[1]["lesson"], "split/one-thread-per-pair");
    // Two CPU steps: timed in turn, one request naming both, every parameter either has.
    Open("split/openmp");
    sent.clear();
    Click("run");
    EXPECT_TRUE(Runs().empty());
    ASSERT_EQ(Compares().size(), 1u);
    const Json both = Compares()[0];
    EXPECT_EQ(both["lessons"], Json::array({"split/even-positions", "split/openmp"}));
    EXPECT_EQ(both["trials"], kCompareTrials);
    EXPECT_TRUE(both["params"].contains("threads")) << both.dump();
    EXPECT_TRUE(both["params"].contains("size")) << both.dump();
    EXPECT_FALSE(both.contains("lesson"));
    Frames(2);
    for (const char* id : {"split/even-positions", "split/openmp"}) {
        const StoredResult* r =
            controller->Latest(Named(id), ChapterValues(registry.ChapterOf(Named(id)), ui.run));
        ASSERT_NE(r, nullptr) << id;
        EXPECT_EQ(r->result.trials, kCompareTrials) << id;
    }
    int recorded = 0;
    for (const StoredResult& s : controller->results()) {
        const Lesson* lesson = registry.FindLesson(s.result.lesson);
        ASSERT_NE(lesson, nullptr) << s.result.id;
        EXPECT_EQ(s.result.id, lesson->id);
        recorded += s.origin == Origin::kRecorded;
    }
    EXPECT_GT(recorded, 0);
}

namespace {

// A worker that says hello and then whatever the test gives it (at start, or later by Push),
// once; it records what it is sent in `sent` when given one, and answers nothing by itself.
class ScriptedWorker : public WorkerLink {
public:
    explicit ScriptedWorker(std::vector<Json> messages, std::vector<Json>* sent = nullptr)
        : m_messages(std::move(messages)), m_sent(sent) {}
    bool Start(std::string*) override {
        m_messages.insert(m_messages.begin(),
                          Json{{"type", "hello"}, {"protocol", kProtocolVersion}});
        return true;
    }
    bool Running() const override { return true; }
    bool Send(const Json& r) override {
        if (m_sent) m_sent->push_back(r);
        return true;
    }
    std::vector<Json> Drain() override {
        std::vector<Json> out;
        out.swap(m_messages);
        return out;
    }
    void Push(Json m) { m_messages.push_back(std::move(m)); }

private:
    std::vector<Json> m_messages;
    std::vector<Json>* m_sent;
};

}  // namespace

TEST(AppController, RecordedResultsOfOldIdsAreAdoptedByTheirLessons) {
    const Lesson& lesson = LessonNamed(Catalog(), "reduce/v0-interleaved-global");
    RunResult old_id, unknown;
    old_id.id = "reduce/20-v0-interleaved-global";  // as recorded before lessons were numbered
    old_id.lesson = 20;                             // by chapter
    old_id.chapter = "reduce";
    unknown.chapter = "split";
    old_id.kind = unknown.kind = StepKind::kGpu;
    unknown.id = "split/99-a-step-since-removed";
    unknown.lesson = 4;
    Controller c(Catalog(), [] { return std::make_unique<ScriptedWorker>(std::vector<Json>{}); },
                 {old_id, unknown});
    ASSERT_EQ(c.results().size(), 2u);
    EXPECT_EQ(c.results()[0].result.id, "reduce/v0-interleaved-global");
    EXPECT_EQ(c.results()[0].result.lesson, lesson.number);
    EXPECT_EQ(c.Mode(lesson), LessonMode::kRecorded);
    EXPECT_EQ(c.results()[1].result.id, "split/99-a-step-since-removed") << "kept as it was";
    EXPECT_EQ(c.results()[1].result.lesson, 0) << "drawn for no lesson";
}

// Recordings of two GPUs: the one with more results is shown first; switching shows the
// other's in place of its recordings, never the multi-GPU ones (one machine made them) nor
// anything live; a name not recorded on is refused and shows the first.
TEST(AppResultsStore, TheReferenceGpuChoosesWhichRecordingsAreShown) {
    auto recorded = [](const char* device, double ms, std::vector<std::string> devices = {}) {
        RunResult r;
        r.id = "split/one-thread-per-pair";
        r.chapter = "split";
        r.kind = StepKind::kGpu;
        r.median_ms = ms;
        r.devices = devices.empty() ? std::vector<std::string>{device} : devices;
        return r;
    };
    // The store alone: no worker client is made.
    ResultsStore c(Catalog(), {recorded("GPU B", 2), recorded("GPU A", 1), recorded("GPU A", 1.5),
                               recorded("", 9, {"GPU B", "GPU B"})});
    ASSERT_EQ(c.ReferenceGpus(), (std::vector<std::string>{"GPU A", "GPU B"}));
    auto shown = [&c] {
        std::vector<double> ms;
        for (const StoredResult& s : c.results()) ms.push_back(s.result.median_ms);
        return ms;
    };
    EXPECT_EQ(c.ReferenceGpu(), "GPU A");
    EXPECT_EQ(shown(), (std::vector<double>{1, 1.5, 9}));
    EXPECT_TRUE(c.SetReferenceGpu("GPU B"));
    EXPECT_EQ(shown(), (std::vector<double>{2, 9}));
    EXPECT_FALSE(c.SetReferenceGpu("GPU C"));
    EXPECT_EQ(c.ReferenceGpu(), "GPU A");
    EXPECT_EQ(shown(), (std::vector<double>{1, 1.5, 9}));
}

// What the store says of a lesson without any worker: recorded until the worker's list says it
// runs here; live results named by this catalogue, numbered after the recordings, kept across
// a change of reference GPU; a student's kernel's run never among the lesson's own.
TEST(AppResultsStore, ModeAndLiveResultsWithoutAWorker) {
    const Registry& reg = Catalog();
    const Lesson& gpu = LessonNamed(reg, "split/one-thread-per-pair");
    const Lesson& cpu = LessonNamed(reg, "split/openmp");
    RunResult rec;
    rec.id = gpu.id;
    rec.kind = StepKind::kGpu;
    rec.devices = {"GPU A"};
    ResultsStore store(reg, {rec});
    EXPECT_EQ(store.Mode(gpu), LessonMode::kRecorded);
    EXPECT_EQ(store.Mode(cpu), LessonMode::kUnknown);
    EXPECT_FALSE(store.KnowsAvailability());
    EXPECT_EQ(store.WhyUnavailable(cpu), nullptr);
    store.SetAvailable(cpu, false, Message::Plain("no OpenMP"));
    EXPECT_TRUE(store.KnowsAvailability());
    EXPECT_EQ(store.Mode(cpu), LessonMode::kUnavailable);
    ASSERT_NE(store.WhyUnavailable(cpu), nullptr);
    EXPECT_EQ(store.WhyUnavailable(cpu)->text, "no OpenMP");
    store.SetAvailable(gpu, true, {});
    EXPECT_EQ(store.Mode(gpu), LessonMode::kLive);

    RunResult live;
    live.id = gpu.id;
    live.median_ms = 4;
    const StoredResult& added = store.AddLive(live, Origin::kBlockSweep, "block");
    EXPECT_EQ(added.result.lesson, gpu.number);
    EXPECT_EQ(added.sequence, 1) << "after the one recording";
    EXPECT_EQ(added.swept, "block");
    EXPECT_EQ(store.LatestAnySize(gpu), &store.results().back());
    const StoredResult& yours = store.AddYours(live, Origin::kRun, "");
    EXPECT_TRUE(yours.result.yours);
    EXPECT_EQ(yours.sequence, 2);
    EXPECT_EQ(store.yours().size(), 1u);
    EXPECT_EQ(store.results().size(), 2u) << "the recording and the live run, not yours";
    EXPECT_FALSE(store.SetReferenceGpu("GPU C"));
    ASSERT_EQ(store.results().size(), 2u);
    EXPECT_EQ(store.results().back().result.median_ms, 4) << "live results stay";
}

// The embedded recordings hold the H100's and the H200's; the H200, the reference GPU, is shown
// at first. A live result stays through switches to the H100 and back, and a GPU lesson's page
// shows the chosen GPU's recording.
TEST_F(AppLogic, SwitchingTheReferenceGpuKeepsLiveResults) {
    const std::string h200(lessons::kReferenceGpu);
    const std::string h100 = "NVIDIA H100 80GB HBM3";
    ASSERT_GE(controller->ReferenceGpus().size(), 2u);
    EXPECT_EQ(controller->ReferenceGpu(), h200);
    EXPECT_EQ(controller->ReferenceGpus().front(), h200) << "the reference GPU is listed first";
    Open("split/openmp");
    Click("run");
    Frames(3);
    auto live = [this] {
        int n = 0;
        for (const StoredResult& s : controller->results()) n += s.origin != Origin::kRecorded;
        return n;
    };
    const Lesson& gpu = LessonNamed(Catalog(), "split/vector-loads-block-compaction");
    // Every recorded one-GPU result shown is `device`'s, lesson 1.10's among them.
    auto shows_only = [&](const std::string& device) {
        bool shown = false;
        for (const StoredResult& s : controller->results()) {
            if (s.origin != Origin::kRecorded || s.result.devices.size() != 1) continue;
            EXPECT_EQ(s.result.devices.front(), device) << s.result.id;
            shown = shown || s.result.lesson == gpu.number;
        }
        EXPECT_TRUE(shown) << "lesson 1.10 recorded on " << device;
    };
    shows_only(h200);
    const int before = live();
    ASSERT_GE(before, 2);
    ASSERT_TRUE(controller->SetReferenceGpu(h100));
    EXPECT_EQ(controller->ReferenceGpu(), h100);
    EXPECT_EQ(live(), before);
    shows_only(h100);
    ASSERT_TRUE(controller->SetReferenceGpu(h200));
    EXPECT_EQ(controller->ReferenceGpu(), h200);
    EXPECT_EQ(live(), before);
    shows_only(h200);
}

// The worker is another program: a list or an info reply of the wrong shape is read as far as
// it goes, never thrown on.
TEST(AppController, AMalformedListOrInfoIsReadDefensively) {
    const Lesson& two = LessonNamed(Catalog(), "split/even-positions");
    const Lesson& three = LessonNamed(Catalog(), "split/openmp");
    const std::vector<Json> messages = {
        {{"type", "list"}, {"lessons", "not a list"}},
        {{"type", "list"},
         {"lessons",
          Json::array({5, Json{{"id", 3}}, Json{{"id", "no/such-lesson"}, {"available", true}},
                       Json{{"id", "split/openmp"}, {"available", "yes"}},
                       Json{{"id", "split/even-positions"}, {"available", true}}})}},
        {{"type", "info"}, {"device", {{"available", "true"}, {"name", 7}}}, {"devices", 3}},
        Json(5),
        {{"type", 7}}};
    Controller c(Catalog(), [&] { return std::make_unique<ScriptedWorker>(messages); }, {});
    c.Start();
    c.Update();
    EXPECT_EQ(c.Mode(two), LessonMode::kLive);
    EXPECT_EQ(c.Mode(three), LessonMode::kUnavailable) << "\"yes\" is not true";
    EXPECT_FALSE(c.devices().reported) << "an availability that is not a boolean";
    EXPECT_TRUE(c.devices().gpus.empty());
    ASSERT_EQ(c.notices().size(), 4u) << "lessons that are no list, entries that are no lesson, a "
                                         "message that is no object, a type that is no string";
    for (const std::string& n : c.notices())
        EXPECT_EQ(n.rfind("The worker wrote a message the GUI cannot read (", 0), 0u) << n;
}

TEST(AppDeviceFacts, TheInfoReplyIsReadOnceIntoTypes) {
    const Json info = Json::parse(R"({"type":"info",
        "device":{"available":true,"count":2,"name":"NVIDIA H100 80GB HBM3","sm_count":132,
                  "max_threads_per_sm":2048,"clock_khz":1980000,"total_memory_bytes":85000000000,
                  "free_memory_bytes":84000000000,"datasheet_gbps":3352.3,
                  "measured_copy_gbps":2900,
                  "ceilings":{"read_gbps":3150,"copy_gbps":2900,"fp32_gflops":51000,
                              "tf32_gflops":null,"h2d_gbps":55.5,"d2h_gbps":50}},
        "devices":[{"name":"NVIDIA H100 80GB HBM3","free_memory_bytes":84000000000,
                    "ceilings":{"read_gbps":3150,"datasheet_dram_gbps":3352.3}},
                   {"name":"NVIDIA H100 80GB HBM3","sm_count":132,"free_memory_bytes":1000,
                    "ceilings":{"read_gbps":3100,"datasheet_dram_gbps":3352.3}}]})");
    const DeviceFacts f = DeviceFactsFromInfo(info);
    EXPECT_TRUE(f.reported);
    EXPECT_TRUE(f.available);
    ASSERT_EQ(f.gpus.size(), 2u);
    const GpuFacts& g = f.gpus[0];
    EXPECT_EQ(g.name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(g.sm_count, 132);
    EXPECT_EQ(g.max_threads_per_sm, 2048);
    EXPECT_EQ(g.clock_khz, 1980000);
    EXPECT_EQ(g.total_memory_bytes, 85000000000u);
    EXPECT_EQ(g.free_memory_bytes, 84000000000u);
    EXPECT_DOUBLE_EQ(g.ceilings.read_gbps, 3150);
    EXPECT_DOUBLE_EQ(g.ceilings.copy_gbps, 2900);
    EXPECT_DOUBLE_EQ(g.ceilings.fp32_gflops, 51000);
    EXPECT_DOUBLE_EQ(g.ceilings.tf32_gflops, 0) << "null: not measured";
    EXPECT_DOUBLE_EQ(g.ceilings.h2d_gbps, 55.5);
    EXPECT_DOUBLE_EQ(g.ceilings.datasheet_gbps, 3352.3);
    EXPECT_EQ(f.gpus[1].free_memory_bytes, 1000u);
    EXPECT_DOUBLE_EQ(f.gpus[1].ceilings.read_gbps, 3100);

    const DeviceFacts none = DeviceFactsFromInfo(
        Json::parse(R"({"device":{"available":false,"reason":"no NVIDIA GPU found"}})"));
    EXPECT_TRUE(none.reported);
    EXPECT_FALSE(none.available);
    EXPECT_EQ(none.reason.text, "no NVIDIA GPU found");
    EXPECT_TRUE(none.reason.id.empty()) << "an older worker's reason: its English alone";
    const DeviceFacts said = DeviceFactsFromInfo(
        Json::parse(R"({"device":{"available":false,"reason":"no NVIDIA GPU found",)"
                    R"("reason_message":{"id":"device.no-gpu","args":[]}}})"));
    EXPECT_EQ(said.reason, Message::Of(kNoGpuFound));
    EXPECT_EQ(Say("zh", said.reason), "未找到 NVIDIA GPU");
    EXPECT_EQ(Say("zh", none.reason), "no NVIDIA GPU found") << "no pattern matching of English";
    EXPECT_EQ(none.First(), nullptr);

    // Figures of the wrong type, negative or missing read as unknown.
    const DeviceFacts odd = DeviceFactsFromInfo(Json::parse(R"({"device":{"available":true,
        "name":["x"],"sm_count":"132","clock_khz":-5,"free_memory_bytes":-1,
        "ceilings":{"read_gbps":"fast","copy_gbps":{"x":1},"fp32_gflops":-3}}})"));
    ASSERT_NE(odd.First(), nullptr);
    EXPECT_EQ(odd.First()->name, "");
    EXPECT_EQ(odd.First()->sm_count, 0);
    EXPECT_EQ(odd.First()->clock_khz, 0);
    EXPECT_EQ(odd.First()->free_memory_bytes, 0u);
    EXPECT_DOUBLE_EQ(odd.First()->ceilings.read_gbps, 0);
    EXPECT_DOUBLE_EQ(odd.First()->ceilings.copy_gbps, 0);
    for (const Json& j : {Json(), Json(5), Json::array(), Json::parse(R"({"device":[]})"),
                          Json::parse(R"({"device":{"available":null}})")})
        EXPECT_FALSE(DeviceFactsFromInfo(j).reported) << j.dump();
}

// Fields of another type in messages the GUI does read: one notice each that quotes the message,
// never the library's exception text, and the requests they name stay as they were.
TEST(AppController, FieldsOfTheWrongTypeBecomeOneNoticeEach) {
    const std::vector<Json> messages = {
        Json::parse(R"({"id":1,"type":"list","lessons":[1]})"),
        Json::parse(R"({"id":1,"type":"list"})"),
        Json::parse(R"({"id":1,"type":"progress","done":"x","total":3})"),
        Json::parse(R"({"id":1,"type":"error","error":5})"),
        Json::parse(R"({"id":1,"type":"error","error":"e","fatal":"yes"})"),
        Json::parse(R"({"id":1,"type":"result","result":7})"),
        Json::parse(R"({"id":1,"type":"attributes","attributes":[1]})"),
        Json::parse(R"({"id":1,"type":"done","status":"ok"})")};
    Controller c(Catalog(), [&] { return std::make_unique<ScriptedWorker>(messages); }, {});
    c.Start();
    c.Update();
    EXPECT_EQ(c.restarts(), 0);
    EXPECT_EQ(c.WorkerState(), "running device information") << "the same worker goes on";
    ASSERT_EQ(c.notices().size(), 7u);
    for (const std::string& n : c.notices()) {
        EXPECT_EQ(n.rfind("The worker wrote a message the GUI cannot read (", 0), 0u) << n;
        EXPECT_EQ(n.find("json.exception"), std::string::npos) << n;
        EXPECT_NE(n.find("\"type\":"), std::string::npos) << "the message is quoted: " << n;
    }
}

// The time left, by the pace so far; unknown until something is done.
TEST(AppProgress, SecondsLeftByThePaceSoFar) {
    EXPECT_DOUBLE_EQ(EstimateSecondsLeft(0.25, 3), 9);
    EXPECT_DOUBLE_EQ(EstimateSecondsLeft(0.5, 10), 10);
    EXPECT_DOUBLE_EQ(EstimateSecondsLeft(1, 10), 0);
    EXPECT_LT(EstimateSecondsLeft(0, 10), 0) << "nothing done: unknown";
    EXPECT_LT(EstimateSecondsLeft(0.01, 10), 0) << "too little done to tell";
    EXPECT_LT(EstimateSecondsLeft(0.5, 0.1), 0) << "too soon to tell";
    EXPECT_LT(EstimateSecondsLeft(-1, 10), 0);
    EXPECT_EQ(TimeLeftText("en", 12.4), "about 12 s left");
    EXPECT_EQ(TimeLeftText("en", 125), "about 2 min 05 s left");
    EXPECT_EQ(TimeLeftText("zh", 12), "约剩 12 秒");
    EXPECT_EQ(TimeLeftText("en", -1), "");
}

// A sweep's progress counts its points and each point's samples, over the whole batch (this
// lesson's sweep and the previous one's).
TEST_F(AppLogic, ProgressCountsSweepPointsAndSamplesOverTheBatch) {
    worker->answer_runs = false;
    Open("split/openmp");
    sent.clear();
    Click("sweep_sizes");
    std::vector<Json> sweeps;
    for (const Json& r : sent)
        if (r["op"] == "sweep") sweeps.push_back(r);
    ASSERT_EQ(sweeps.size(), 2u);
    const int points = static_cast<int>(sweeps[0]["values"].size());
    ASSERT_GE(points, 2);
    EXPECT_EQ(controller->Progress(), 0.0f) << "nothing reported yet: none of it done";
    EXPECT_LT(controller->SecondsLeft(), 0);
    const Json first = sweeps[0]["id"];
    worker->Push({{"id", first}, {"type", "progress"}, {"done", 1}, {"total", 2}});
    Frames(1);
    EXPECT_NEAR(controller->Progress(), 0.5f / float(points) / 2, 1e-5);
    worker->Push({{"id", first},
                  {"type", "skipped"},
                  {"point", 0},
                  {"points", points},
                  {"reason", "too large"}});
    worker->Push({{"id", first}, {"type", "progress"}, {"done", 2}, {"total", 4}});
    Frames(1);
    EXPECT_NEAR(controller->Progress(), 1.5f / float(points) / 2, 1e-5)
        << "one point done, the next half";
    worker->Push({{"id", first}, {"type", "done"}, {"status", "ok"}});
    Frames(1);
    EXPECT_NEAR(controller->Progress(), 0.5f, 1e-5) << "the first of two sweeps done";
}

// A progress line of the wrong shape is a notice, never a crash or a bar past its end.
TEST_F(AppLogic, MalformedProgressLinesAreNoticedAndIgnored) {
    worker->answer_runs = false;
    Open("split/openmp");
    sent.clear();
    Click("run");
    ASSERT_FALSE(Compares().empty()) << "1.2 and 1.3, timed in turn";
    const Json id = Compares().front()["id"];
    const size_t notices = controller->notices().size();
    for (const Json& bad : {Json{{"id", id}, {"type", "progress"}, {"done", 5}, {"total", 2}},
                            Json{{"id", id}, {"type", "progress"}, {"done", -1}, {"total", 2}},
                            Json{{"id", id}, {"type", "progress"}, {"done", "1"}, {"total", 2}},
                            Json{{"id", id}, {"type", "progress"}, {"done", 1}, {"total", 1e300}},
                            Json{{"id", id}, {"type", "skipped"}, {"point", 9}, {"points", 3}},
                            Json{{"id", id}, {"type", "skipped"}, {"point", "x"}, {"points", 3}}}) {
        worker->Push(bad);
        Frames(1);
    }
    EXPECT_EQ(controller->notices().size(), notices + 6);
    const float p = controller->Progress();
    EXPECT_TRUE(p < 0 || (p >= 0 && p <= 1)) << p;
    worker->Push({{"id", id}, {"type", "progress"}, {"done", 1}, {"total", 4}});
    Frames(1);
    EXPECT_GT(controller->Progress(), 0) << "a good line after the bad ones is read";
}

// A run asked for while the worker still answers the lesson list or measures the device
// information (--run at start, a click in the first second) cancels what ran before it, never
// those two: a cancel of everything once ended the info request, and the page (and --screenshot)
// waited for it for ever.
TEST(AppController, CancellingForANewRunNeverEndsTheListOrTheDeviceInformation) {
    std::vector<Json> sent;
    ScriptedWorker* worker = nullptr;
    Controller c(Catalog(),
                 [&] {
                     auto w = std::make_unique<ScriptedWorker>(std::vector<Json>{}, &sent);
                     worker = w.get();
                     return w;
                 },
                 {});
    c.Start();
    c.Update();  // hello: the list and the info go
    ASSERT_EQ(sent.size(), 2u);
    const Json list_id = sent[0]["id"], info_id = sent[1]["id"];
    // The list answered, the info still being measured.
    Json lessons = Json::array();
    for (const Lesson& l : Catalog().lessons()) lessons.push_back(LessonToJson(Catalog(), l, ""));
    worker->Push({{"id", list_id}, {"type", "list"}, {"lessons", lessons}});
    worker->Push({{"id", list_id}, {"type", "done"}, {"status", "ok"}});
    c.Update();
    const Lesson& lesson = LessonNamed(Catalog(), "reduce/cpu-sum");
    RunSettings settings;
    c.RunWithPrevious(lesson, settings);  // nothing to cancel but the info: no cancel
    c.RunWithPrevious(lesson, settings);  // the first run is cancelled, by its id
    std::vector<Json> cancels;
    for (const Json& r : sent)
        if (r["op"] == "cancel") cancels.push_back(r);
    ASSERT_EQ(cancels.size(), 1u);
    ASSERT_TRUE(cancels[0].contains("target"));
    EXPECT_NE(cancels[0]["target"], info_id);
    EXPECT_NE(cancels[0]["target"], list_id);
    c.CancelAll();
    for (const Json& r : sent)
        if (r["op"] == "cancel") EXPECT_NE(r["target"], info_id) << r.dump();
}

// The worker's hello says the nice value it lowered itself to: the GUI keeps it (its end-to-end
// test checks the worker's threads once it is known, not as soon as the GUI is busy), and
// forgets it for a new worker until that one's hello.
TEST(AppController, KnowsTheNiceValueTheWorkerSaidItLoweredItselfTo) {
    ScriptedWorker* worker = nullptr;
    Controller c(Catalog(),
                 [&] {
                     auto w = std::make_unique<ScriptedWorker>(std::vector<Json>{});
                     worker = w.get();
                     return w;
                 },
                 {});
    EXPECT_FALSE(c.WorkerNice());
    c.Start();
    EXPECT_FALSE(c.WorkerNice()) << "not before its hello";
    // The scripted hello has no "nice" (an older worker): none known.
    c.Update();
    EXPECT_FALSE(c.WorkerNice());
    EXPECT_EQ(c.WorkerPid(), -1) << "a fake has no process";
    c.RestartWorker();
    worker->Drain();  // this one's hello, replaced by one that says its nice value
    worker->Push({{"type", "hello"}, {"protocol", kProtocolVersion}, {"nice", 10}});
    EXPECT_FALSE(c.WorkerNice());
    c.Update();
    ASSERT_TRUE(c.WorkerNice());
    EXPECT_EQ(*c.WorkerNice(), 10);
    c.RestartWorker();
    EXPECT_FALSE(c.WorkerNice()) << "a new worker has not said yet";
}
