#include "text_links.h"

#include <algorithm>
#include <utility>

namespace lessons {
namespace {

// What `name` links to from a text of chapter `chapter`: the lesson's label or the chapter's
// number; empty when it names neither.
std::string Resolve(std::string_view name, const std::string& chapter, const Registry& registry) {
    const bool qualified = name.find('/') != std::string_view::npos;
    const std::string id = qualified ? std::string(name) : chapter + "/" + std::string(name);
    for (const Lesson& l : registry.lessons())
        if (l.id == id) return l.label;
    if (!qualified)
        for (const Chapter& c : registry.chapters())
            if (c.id == name) return std::to_string(c.number);
    return {};
}

}  // namespace

RenderedText RenderLessonText(std::string_view text, const Lesson& lesson, TextLanguage language,
                              const Registry& registry) {
    RenderedText out;
    if (text.rfind("# ", 0) == 0) {
        out.text = language == TextLanguage::kEnglish ? "# Lesson " + lesson.label + " — "
                                                      : "# 第 " + lesson.label + " 课 — ";
        text.remove_prefix(2);
    }
    size_t at = 0;
    while (at < text.size()) {
        const size_t open = text.find("[[", at);
        if (open == std::string_view::npos) break;
        out.text.append(text.substr(at, open - at));
        const size_t line_end = std::min(text.find('\n', open), text.size());
        const size_t close = text.find("]]", open + 2);
        if (close == std::string_view::npos || close > line_end) {
            out.broken.emplace_back(text.substr(open, line_end - open));
            out.text.append(text.substr(open, line_end - open));
            at = line_end;
            continue;
        }
        const std::string_view link = text.substr(open, close + 2 - open);
        const std::string number =
            Resolve(link.substr(2, link.size() - 4), lesson.chapter, registry);
        if (number.empty()) {
            out.broken.emplace_back(link);
            out.text.append(link);
        } else {
            out.text.append(number);
        }
        at = close + 2;
    }
    if (at < text.size()) out.text.append(text.substr(at));
    return out;
}

void RenderLessonLinks(Registry& registry) {
    std::vector<std::pair<RenderedText, RenderedText>> rendered;
    for (const Lesson& l : registry.lessons())
        rendered.emplace_back(RenderLessonText(l.text_en, l, TextLanguage::kEnglish, registry),
                              RenderLessonText(l.text_zh, l, TextLanguage::kChinese, registry));
    std::vector<std::string> problems;
    for (size_t i = 0; i < rendered.size(); ++i) {
        Lesson& l = registry.mutable_lessons()[i];
        for (const auto& [language, text] :
             {std::pair("English", &rendered[i].first), std::pair("Chinese", &rendered[i].second)})
            for (const std::string& link : text->broken)
                problems.push_back(l.Name() + ": its " + language + " text links to " + link +
                                   ", which is no lesson or chapter");
        l.text_en = std::move(rendered[i].first.text);
        l.text_zh = std::move(rendered[i].second.text);
    }
    for (std::string& p : problems) registry.AddProblem(std::move(p));
}

}  // namespace lessons
