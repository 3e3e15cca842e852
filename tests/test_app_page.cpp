// The lesson page (panels/): the lesson list and the title, selecting lessons by click, key and
// name, the controls built from a lesson's parameters (sliders, combos) and what they send,
// keys, languages, scales and layouts at the edges.
#include <gtest/gtest.h>
#include <imgui_internal.h>  // the tooltip window

#include "app_fixture.h"

using namespace app_test;

TEST_F(AppLogic, SelectTheOpenMpLessonAndRun) {
    Open("split/openmp");
    EXPECT_EQ(ui.settings.lesson, "split/openmp") << "the settings hold the lesson's id";
    ASSERT_TRUE(probe.rects.count("threads")) << "the OpenMP lesson has a thread-count slider";
    sent.clear();
    Click("run");
    // Two CPU steps: timed in turn, one request for both (each takes the parameters it has).
    EXPECT_TRUE(Runs().empty());
    const auto compares = Compares();
    ASSERT_EQ(compares.size(), 1u) << "this lesson and the previous one";
    EXPECT_EQ(compares[0]["lessons"], Json::array({"split/even-positions", "split/openmp"}));
    EXPECT_EQ(compares[0]["params"]["size"], ui.run.params["size"].number) << "the page's size";
    EXPECT_EQ(compares[0]["params"]["data"], "random");
    EXPECT_TRUE(compares[0]["params"].contains("threads"));
    Frames(2);
    const StoredResult* previous =
        controller->Latest(Named("split/even-positions"),
                           ChapterValues(registry.ChapterOf(Named("split/openmp")), ui.run));
    ASSERT_NE(previous, nullptr);
    EXPECT_FALSE(previous->result.params.Has("threads")) << "the previous lesson takes no threads";
    // The chart holds both bars, under their labels, and the speedup label.
    const std::string faster =
        "2.50\xC3\x97 faster than lesson " + Named("split/even-positions").label;
    ASSERT_GE(probe.step_bars.size(), 3u);
    EXPECT_EQ(probe.step_bars[2].label, Named("split/openmp").label);
    EXPECT_DOUBLE_EQ(probe.step_bars[1].value, 50.0);
    EXPECT_DOUBLE_EQ(probe.step_bars[2].value, 20.0);
    EXPECT_TRUE(probe.step_bars[2].highlight);
    EXPECT_EQ(probe.step_bars[2].annotation, faster);
    EXPECT_DOUBLE_EQ(probe.step_bars[2].lo, 18.0);
    EXPECT_DOUBLE_EQ(probe.step_bars[2].hi, 24.0);
    EXPECT_NE(
        probe.step_bars[2].tooltip.find("timed in turn with the step before it: 3 trials pooled"),
        std::string::npos)
        << probe.step_bars[2].tooltip;
    // The same bars in the rate the results are judged by.
    Click("axis_rate");
    EXPECT_TRUE(ui.rate_axis);
    EXPECT_DOUBLE_EQ(probe.step_bars[1].value, 20.0) << "1000 / 50 GB/s";
    EXPECT_DOUBLE_EQ(probe.step_bars[2].value, 50.0);
    EXPECT_NEAR(probe.step_bars[2].lo, 50.0 / 1.2, 1e-9) << "the rate at the slowest sample";
    EXPECT_EQ(probe.step_bars[2].annotation, faster);
}

