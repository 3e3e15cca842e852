// Exports and screenshots (model/export.h): CSV and JSON of every result, file names, folders
// that cannot be written, a full disk, and the export button on the page.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>

#include "app_fixture.h"
#include "model/export.h"
#include "text/diff.h"

using namespace app_test;

TEST(AppExport, CsvAndJsonHoldEveryResult) {
    std::vector<StoredResult> results(2);
    results[0].result.lesson = 3;
    results[0].result.id = "split/openmp";
    results[0].result.median_ms = 12.5;
    results[1].result.lesson = 4;
    results[1].result.id = "split/one-thread-per-pair";
    results[1].result.recorded = true;
    results[1].origin = Origin::kRecorded;

    results[1].result.params.Set("block", ParamValue::Number(512));
    const std::vector<std::string> names = {"block", "size"};

    const std::vector<std::string> csv = SplitLines(ExportText(results, ExportFormat::kCsv, names));
    ASSERT_EQ(csv.size(), 3u);
    EXPECT_EQ(csv[0], CsvHeader(names) + ",recorded");
    EXPECT_NE(csv[0].find(",block,size,"), std::string::npos) << csv[0];
    EXPECT_EQ(csv[1], CsvRow(results[0].result, names) + ",false");
    EXPECT_EQ(csv[2], CsvRow(results[1].result, names) + ",true");
    EXPECT_NE(csv[2].find(",512,"), std::string::npos) << csv[2];
    EXPECT_EQ(ExportText({}, ExportFormat::kCsv, names), CsvHeader(names) + ",recorded\n");

    const Json all = Json::parse(ExportText(results, ExportFormat::kJson, names));
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0], ToJson(results[0].result));
    EXPECT_EQ(all[1]["id"], "split/one-thread-per-pair");
    EXPECT_EQ(Json::parse(ExportText({}, ExportFormat::kJson, names)), Json::array());
}

TEST(AppExport, FileNamesCarryTheLocalTime) {
    setenv("TZ", "UTC", 1);
    tzset();
    const std::time_t t = 1774099501;  // 2026-03-21 13:25:01 UTC
    EXPECT_EQ(ExportFileName(t, ExportFormat::kCsv), "results-20260321-132501.csv");
    EXPECT_EQ(ExportFileName(t, ExportFormat::kJson), "results-20260321-132501.json");
    EXPECT_EQ(ScreenshotPath("/tmp/x", t), "/tmp/x/screenshot-1774099501.png");
}

TEST(AppExport, UnwritableFolderGivesAMessage) {
    const std::string message =
        ExportResults("/proc/version/a", {}, ExportFormat::kCsv, 0, {"size"});
    EXPECT_EQ(message.rfind("Could not write /proc/version/a/results-", 0), 0u) << message;
}

// Files larger than `bytes` cannot be written while it lives (as on a full disk), without root:
// the soft RLIMIT_FSIZE, with SIGXFSZ ignored so that a write fails with EFBIG instead.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &m_saved);
        m_old_handler = signal(SIGXFSZ, SIG_IGN);
        rlimit limited = m_saved;
        limited.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limited);
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &m_saved);
        signal(SIGXFSZ, m_old_handler);
    }

private:
    rlimit m_saved{};
    void (*m_old_handler)(int) = nullptr;
};

TEST(AppExport, AFullDiskIsReportedWithThePathAndReasonAndLeavesNoFile) {
    const std::string dir = ::testing::TempDir() + "/export_full/deeper";
    std::vector<StoredResult> results(40);
    for (StoredResult& s : results) s.result.id = "split/openmp";
    const std::string path = dir + "/" + ExportFileName(1774099501, ExportFormat::kJson);
    std::remove(path.c_str());  // from an earlier run
    std::string message;
    {
        FileSizeLimit limit(512);
        message = ExportResults(dir, results, ExportFormat::kJson, 1774099501, {"size"});
    }
    EXPECT_EQ(message.rfind("Could not write " + path + ": ", 0), 0u) << message;
    EXPECT_NE(message.find("File too large"), std::string::npos) << message;
    EXPECT_NE(access(path.c_str(), F_OK), 0) << "a cut file was left under the final name";
    // And with room, the same export succeeds (the folder and its parent were created).
    message = ExportResults(dir, results, ExportFormat::kJson, 1774099501, {"size"});
    EXPECT_EQ(message, "Exported 40 results to " + path);
}

