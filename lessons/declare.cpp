#include "declare.h"

#include <algorithm>
#include <map>
#include <string>

#include "checked.h"
#include "machine_code.h"
#include "page.h"
#include "sampled_check.h"
#include "units.h"

namespace lessons {

namespace {

// A chapter's title, Chinese title and work rule from its texts (NewChapter): the headings of
// "<folder>/chapter.en.md" and ".zh.md", and the English text's body, its lines joined by spaces.
void ReadHeading(Registry& registry, Chapter& chapter, const std::string& folder) {
    const std::string en_path = folder + "/chapter.en.md";
    const std::string_view en = EmbeddedFile(en_path);
    chapter.title = HeadingTitle(en);
    chapter.title_zh = HeadingTitle(EmbeddedFile(folder + "/chapter.zh.md"));
    const size_t body = en.find('\n');
    std::string rule;
    for (size_t at = body; at < en.size();) {
        const size_t end = std::min(en.find('\n', at + 1), en.size());
        std::string_view line = en.substr(at + 1, end - at - 1);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
        if (!line.empty()) rule += (rule.empty() ? "" : " ") + std::string(line);
        at = end;
    }
    chapter.work_rule = rule;
    if (chapter.title.empty() || chapter.title_zh.empty() || chapter.work_rule.empty())
        registry.AddProblem("chapter " + chapter.id + ": " + en_path + " and chapter.zh.md " +
                            "give no heading (\"# title\", and the work rule after the English " +
                            "one)");
}

}  // namespace

void AddChapter(Registry& registry, Chapter chapter, const std::string& folder,
                const std::vector<LessonRow>& rows) {
    AddChapter(registry, std::move(chapter), folder, RowDefaults{}, rows);
}

void AddChapter(Registry& registry, Chapter chapter, const std::string& folder,
                const RowDefaults& defaults, const std::vector<LessonRow>& rows) {
    if (chapter.title.empty()) ReadHeading(registry, chapter, folder);
    if (chapter.number == 0) {
        for (const Chapter& c : registry.chapters())
            chapter.number = std::max(chapter.number, c.number);
        ++chapter.number;
    }
    const std::string id = chapter.id;
    const int chapter_number = chapter.number;
    registry.AddChapter(std::move(chapter));
    int ordinal = 0;
    for (const Lesson& l : registry.lessons()) ordinal = std::max(ordinal, l.number);
    std::map<std::string, int> by_slug;  // the rows added so far
    for (size_t i = 0; i < rows.size(); ++i) {
        const LessonRow& row = rows[i];
        Lesson l;
        l.number = ++ordinal;
        l.label = std::to_string(chapter_number) + "." + std::to_string(i + 1);
        l.was = row.was;
        l.id = id + "/" + row.slug;
        l.chapter = id;
        l.title = row.title;
        l.kind = row.step.empty() ? StepKind::kCpu : StepKind::kGpu;
        l.library = row.step.library();
        if (!row.previous) {
            l.previous = i > 0 ? l.number - 1 : 0;
        } else if (*row.previous) {
            auto it = by_slug.find(row.previous);
            if (it != by_slug.end())
                l.previous = it->second;
            else
                registry.AddProblem(l.Name() + ": previous lesson '" + row.previous +
                                    "' is no earlier row of its chapter");
        }
        const std::string source =
            *row.source || defaults.kernels.empty()
                ? row.source
                : defaults.kernels + "/" + row.slug + (row.step.empty() ? ".cpp" : ".cu");
        l.source_path = source;
        l.source = EmbeddedFile(source);
        if (const auto file = MachineCodeFiles().files.find(source);
            file != MachineCodeFiles().files.end() && file->second.source_key)
            l.source_key = file->second.source_key;
        l.text_en = EmbeddedFile(folder + "/" + row.slug + ".en.md");
        l.text_zh = EmbeddedFile(folder + "/" + row.slug + ".zh.md");
        l.title_zh = HeadingTitle(l.text_zh);
        // A page in the page model is titled by its idea (its heading), in both languages.
        if (ParsePage(l.text_en).in_model && !HeadingTitle(l.text_en).empty())
            l.title = HeadingTitle(l.text_en);
        l.folder = folder;
        l.exercise = row.exercise;
        l.params = row.params;
        for (const ParamSpec& p : row.step.params()) l.params.push_back(p);
        l.needs = row.needs ? row.needs : defaults.needs;
        l.step = row.step;
        l.runner.make = row.cpu;
        l.work = row.work ? row.work : row.step.work();
        l.in_flight = row.in_flight;
        l.seed = row.seed;
        l.focus = row.focus;
        by_slug[row.slug] = l.number;
        registry.AddLesson(std::move(l));
    }
}

std::string FloatsOfSize(const ParamValues& p, const std::string& then) {
    return std::to_string(p.Number("size") / sizeof(float)) + " floats (" +
           FormatSize(p.Number("size")) + then + ")";
}

std::string MatrixSizeText(uint64_t m, uint64_t n, uint64_t element_bytes) {
    const uint64_t bytes = SaturatingMul(SaturatingMul(m, n), element_bytes);
    return bytes == kSaturated ? std::string("too large to count") : FormatSize(bytes);
}

std::string ProductDescription(const ParamValues& p, const std::string& element) {
    return "m = " + std::to_string(p.Number("m")) + ", n = " + std::to_string(p.Number("n")) +
           ", k = " + std::to_string(p.Number("k")) + " (" + p.Choice("data") + element + ")";
}

ParamSpec DataParam(const std::vector<DataChoice>& choices) {
    static const std::map<std::string, std::string> kLabelsZh = {{"random", "随机"},
                                                                 {"ones", "全 1"},
                                                                 {"large", "大数值"},
                                                                 {"dense", "密集"},
                                                                 {"none", "无换行"}};
    std::vector<std::string> names, notes, notes_zh, labels_zh;
    for (const DataChoice& c : choices) {
        names.push_back(c.name);
        notes.push_back(c.note);
        notes_zh.push_back(c.note_zh);
        const auto label = kLabelsZh.find(c.name);
        labels_zh.push_back(label == kLabelsZh.end() ? std::string() : label->second);
    }
    return ChoiceParam("data", "Data", "数据", std::move(names), std::move(notes),
                       std::move(notes_zh), std::move(labels_zh));
}

Chapter ProductChapter(std::string id, uint64_t max, const std::string& how, ParamSpec data,
                       const std::string& element,
                       uint64_t (*host_bytes)(uint64_t m, uint64_t n, uint64_t k)) {
    Chapter chapter = NewChapter(std::move(id));
    chapter.params = MatrixDimensions(
        MatrixShape::kProduct, 4096, max,
        "the kernels and cuBLAS index with int; any value from 1 works: " + how, {std::move(data)});
    chapter.messages = ProductMessages();
    chapter.workload_host_bytes = [host_bytes](const ParamValues& p) {
        return host_bytes(p.Number("m"), p.Number("n"), p.Number("k"));
    };
    chapter.describe = [element](const ParamValues& p) { return ProductDescription(p, element); };
    return chapter;
}

std::vector<ParamSpec> MatrixDimensions(MatrixShape shape, uint64_t default_value, uint64_t max,
                                        const std::string& why, std::vector<ParamSpec> then) {
    struct Named {
        const char* name;
        const char* label_en;
        const char* label_zh;
    };
    static constexpr Named kRowsColumns[] = {{"m", "Rows", "行数"}, {"n", "Columns", "列数"}};
    static constexpr Named kProduct[] = {
        {"m", "Rows of A and C (m)", "A 和 C 的行数 (m)"},
        {"n", "Columns of B and C (n)", "B 和 C 的列数 (n)"},
        {"k", "Columns of A, rows of B (k)", "A 的列数、B 的行数 (k)"}};
    std::vector<ParamSpec> out;
    const auto add = [&](const auto& names) {
        for (const Named& d : names)
            out.push_back(MatrixDimension(d.name, d.label_en, d.label_zh, default_value, max, why));
    };
    if (shape == MatrixShape::kProduct)
        add(kProduct);
    else
        add(kRowsColumns);
    for (ParamSpec& p : then) out.push_back(std::move(p));
    return out;
}

}  // namespace lessons