TEST_F(AppLogic, DraggingSlidersReplacesPendingRequestsInsteadOfQueueing) {
    worker->answer_runs = false;  // everything stays pending
    Open("split/openmp");
    const ImVec4 r = probe.rects["threads"];
    sent.clear();
    Drag(ImVec2(r.x + 3, (r.y + r.w) / 2), ImVec2(r.z - 3, (r.y + r.w) / 2));
    EXPECT_TRUE(Runs().empty()) << "nothing is sent before the controls settle";
    Wait(kDebounceSeconds + 0.1);
    auto runs = Compares();  // 1.2 and 1.3, timed in turn
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_GT(runs[0]["params"]["threads"].get<int>(), 1) << "dragged to the right";
    const ImVec4 s = probe.rects["size"];
    sent.clear();
    Drag(ImVec2((s.x + s.z) / 2, (s.y + s.w) / 2), ImVec2(s.x + 2, (s.y + s.w) / 2));
    Wait(kDebounceSeconds + 0.1);
    ASSERT_FALSE(sent.empty());
    EXPECT_EQ(sent.front()["op"], "cancel") << "pending runs are cancelled first";
    runs = Compares();
    ASSERT_EQ(runs.size(), 1u) << "one comparison of the pair, no backlog";
    EXPECT_EQ(runs[0]["params"]["size"], 1024) << "dragged to the smallest size";
}

TEST_F(AppLogic, BlockSizeSliderOffersOnlyAcceptedSizes) {
    worker_has_gpu = true;
    controller->RestartWorker();  // a worker with a GPU this time
    Frames(2);
    Open("reduce/v0-interleaved-global");  // v0: powers of two only
    ASSERT_TRUE(probe.rects.count("block"));
    const ImVec4 r = probe.rects["block"];
    sent.clear();
    Drag(ImVec2((r.x + r.z) / 2, (r.y + r.w) / 2), ImVec2(r.z - 2, (r.y + r.w) / 2));
    Wait(kDebounceSeconds + 0.1);
    auto runs = Runs();
    ASSERT_EQ(runs.size(), 2u) << "this lesson and the CPU sum before it";
    EXPECT_EQ(runs[0]["lesson"], "reduce/cpu-sum");
    EXPECT_FALSE(runs[0]["params"].contains("block")) << "the CPU lesson has no block size";
    EXPECT_EQ(runs[1]["params"]["block"], 1024) << "dragged to the end of the accepted sizes";
    // (The rectangle ends with the label: the slider's own frame starts at its left.)
    Drag(ImVec2(r.x + 3, (r.y + r.w) / 2), ImVec2(r.x + (r.z - r.x) * 0.3f, (r.y + r.w) / 2));
    const ParamSpec& spec = *Named("reduce/v0-interleaved-global").FindParam("block");
    const ParamValue block = ResolveParam(spec, ui.run);
    EXPECT_EQ(ui.run.params["block"], ParamValue::Number(block.number)) << "what the slider shows";
    EXPECT_LT(block.number, 1024u);
    for (uint64_t b = block.number; b > 1; b /= 2)
        ASSERT_NE(b % 2, 1u) << block.number << " is not a power of two";
    EXPECT_EQ(spec.Reject(block), "");
}

TEST_F(AppLogic, KeyboardNavigationRunAndCancel) {
    Open("split/openmp");
    Key(kKeyRight);
    EXPECT_EQ(ui.settings.lesson, "split/one-thread-per-pair");
    Key(kKeyLeft);
    EXPECT_EQ(ui.settings.lesson, "split/openmp");
    worker->answer_runs = false;
    sent.clear();
    Key(kKeyR);
    EXPECT_EQ(Compares().size(), 1u) << "1.2 and 1.3, timed in turn";
    EXPECT_TRUE(controller->Busy());
    Key(kKeyEscape);
    EXPECT_EQ(sent.back()["op"], "cancel");
}

TEST_F(AppLogic, HideAnswersIsAToggleOfThePage) {
    Open("split/openmp");
    EXPECT_FALSE(ui.settings.hide_answers);
    Click("hide_answers");
    EXPECT_TRUE(ui.settings.hide_answers) << "remembered in the settings";
    Click("lang_zh");
    EXPECT_TRUE(ui.settings.hide_answers);
    Click("hide_answers");
    EXPECT_FALSE(ui.settings.hide_answers);
}