TEST(AppExport, AScreenshotOnAFullDiskIsReportedAndLeavesNoFile) {
    const std::string path = ::testing::TempDir() + "/screenshot_full.png";
    std::remove(path.c_str());
    std::vector<unsigned char> pixels(64 * 64 * 4);
    for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<unsigned char>(i * 7919);
    std::string error;
    bool ok = true;
    {
        FileSizeLimit limit(512);
        ok = WritePng(path, 64, 64, pixels.data(), &error);
    }
    EXPECT_FALSE(ok);
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_NE(error.find("File too large"), std::string::npos) << error;
    EXPECT_NE(access(path.c_str(), F_OK), 0) << "a cut PNG was left under the final name";
    error.clear();
    EXPECT_TRUE(WritePng(path, 64, 64, pixels.data(), &error)) << error;
}

TEST(AppExport, WithoutHomeExportsGoToASaneFolderAndSaySo) {
    std::string notice;
    EXPECT_EQ(DefaultExportDir("/home/ada", nullptr, 1000, &notice),
              "/home/ada/cuda-lessons-exports");
    EXPECT_EQ(notice, "");
    EXPECT_EQ(DefaultExportDir(nullptr, "/data/ada", 1000, &notice),
              "/data/ada/cuda-lessons-exports");
    EXPECT_NE(notice.find("HOME is not set"), std::string::npos) << notice;
    EXPECT_NE(notice.find("/data/ada/cuda-lessons-exports"), std::string::npos) << notice;
    const unsigned me = getuid();
    const std::string mine = "/tmp/cuda-lessons-" + std::to_string(me);
    EXPECT_EQ(DefaultExportDir("", "", me, &notice), mine);
    EXPECT_NE(notice.find(mine), std::string::npos) << notice;
    struct stat st {};
    ASSERT_EQ(lstat(mine.c_str(), &st), 0);
    EXPECT_TRUE(S_ISDIR(st.st_mode) && st.st_uid == me && (st.st_mode & 077) == 0)
        << "made private";
    // Relative values are ignored (the XDG spec); a /tmp folder that is a link, or someone
    // else's, is never used: a fresh private one is made beside it.
    EXPECT_EQ(DefaultExportDir("home", "data", me, &notice), mine);
    const unsigned other = 4000000000u;
    const std::string planted = "/tmp/cuda-lessons-" + std::to_string(other);
    std::remove(planted.c_str());
    ASSERT_EQ(symlink("/tmp", planted.c_str()), 0);
    const std::string fresh = DefaultExportDir(nullptr, nullptr, other, &notice);
    EXPECT_EQ(fresh.rfind(planted + "-", 0), 0u) << fresh;
    EXPECT_EQ(lstat(fresh.c_str(), &st), 0);
    EXPECT_TRUE(S_ISDIR(st.st_mode) && (st.st_mode & 077) == 0);
    std::remove(planted.c_str());
    rmdir(fresh.c_str());
}

TEST_F(AppLogic, ExportWritesCsvAndJson) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 2400);  // tall enough to show the export buttons
    ui.export_dir = ::testing::TempDir() + "/exports_" + std::to_string(::getpid());
    Open("split/openmp");
    Click("run");
    Click("export_csv");
    Click("export_json");
    ASSERT_GE(ui.messages.size(), 2u);
    const std::string csv_message = ui.messages[ui.messages.size() - 2].en;
    ASSERT_EQ(csv_message.rfind("Exported", 0), 0u) << csv_message;
    const std::string csv_path = csv_message.substr(csv_message.find(" to ") + 4);
    std::ifstream csv(csv_path);
    std::string header, row;
    std::getline(csv, header);
    EXPECT_EQ(header.rfind("lesson,id,", 0), 0u);
    int rows = 0;
    while (std::getline(csv, row)) ++rows;
    EXPECT_EQ(rows, static_cast<int>(controller->results().size()));
    const std::string json_message = ui.messages.back().en;
    std::ifstream json_file(json_message.substr(json_message.find(" to ") + 4));
    const Json all = Json::parse(json_file);
    EXPECT_EQ(all.size(), controller->results().size());
}
