#include "model/progress_book.h"

#include <exception>

#include "files.h"
#include "host.h"
#include "model/export.h"
#include "out_of_memory.h"

namespace lessons::app {

void LoadProgress(ProgressBook* book, std::vector<ProgressNotice>* notices,
                  const std::string& path) {
    book->loaded = true;
    book->path = path;
    book->progress = Progress{};
    if (path.empty()) return;
    std::string problem;
    bool corrupt = false;
    Progress read = ReadProgress(path, &problem, &corrupt);
    if (problem.empty()) {
        book->progress = std::move(read);
        return;
    }
    if (!corrupt) {  // unreadable: left alone, and nothing written over it
        notices->push_back(
            {"Your progress could not be read (" + problem +
                 "): it is left as it is, and this session's progress is not kept.",
             "无法读取你的进度（" + problem + "）：文件保持原样，本次的进度不会保存。"});
        book->path.clear();
        return;
    }
    // Corrupt: set aside now (its readable entries carry over), so nothing of it is lost.
    try {
        std::string notice;
        UpdateProgress(
            path, [](Progress&) {}, &notice);
        book->progress = ReadProgress(path, nullptr);
        notices->push_back({"Your progress file was damaged: " + notice + ".",
                            "你的进度文件已损坏：" + notice + "。"});
    } catch (const std::exception& e) {
        RethrowIfOutOfMemory(e, "load the progress file");
        notices->push_back({std::string("Your progress file is damaged and could not be set "
                                        "aside (") +
                                e.what() + "): this session's progress is not kept.",
                            std::string("你的进度文件已损坏，且无法移到一旁（") + e.what() +
                                "）：本次的进度不会保存。"});
        book->path.clear();
    }
}

void RefreshProgress(ProgressBook* book) {
    if (book->path.empty()) return;
    std::string problem;
    Progress read = ReadProgress(book->path, &problem);
    if (problem.empty()) book->progress = std::move(read);
}

void ChangeProgress(ProgressBook* book, const std::function<void(Progress&)>& change,
                    std::vector<ProgressNotice>* notices) {
    change(book->progress);  // this session's marks, whatever the file does
    if (book->path.empty()) return;
    try {
        std::string notice;
        UpdateProgress(book->path, change, &notice);
        if (!notice.empty())
            notices->push_back({"Your progress file was damaged: " + notice + ".",
                                "你的进度文件已损坏：" + notice + "。"});
        // What every program recorded (a `check` from the CLI too), this change included.
        book->progress = ReadProgress(book->path, nullptr);
    } catch (const std::exception& e) {
        notices->push_back({std::string("Your progress could not be saved: ") + e.what(),
                            std::string("无法保存你的进度：") + e.what()});
    }
}

ProgressNotice ExportProgress(const ProgressBook& book, const Registry& registry,
                              const std::string& dir, std::time_t now) {
    Progress p = book.progress;
    if (!book.path.empty()) {
        std::string problem;
        Progress read = ReadProgress(book.path, &problem);
        if (problem.empty()) p = std::move(read);
    }
    const auto label = [&](const std::string& id) {
        const Lesson* l = registry.FindLesson(id);
        return l ? l->label : std::string();
    };
    std::tm tm{};
    localtime_r(&now, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    const std::string base = dir + "/progress-" + stamp;
    std::string error;
    if (!MakeFolders(dir, &error))
        return {"Could not export the progress to " + dir + ": " + error,
                "无法把进度导出到 " + dir + "：" + error};
    try {
        WriteFileReplacing(base + ".csv", ProgressCsv(p, StudentName(), label));
        WriteFileReplacing(base + ".json", ProgressExport(p, StudentName(), label).dump(2) + "\n");
    } catch (const std::exception& e) {
        return {std::string("Could not export the progress: ") + e.what(),
                std::string("无法导出进度：") + e.what()};
    }
    const std::string n = std::to_string(p.exercises.size()),
                      m = std::to_string(p.predictions.size()),
                      k = std::to_string(p.parsons.size());
    return {"Exported your progress (" + n + " exercises, " + m + " predictions, " + k +
                " Parsons problems) to " + base + ".csv and .json",
            "已把你的进度（" + n + " 个练习，" + m + " 个预测，" + k + " 道 Parsons 题）导出到 " +
                base + ".csv 和 .json"};
}

ProgressMarks MarksOf(const ProgressBook& book, const std::string& lesson_id) {
    ProgressMarks m;
    if (const auto e = book.progress.exercises.find(lesson_id);
        e != book.progress.exercises.end()) {
        m.passed = e->second.correct;
        m.speed_met = e->second.speed_met;
    }
    if (const auto q = book.progress.predictions.find(lesson_id);
        q != book.progress.predictions.end()) {
        m.skipped = q->second.skipped;
        m.predicted = !q->second.skipped;
    }
    if (const auto p = book.progress.parsons.find(lesson_id); p != book.progress.parsons.end())
        m.parsons = p->second.solved;
    return m;
}

}  // namespace lessons::app