TEST_F(AppLogic, LanguageToggleAndScaleKeys) {
    Click("lang_zh");
    EXPECT_EQ(ui.settings.language, "zh");
    Click("lang_en");
    EXPECT_EQ(ui.settings.language, "en");
    Ctrl(true);
    Key(kKeyEqual);
    Ctrl(false);
    EXPECT_GT(ui.settings.scale, 1.1f);
    EXPECT_TRUE(ui.fonts_dirty) << "fonts are rebuilt at the new scale, not stretched";
}

// At the edges (a 640x480 window, presenter scale up to 4 on 1920x1080, both languages): the
// title never covers the language buttons, and every control is drawn inside the window.
TEST_F(AppLogic, LayoutHoldsAtSmallWindowsAndLargeScales) {
    Open("split/openmp");
    for (const ImVec2 display : {ImVec2(640, 480), ImVec2(1920, 1080)}) {
        for (const float scale : {1.0f, 2.3f, 4.0f}) {
            for (const char* language : {"en", "zh"}) {
                SCOPED_TRACE(testing::Message() << display.x << "x" << display.y << " at " << scale
                                                << ", " << language);
                ui.settings.language = language;
                ScaleTo(scale, display);
                Frames(3);
                ASSERT_TRUE(probe.rects.count("title"));
                const ImVec4 title = probe.rects["title"];
                for (const char* button : {"lang_en", "lang_zh"}) {
                    ASSERT_TRUE(probe.rects.count(button)) << button;
                    const ImVec4 b = probe.rects[button];
                    const bool overlap =
                        title.x < b.z && b.x < title.z && title.y < b.w && b.y < title.w;
                    EXPECT_FALSE(overlap) << "the title covers " << button;
                }
                for (const auto& [name, r] : probe.rects) {
                    if (r.y >= display.y || r.w <= 0) continue;  // scrolled out of view
                    EXPECT_GE(r.x, -0.5f) << name;
                    EXPECT_LE(r.z, display.x + 0.5f) << name << " reaches past the window";
                }
            }
        }
    }
}

// A text that begins with a character of several bytes, in a room narrower than "…": the cut
// never steps below the text's start (it used to wrap and read memory before the string).
TEST_F(AppLogic, ElideInARoomNarrowerThanAnEllipsis) {
    ImGui::NewFrame();
    for (const float width : {0.0f, 0.5f, 1.0f, 3.0f, -5.0f}) {
        const std::string out = Elide("\xE5\x9D\x97\xE5\xA4\xA7\xE5\xB0\x8F", width);
        EXPECT_TRUE(out == "\xE2\x80\xA6" || out.empty()) << width << ": " << out;
    }
    ImGui::Render();
}

// Chinese in windows down to 1 px wide: every frame is drawn (no crash, no assertion).
TEST_F(AppLogic, NarrowWindowsInChineseAreDrawn) {
    Open("split/openmp");
    ui.settings.language = "zh";
    for (const ImVec2 display : {ImVec2(50, 600), ImVec2(1, 1000), ImVec2(20, 20), ImVec2(1, 1)}) {
        SCOPED_TRACE(testing::Message() << display.x << "x" << display.y);
        ImGui::GetIO().DisplaySize = display;
        Frames(3);
    }
}

