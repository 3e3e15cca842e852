// The lesson page's charts (charts/charts_panel.cpp): the step comparison's bars, whiskers and
// speed-up label, wrong and recorded results, toggles, and the block-size sweep's axis.
#include <gtest/gtest.h>

#include "app_fixture.h"

using namespace app_test;

// The speed-up label covers no bar or whisker and stays inside the chart's visible width, in
// a wide window and a narrow one, at presenter scales, in both languages.
TEST_F(AppLogic, SpeedupLabelCoversNoBarAndIsNotClipped) {
    Open("split/openmp");
    Click("run");
    auto intersects = [](const ImVec4& a, const ImVec4& b) {
        return a.x < b.z && a.z > b.x && a.y < b.w && a.w > b.y;
    };
    for (const ImVec2 display : {ImVec2(1500, 940), ImVec2(640, 480), ImVec2(1920, 1080)}) {
        for (const float scale : {1.0f, 2.0f}) {
            ImGui::GetIO().DisplaySize = display;
            ImGui::GetIO().FontGlobalScale = scale;
            Frames(3);
            const chart::BarLayout& l = probe.step_layout;
            ASSERT_EQ(l.annotations.size(), 1u) << display.x << " at " << scale;
            const ImVec4& a = l.annotations[0];
            EXPECT_GE(a.x, l.chart.x) << display.x << " at " << scale;
            EXPECT_LE(a.z, l.chart.z) << display.x << " at " << scale;
            EXPECT_GE(a.y, l.chart.y);
            for (const ImVec4& b : l.bars)
                EXPECT_FALSE(intersects(a, b))
                    << display.x << " at " << scale << ": label " << a.x << "," << a.y << "-" << a.z
                    << "," << a.w << " bar " << b.x << "," << b.y << "-" << b.z << "," << b.w;
        }
    }
    ImGui::GetIO().FontGlobalScale = 1;
}

TEST_F(AppLogic, WrongResultIsNeverPlottedAsValid) {
    worker->wrong_lesson = "split/openmp";
    Open("split/openmp");
    Click("run");
    Frames(2);
    ASSERT_GE(probe.step_bars.size(), 3u);
    EXPECT_TRUE(probe.step_bars[2].invalid);
    EXPECT_TRUE(probe.step_bars[2].annotation.empty()) << "no speedup from a wrong result";
}

TEST_F(AppLogic, RecordedResultsAreComparedOnlyAtTheirOwnSize) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 2400);  // the prediction and roofline come first
    Open("reduce/v5-vectorized-one-pass");  // opens at its recorded size; then moved to 64 MiB
    ui.run.params["size"] = ParamValue::Number(64u << 20);
    Frames(2);
    ASSERT_GE(probe.step_bars.size(), 8u);
    const std::string cpu = Named("reduce/cpu-sum").label;
    for (const chart::Bar& b : probe.step_bars) {  // 64 MiB: nothing recorded at this size
        EXPECT_EQ(b.value, 0.0) << b.label;
        if (b.label != cpu) {
            EXPECT_NE(b.tooltip.find("recorded at 1 GiB"), std::string::npos) << b.tooltip;
        }
    }
    Click("compare_recorded");
    EXPECT_EQ(ui.run.params["size"], ParamValue::Number(1u << 30));
    for (const chart::Bar& b : probe.step_bars) {
        if (b.label == cpu) continue;  // the CPU lesson has not run at 1 GiB
        EXPECT_GT(b.value, 0.0) << b.label;
        EXPECT_TRUE(b.hatched) << b.label;
        EXPECT_NE(b.tooltip.find("not live"), std::string::npos) << b.label;
    }
}

TEST_F(AppLogic, BlockSweepAxesTickAtTheBlockSizesThatWereRun) {
    worker_has_gpu = true;
    controller->RestartWorker();
    Frames(2);
    Open("reduce/v0-interleaved-global");
    Key(kKeyS);
    Frames(2);
    ImGui::NewFrame();
    ImGui::Begin("sweeps");
    DrawSweeps(ui, *controller, registry, Named("reduce/v0-interleaved-global"), true);
    ImGui::End();
    ImGui::Render();
    EXPECT_EQ(probe.block_ticks, (std::vector<double>{32, 64, 128, 256, 512, 1024}))
        << "not 50, 100, 200, 500";
}

TEST_F(AppLogic, AToggledRunIsDrawnOnlyWhenThePageHasTheSameToggle) {
    worker_has_gpu = true;
    controller->RestartWorker();
    Frames(3);
    Open("reduce/v5-vectorized-one-pass");
    ui.run.params["loads"] = ParamValue::Choice("scalar");
    Frames(1);
    sent.clear();
    Click("run");  // the vectorized step with scalar loads, and the warp-shuffle step before it
    ASSERT_EQ(Runs().size(), 2u);
    for (const Json& run : Runs())
        if (run["lesson"] == "reduce/v5-vectorized-one-pass") {
            EXPECT_EQ(run["params"]["loads"], "scalar");
        }
    // A lesson's bar, found by its label.
    auto bar = [&](const char* id) {
        for (const chart::Bar& b : probe.step_bars)
            if (b.label == Named(id).label) return b;
        return chart::Bar{};
    };
    const char* v5 = "reduce/v5-vectorized-one-pass";
    EXPECT_GT(bar(v5).value, 0) << "the scalar run, at the page's toggle";
    EXPECT_NE(bar(v5).tooltip.find("loads scalar"), std::string::npos) << bar(v5).tooltip;
    // Back to the lesson as written: the scalar run is not its bar.
    ui.run.params["loads"] = ParamValue::Choice("float4");
    Frames(2);
    EXPECT_EQ(bar(v5).value, 0) << bar(v5).tooltip;
    EXPECT_NE(bar(v5).tooltip.find("not measured at block 512, loads float4"), std::string::npos)
        << bar(v5).tooltip;
    EXPECT_GT(bar("reduce/v4-warp-shuffle").value, 0)
        << "the warp-shuffle step has no such toggle: its run still matches";
    // The block size counts too: a run at another block size is not this page's bar.
    ui.run.params["loads"] = ParamValue::Choice("scalar");
    ui.run.params["block"] = ParamValue::Number(128);
    Frames(2);
    EXPECT_EQ(bar(v5).value, 0);
    ui.run.params["block"] = ParamValue::Number(512);
    Frames(2);
    EXPECT_GT(bar(v5).value, 0);
}
