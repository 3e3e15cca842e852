// The worker protocol, in process and through the real `cuda-lessons-cli serve`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "catalog.h"
#include "cli_path.h"
#include "device.h"
#include "serve.h"

using namespace lessons;
using json = nlohmann::ordered_json;

namespace {

std::vector<json> ServeLines(const std::string& input, int* exit_code = nullptr) {
    std::istringstream in(input);
    std::ostringstream out;
    const int rc = Serve(Catalog(), in, out);
    if (exit_code) *exit_code = rc;
    std::vector<json> messages;
    std::istringstream lines(out.str());
    std::string line;
    while (std::getline(lines, line)) messages.push_back(json::parse(line));
    return messages;
}

std::vector<json> For(const std::vector<json>& messages, const json& id) {
    std::vector<json> out;
    for (const json& m : messages)
        if (m.contains("id") && m["id"] == id) out.push_back(m);
    return out;
}

}  // namespace

TEST(Serve, RunRequestGivesResultThenDone) {
    int rc = -1;
    const auto messages =
        ServeLines(R"({"op":"run","id":1,"lesson":2,"size":"100KiB","reps":2,"data":"dense"})"
                   "\n",
                   &rc);
    EXPECT_EQ(rc, 0);
    ASSERT_GE(messages.size(), 3u);
    EXPECT_EQ(messages[0]["type"], "hello");
    EXPECT_EQ(messages[0]["protocol"], kProtocolVersion);
    const auto mine = For(messages, 1);
    ASSERT_GE(mine.size(), 2u);
    const json& result = mine[mine.size() - 2];
    EXPECT_EQ(result["type"], "result");
    EXPECT_EQ(result["result"]["lesson"], 2);
    EXPECT_EQ(result["result"]["size_bytes"], 102400);
    EXPECT_EQ(result["result"]["data"], "dense");
    EXPECT_EQ(result["result"]["verified"], true);
    EXPECT_EQ(mine.back()["type"], "done");
    EXPECT_EQ(mine.back()["status"], "ok");
}

TEST(Serve, MalformedLinesGetErrorsAndServingGoesOn) {
    const auto messages = ServeLines(
        "this is not json\n"
        "[1,2,3]\n"
        R"({"id":"a"})"
        "\n"
        R"({"op":"dance","id":"b"})"
        "\n"
        R"({"op":"run","id":"c","lesson":"99"})"
        "\n"
        R"({"op":"run","id":"d","lesson":"4","block":33})"
        "\n"
        R"({"op":"run","id":"e","lesson":"1","size":"12QB"})"
        "\n"
        R"({"op":"run","id":"f","lesson":"split/01-naive-scan","size":1000,"reps":1})"
        "\n");
    int null_errors = 0;
    for (const json& m : messages)
        if (m["type"] == "error" && m["id"].is_null()) ++null_errors;
    EXPECT_EQ(null_errors, 2) << "non-JSON and non-object lines";
    for (const char* id : {"a", "b", "c", "d", "e"}) {
        const auto mine = For(messages, id);
        ASSERT_EQ(mine.size(), 2u) << id;
        EXPECT_EQ(mine[0]["type"], "error") << id;
        EXPECT_EQ(mine[0]["fatal"], false) << id;
        EXPECT_EQ(mine[1]["status"], "error") << id;
    }
    EXPECT_NE(For(messages, "d")[0]["error"].get<std::string>().find("multiple of 32"),
              std::string::npos);
    const auto last = For(messages, "f");
    EXPECT_EQ(last.back()["status"], "ok") << "still serving after the errors";
}

TEST(Serve, ListAndInfo) {
    const auto messages = ServeLines(R"({"op":"list","id":1})"
                                     "\n"
                                     R"({"op":"info","id":2})"
                                     "\n");
    const auto list = For(messages, 1);
    ASSERT_EQ(list[0]["type"], "list");
    EXPECT_EQ(list[0]["lessons"].size(), Catalog().lessons().size());
    const auto info = For(messages, 2);
    ASSERT_EQ(info[0]["type"], "info");
    EXPECT_TRUE(info[0]["device"].contains("available"));
    ASSERT_TRUE(info[0]["devices"].is_array());
    EXPECT_EQ(info[0]["devices"].size(), GetDevices().devices.size());
    EXPECT_TRUE(info[0]["host"].contains("hardware_threads"));
}