TEST_F(AppLogic, ParametersAreKeptAcrossLessonsWhereAccepted) {
    RestartWithGpu(2);
    Open("split/one-thread-per-pair");
    ui.run.params["block"] = ParamValue::Number(512);
    ui.run.params["size"] = ParamValue::Number(8u << 20);
    Key(kKeyRight);  // the next lesson accepts 512 too
    EXPECT_EQ(ui.settings.lesson, "split/pinned-memory");
    EXPECT_EQ(ui.run.params["block"], ParamValue::Number(512));
    EXPECT_EQ(ResolveParam(*Named("split/pinned-memory").FindParam("block"), ui.run).number, 512u);
    ui.run.params["block"] = ParamValue::Number(1024);
    Open("split/vector-loads-block-compaction");  // at most 512 threads: its default is shown
    EXPECT_EQ(ui.run.params["block"], ParamValue::Number(256));
    EXPECT_EQ(ui.run.params["size"], ParamValue::Number(8u << 20)) << "the size is kept";
    // Parameters carry over within a chapter only: the threads and size set on the OpenMP split
    // are not the CPU sum's, a chapter later; the CPU sum's own come back to it.
    Open("split/openmp");
    ui.run.params["threads"] = ParamValue::Number(3);
    Open("reduce/cpu-sum");
    const Lesson& sum = Named("reduce/cpu-sum");
    EXPECT_EQ(ResolveParam(*sum.FindParam("threads"), ui.run), sum.FindParam("threads")->Default());
    EXPECT_EQ(ResolveParam(*sum.FindParam("size"), ui.run), sum.FindParam("size")->Default());
    ui.run.params["threads"] = ParamValue::Number(3);
    ui.run.params["size"] = ParamValue::Number(8u << 20);
    Open("split/openmp");
    EXPECT_EQ(ui.run.params["threads"], ParamValue::Number(3)) << "the split's own threads";
    Open("reduce/cpu-sum");
    EXPECT_EQ(ui.run.params["size"], ParamValue::Number(8u << 20)) << "a whole number of floats";
    sent.clear();
    Click("run");
    ASSERT_EQ(Runs().size(), 1u);
    EXPECT_EQ(Runs()[0]["params"], Json({{"threads", 3}, {"size", 8u << 20}, {"data", "random"}}));
    // A value a lesson does not accept is never sent: the lesson's default goes instead.
    ui.run.params["data"] = ParamValue::Choice("dense");  // a data kind of the split chapter only
    sent.clear();
    Click("run");
    ASSERT_EQ(Runs().size(), 1u);
    EXPECT_EQ(Runs()[0]["params"]["data"], "random");
}

TEST_F(AppLogicMadeUpChapter, ControlsRequestsChartAndTableComeFromItsParameters) {
    const Lesson& lesson = Named("tiles/tiled");
    EXPECT_EQ(ControlFor(*lesson.FindParam("block")), ControlKind::kValues);
    EXPECT_EQ(ControlFor(*lesson.FindParam("m")), ControlKind::kLog);
    EXPECT_EQ(ControlFor(*lesson.FindParam("shape")), ControlKind::kCombo);
    EXPECT_EQ(ControlFor(ThreadsParam()), ControlKind::kInt);
    for (const char* name : {"block", "m", "shape", "cold_l2", "run"})
        EXPECT_TRUE(probe.rects.count(name)) << name << " has no control";
    EXPECT_FALSE(probe.rects.count("size")) << "this chapter has no data size";
    const std::vector<std::string_view> texts = UiTexts(registry);
    EXPECT_NE(std::find(texts.begin(), texts.end(), "行数"), texts.end()) << "labels' glyphs";

    sent.clear();
    Click("run");
    ASSERT_EQ(Runs().size(), 1u);
    EXPECT_EQ(Runs()[0]["params"],
              Json({{"block", 128}, {"m", 1024}, {"shape", "64x64"}, {"scan", "hillis-steele"}}));
    ASSERT_EQ(probe.step_bars.size(), 1u);
    EXPECT_DOUBLE_EQ(probe.step_bars[0].value, 50.0) << "matched by m and tile";
    EXPECT_NE(probe.step_bars[0].tooltip.find("m 1024, shape 64x64"), std::string::npos)
        << probe.step_bars[0].tooltip;
    EXPECT_NE(probe.step_bars[0].tooltip.find("% of the read-bandwidth ceiling (3000 GB/s)"),
              std::string::npos)
        << probe.step_bars[0].tooltip;

    // The log slider goes down to the smallest m and snaps to whole rows of 16.
    const ImVec4 r = probe.rects["m"];
    sent.clear();
    Drag(ImVec2((r.x + r.z) / 2, (r.y + r.w) / 2), ImVec2(r.x + 2, (r.y + r.w) / 2));
    Wait(kDebounceSeconds + 0.1);
    ASSERT_EQ(Runs().size(), 1u);
    EXPECT_EQ(Runs()[0]["params"]["m"], 16);
    EXPECT_EQ(SnapLog(*lesson.FindParam("m"), 10.5, 1 << 16), 1440u) << "2^10.5 in rows of 16";
    EXPECT_EQ(probe.step_bars[0].value, 50.0) << "the new run, at m = 16";

    // Another tile: the previous result no longer matches the page.
    ui.run.params["shape"] = ParamValue::Choice("128x128");
    Frames(2);
    EXPECT_EQ(probe.step_bars[0].value, 0.0);
    EXPECT_NE(probe.step_bars[0].tooltip.find("not measured at block 128, m 16, shape 128x128"),
              std::string::npos)
        << probe.step_bars[0].tooltip;
    ui.run.params["shape"] =
        ParamValue::Choice("256x256");  // not one of its tiles: the default is shown and sent
    sent.clear();
    Click("run");
    EXPECT_EQ(Runs().back()["params"]["shape"], "64x64");

    // The results table: its fields, then a column per parameter.
    const std::vector<ResultColumn> columns =
        ResultColumns(registry, registry.chapters().front(), "zh");
    ASSERT_GE(columns.size(), 4u);
    EXPECT_EQ(columns[0].header, "课");
    EXPECT_EQ(columns[1].header, "线程块大小");
    EXPECT_EQ(columns[2].header, "行数");
    EXPECT_EQ(columns[3].header, "分块形状");
    EXPECT_EQ(columns[2].text(controller->results().back().result), "16");
    EXPECT_EQ(columns[3].text(controller->results().back().result), "64x64");
    ASSERT_GE(columns.size(), 5u);
    EXPECT_EQ(columns[4].header, "扫描方式");
    EXPECT_EQ(columns[4].text(controller->results().back().result), "Hillis-Steele 扫描");
}

// A lesson is shown by its label ("3.2": its chapter's number and its place there) and selected
// by any name Registry::FindLesson takes (an old number and id where a recording still carries
// them); the settings keep its id.
TEST_F(AppLogic, LessonsAreShownByLabelAndSelectedByAnyName) {
    const Lesson& step = Named("reduce/v1-shared-memory");
    for (const std::string& name :
         {step.label, step.id, std::string("21"), std::string("reduce/21-v1-shared-memory")}) {
        SelectLesson(ui, registry, "");
        SelectLesson(ui, registry, name);
        EXPECT_EQ(ui.settings.lesson, "reduce/v1-shared-memory") << name;
        EXPECT_EQ(CurrentLesson(ui, registry), &step) << name;
    }
    Frames(2);
    EXPECT_EQ(probe.title.rfind(step.label + "  ", 0), 0u) << probe.title;
    for (const std::string& name : {std::string("no/such-lesson"), std::string("99.99")}) {
        SelectLesson(ui, registry, name);
        EXPECT_EQ(ui.settings.lesson, registry.lessons().front().id) << name << ": the first";
    }
    // Every lesson of the list, under its id; labels number the lessons within each chapter.
    for (const Chapter& chapter : registry.chapters()) {
        int place = 0;
        for (const Lesson* l : registry.LessonsOf(chapter)) {
            EXPECT_TRUE(probe.rects.count("lesson_" + l->id)) << l->id;
            EXPECT_EQ(l->label, std::to_string(chapter.number) + "." + std::to_string(++place));
        }
    }
}