TEST(Serve, SweepGivesOneResultPerPoint) {
    const auto messages =
        ServeLines(R"({"op":"sweep","id":7,"lesson":3,"sizes":"1KiB..8KiB","reps":1,"threads":2})"
                   "\n"
                   R"({"op":"sweep","id":8,"lesson":3,"blocks":"32..64"})"
                   "\n");
    int results = 0;
    for (const json& m : For(messages, 7)) {
        if (m["type"] != "result") continue;
        EXPECT_EQ(m["point"], results);
        EXPECT_EQ(m["points"], 4);
        EXPECT_EQ(m["result"]["threads"], 2);
        ++results;
    }
    EXPECT_EQ(results, 4);
    EXPECT_EQ(For(messages, 7).back()["status"], "ok");
    EXPECT_EQ(For(messages, 8).back()["status"], "error") << "a CPU lesson has no block size";
}

TEST(Serve, CancelStopsRunningAndQueuedRequests) {
    const auto messages =
        ServeLines(R"({"op":"run","id":1,"lesson":1,"size":"8MiB","min_time_s":30})"
                   "\n"
                   R"({"op":"run","id":2,"lesson":1,"size":"8MiB","min_time_s":30})"
                   "\n"
                   R"({"op":"cancel","id":3,"target":2})"
                   "\n"
                   R"({"op":"cancel","id":4,"target":1})"
                   "\n"
                   R"({"op":"run","id":5,"lesson":1,"size":"1KiB","reps":1})"
                   "\n");
    EXPECT_EQ(For(messages, 1).back()["status"], "cancelled");
    EXPECT_EQ(For(messages, 2).back()["status"], "cancelled");
    EXPECT_EQ(For(messages, 3).back()["status"], "ok");
    EXPECT_EQ(For(messages, 5).back()["status"], "ok");
}

TEST(Serve, AttributesAreForOwnKernelsOnly) {
    const auto messages = ServeLines(R"({"op":"attributes","id":1,"lesson":3})"
                                     "\n"
                                     R"({"op":"attributes","id":2,"lesson":4,"block":48})"
                                     "\n"
                                     R"({"op":"attributes","id":3,"lesson":26})"
                                     "\n");
    EXPECT_EQ(For(messages, 1).back()["status"], "error") << "a CPU lesson has no kernel";
    EXPECT_NE(For(messages, 2)[0]["error"].get<std::string>().find("multiple of 32"),
              std::string::npos);
    EXPECT_EQ(For(messages, 3).back()["status"], "error")
        << "a library step has no kernel of its own";
}

TEST(Serve, ShutdownStopsServing) {
    const auto messages = ServeLines(R"({"op":"shutdown","id":1})"
                                     "\n"
                                     R"({"op":"list","id":2})"
                                     "\n");
    EXPECT_EQ(For(messages, 1).back()["status"], "ok");
    EXPECT_TRUE(For(messages, 2).empty());
}

TEST(Serve, RealWorkerProcess) {
    const std::string requests = ::testing::TempDir() + "/serve_" + std::to_string(getpid());
    {
        std::ofstream f(requests);
        f << R"({"op":"run","id":1,"lesson":3,"size":"64KiB","reps":3})"
             "\n"
          << "garbage\n"
          << R"({"op":"run","id":2,"lesson":1,"size":"3","reps":1})"
             "\n";
    }
    const std::string command = CliPath() + " serve < " + requests;
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::vector<json> messages;
    char buf[65536];
    while (fgets(buf, sizeof buf, pipe)) messages.push_back(json::parse(buf));
    const int status = pclose(pipe);
    EXPECT_EQ(WEXITSTATUS(status), 0);
    std::remove(requests.c_str());
    ASSERT_FALSE(messages.empty());
    EXPECT_EQ(messages.front()["type"], "hello");
    EXPECT_EQ(For(messages, 1).back()["status"], "ok");
    EXPECT_EQ(For(messages, 2).back()["status"], "ok");
    bool saw_error = false;
    for (const json& m : messages) saw_error |= m["type"] == "error" && m["id"].is_null();
    EXPECT_TRUE(saw_error);
}