// Presenter mode (F5 or its checkbox): no lesson list, no code; the text one section at a time
// (arrows, Page Up / Down, the buttons; a new lesson starts at its first) beside a large step
// chart; every control inside a 1280x720 window at scale 2; F5 again brings the panes back.
TEST_F(AppLogic, PresenterModeShowsOneSectionBesideALargeChart) {
    SelectLesson(ui, registry, "gemm/double-buffering");
    Frames(2);
    ASSERT_EQ(ui.settings.lesson, "gemm/double-buffering");
    EXPECT_TRUE(probe.list_drawn);
    EXPECT_TRUE(probe.code_drawn);
    Key(kKeyF5);
    ASSERT_TRUE(ui.presenter);
    Frames(2);
    EXPECT_FALSE(probe.list_drawn);
    EXPECT_FALSE(probe.code_drawn);
    EXPECT_FALSE(probe.rects.count("text_pane"));
    EXPECT_FALSE(probe.rects.count("code_pane"));
    ASSERT_TRUE(probe.rects.count("section_pane"));
    ASSERT_TRUE(probe.rects.count("step_chart"));
    EXPECT_EQ(probe.section, 0);
    EXPECT_GE(probe.sections, 4);
    Key(kKeyDown);
    EXPECT_EQ(probe.section, 1);
    Key(kKeyPageDown);
    EXPECT_EQ(probe.section, 2);
    Key(kKeyUp);
    EXPECT_EQ(probe.section, 1);
    Click("section_next");
    EXPECT_EQ(probe.section, 2);
    for (int i = 0; i < 40; ++i) Key(kKeyDown);
    EXPECT_EQ(probe.section, probe.sections - 1) << "the last section is as far as it goes";
    Click("section_previous");
    EXPECT_EQ(probe.section, probe.sections - 2);
    Key(kKeyRight);
    EXPECT_EQ(ui.settings.lesson, "gemm/cublas-sgemm");
    EXPECT_EQ(probe.section, 0) << "a new lesson starts at its first section";

    ScaleTo(2, ImVec2(1280, 720));
    for (const char* language : {"en", "zh"}) {
        SCOPED_TRACE(language);
        ui.settings.language = language;
        Frames(3);
        const ImVec4 chart = probe.rects["step_chart"], section = probe.rects["section_pane"];
        EXPECT_GE(chart.w - chart.y, 720 * 0.45f) << "the chart takes most of the height";
        EXPECT_GE(chart.z - chart.x, 1280 * 0.45f);
        EXPECT_LE(section.z, chart.x) << "the section stands beside the chart";
        for (const auto& [name, r] : probe.rects) {
            EXPECT_GE(r.x, -0.5f) << name;
            EXPECT_LE(r.z, 1280.5f) << name << " reaches past the window";
            EXPECT_LE(r.w, 720.5f) << name << " reaches below the window";
        }
    }
    Click("presenter_toggle");
    EXPECT_FALSE(ui.presenter);
    // At 1280x720 and scale 2 (40 font heights) the list gives the page its room: its strip
    // with the button that shows it.
    EXPECT_FALSE(probe.list_drawn);
    EXPECT_TRUE(probe.rects.count("list_show"));
    EXPECT_TRUE(probe.code_drawn);
    Click("list_show");
    Frames(2);
    EXPECT_TRUE(probe.list_drawn);
}

// The roofline in presenter mode at 1280x720, scale 2: its roof labels cover no point and no
// other label (those with no clear place are listed on one line under the chart), the legend
// names each chapter by its short title, and chart, legend and that line fit the chart pane,
// in both languages.
TEST_F(AppLogic, PresenterRooflineIsReadableAtScaleTwo) {
    ScaleTo(2, ImVec2(1280, 720));
    SelectLesson(ui, registry, "roofline/roofline");
    ui.presenter = true;
    for (const char* language : {"en", "zh"}) {
        SCOPED_TRACE(language);
        ui.settings.language = language;
        Frames(3);
        EXPECT_GT(probe.roof_points, 100);
        EXPECT_EQ(probe.roof_label_overlaps, 0);
        ASSERT_TRUE(probe.rects.count("roofline_chart"));
        ASSERT_TRUE(probe.rects.count("roof_legend_end"));
        const ImVec4 chart = probe.rects["roofline_chart"], pane = probe.rects["presenter_chart"];
        const ImVec4 legend = probe.rects["roof_legend_end"];
        EXPECT_GE(chart.w - chart.y, 720 * 0.35f) << "the chart takes the height";
        EXPECT_LE(legend.w, pane.w + 0.5f) << "the legend is cut off by the pane";
        EXPECT_LE(legend.w, 720.5f);
        for (const std::string& entry : probe.roof_legend)
            EXPECT_EQ(entry.find(language[0] == 'z' ? "\xEF\xBC\x9A" : ": "), std::string::npos)
                << entry << ": the short title in presenter mode";
        EXPECT_FALSE(probe.roof_dropped.empty()) << "at this size some roof labels find no place";
        // ... and are listed whole in the key under the chart, never over its plot (issue 42:
        // they were cut with "…", then covered the plot's corner).
        ASSERT_TRUE(probe.rects.count("roof_dropped_list"));
        EXPECT_GE(probe.rects["roof_dropped_list"].y, chart.w - 0.5f) << "the key under the chart";
        EXPECT_LE(probe.rects["roof_dropped_list"].w, pane.w + 0.5f) << "the key within the pane";
    }
}

// The panes are resizable: dragging the line between the text and the code, and the one right
// of the lesson list, moves them and is kept in the settings; neither goes past its range.
TEST_F(AppLogic, PanesAreResizedByDraggingTheLinesBetweenThem) {
    Open("split/openmp");
    const ImVec4 text_before = probe.rects["text_pane"];
    const ImVec2 split = Center("text_splitter");
    Drag(split, ImVec2(split.x, split.y + 120));
    Frame();
    EXPECT_GT(ui.settings.text_share, 0.55f);
    EXPECT_NEAR(probe.rects["text_pane"].w - text_before.w, 120, 8);
    Drag(Center("text_splitter"), ImVec2(split.x, 5000));
    EXPECT_LE(ui.settings.text_share, kMaxTextShare + 1e-4f);
    const ImVec2 side = Center("sidebar_splitter");
    const float list_before = probe.rects["lesson_filter"].z;
    Drag(side, ImVec2(side.x - 60, side.y));
    Frame();
    EXPECT_GT(ui.settings.sidebar_em, kMinSidebarEm);
    EXPECT_LT(ui.settings.sidebar_em, 19);
    EXPECT_LT(probe.rects["lesson_filter"].z, list_before - 40) << "the lesson list got narrower";
    Drag(Center("sidebar_splitter"), ImVec2(-500, side.y));
    EXPECT_NEAR(ui.settings.sidebar_em, kMinSidebarEm, 0.01f);
}

// Tooltips wrap to fit the window: a long one in a narrow window is never wider than it.
TEST_F(AppLogic, TooltipsAreNeverWiderThanTheWindow) {
    ImGui::GetIO().DisplaySize = ImVec2(420, 300);
    // Hovered near the right edge, where a tooltip placed right of the mouse would be cut off
    // (ImGui places a tooltip from the mouse: without a mouse position 1.90 does not clamp it).
    ImGui::GetIO().MousePos = ImVec2(400, 150);
    const std::string long_text(2000, 'x');
    const std::string words = [] {
        std::string s;
        for (int i = 0; i < 300; ++i) s += "word ";
        s += "\n";
        for (int i = 0; i < 100; ++i) s += "第二段";
        return s;
    }();
    for (const std::string& text : {long_text, words, std::string("短 short")}) {
        for (int frame = 0; frame < 3; ++frame) {
            ImGui::NewFrame();
            Tooltip(text.c_str());
            ImGui::Render();
        }
        const ImGuiWindow* tip = nullptr;
        for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
            if (w->Flags & ImGuiWindowFlags_Tooltip && w->Active) tip = w;
        ASSERT_NE(tip, nullptr);
        EXPECT_GE(tip->Pos.x, 0);
        EXPECT_LE(tip->Pos.x + tip->Size.x, 420.5f);
    }
}
