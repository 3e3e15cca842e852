#include "panels/page_view.h"

#include <algorithm>
#include <map>

#include "glossary.h"
#include "machine_code.h"
#include "model/page_params.h"
#include "probe.h"
#include "recordings.h"
#include "report.h"
#include "words/words_page.h"
#include "words/words_student.h"

namespace lessons::app {
namespace {

TextLanguage LanguageOf(const UiState& ui) {
    return ui.settings.language == "zh" ? TextLanguage::kChinese : TextLanguage::kEnglish;
}

const std::string& TextOf(const UiState& ui, const Lesson& lesson) {
    return ui.settings.language == "zh" ? lesson.text_zh : lesson.text_en;
}

// One section's blocks, each paragraph with the glossary terms it links (their entries in the
// language's Glossary, which lives as long as the program).
struct LinkedSection {
    std::vector<TextBlock> blocks;
    std::vector<std::vector<TermUse>> uses;  // per block
    std::vector<std::string> linked_after;   // the page's linked terms after this section
};

// The section's blocks and the terms they link, given the terms linked before it on the page:
// parsed and searched once, then kept (the page draws every section in every frame).
const LinkedSection& LinkSection(std::string_view markdown, const std::vector<std::string>& linked,
                                 TextLanguage language) {
    static std::map<std::string, LinkedSection> kept;
    std::string key = language == TextLanguage::kChinese ? "zh" : "en";
    for (const std::string& k : linked) key += "\x1f" + k;
    key += '\x1e';
    key += markdown;
    const auto found = kept.find(key);
    if (found != kept.end()) return found->second;
    if (kept.size() >= 256) kept.clear();  // a bound, not a policy: pages are few
    const std::vector<GlossaryEntry>& glossary = Glossary(language);
    LinkedSection section;
    section.linked_after = linked;
    section.blocks = ParseLessonText(markdown);
    for (const TextBlock& block : section.blocks) {
        std::vector<TermUse> uses;
        if (block.kind == TextBlock::Kind::kParagraph) {  // DrawMarkupBlock draws the others
            // The terms of this paragraph not linked before on the page.
            std::vector<GlossaryEntry> fresh;
            std::vector<const GlossaryEntry*> origin;
            for (const GlossaryEntry& e : glossary)
                if (std::find(section.linked_after.begin(), section.linked_after.end(), e.key) ==
                    section.linked_after.end()) {
                    fresh.push_back(e);
                    origin.push_back(&e);
                }
            uses = FirstUses(block.text, fresh);
            for (TermUse& u : uses) {
                u.entry = origin[size_t(u.entry - fresh.data())];
                section.linked_after.push_back(u.entry->key);
            }
        }
        section.uses.push_back(std::move(uses));
    }
    return kept.emplace(std::move(key), std::move(section)).first->second;
}

// Draws one resolved section's Markdown, linking the first use on the page of each glossary
// term: underlined, its definition on hover.
void DrawLinked(UiState& ui, std::string_view markdown, std::vector<std::string>* linked) {
    LessonTextOptions options;
    options.hide_answers = ui.settings.hide_answers;
    options.show_answer = Tr(ui, kShowAnswer);
    options.code_font = ui.fonts.mono;
    options.answer_button = [&ui] { Remember(ui, "show_answer"); };
    const LinkedSection& section = LinkSection(markdown, *linked, LanguageOf(ui));
    for (size_t i = 0; i < section.blocks.size(); ++i) {
        const TextBlock& block = section.blocks[i];
        const std::vector<TermUse>& uses = section.uses[i];
        CodeDrawn answer;
        if (DrawMarkupBlock(block, options, &answer)) {
            NoteInlineCode(ui, answer);
            continue;
        }
        const float size = ImGui::GetFontSize();
        const std::string_view text = block.text;
        // Its inline code in the monospace font, each term linked underlined.
        CodeDrawn drawn;
        DrawTextWithCode(
            text, block.code, ui.fonts.mono, nullptr,
            [&](std::string_view line, ImVec2 origin, const MeasureText& measure) {
                const size_t line_at = size_t(line.data() - text.data());
                for (const TermUse& u : uses) {
                    const size_t a = std::max(u.at, line_at);
                    const size_t b = std::min(u.at + u.length, line_at + line.size());
                    if (a >= b) continue;
                    const float x0 = origin.x + measure(line.substr(0, a - line_at));
                    const float x1 = origin.x + measure(line.substr(0, b - line_at));
                    const float y = origin.y + size;
                    ImGui::GetWindowDrawList()->AddLine(ImVec2(x0, y), ImVec2(x1, y),
                                                        IM_COL32(120, 170, 255, 200), 1.0f);
                    if (ImGui::IsMouseHoveringRect(ImVec2(x0, origin.y), ImVec2(x1, y + 1)) &&
                        ImGui::IsWindowHovered())
                        Tooltip(u.entry->term + "\n" + u.entry->definition);
                }
            },
            &drawn);
        NoteInlineCode(ui, drawn);
        ImGui::Spacing();
    }
    *linked = section.linked_after;
}

}  // namespace

bool InPageModel(const UiState& ui, const Lesson& lesson) {
    return ParsePage(TextOf(ui, lesson)).in_model;
}

PageData PageDataOf(const UiState& ui, const Controller& c, const Lesson& lesson) {
    PageData data;
    data.registry = &c.registry();
    data.gpu = c.ReferenceGpu();
    // CPU steps run live in the app; a page reads the host's recording beside the GPU's.
    for (const RunResult& r : RecordedCpuResults()) data.recorded.push_back(&r);
    for (const StoredResult& s : c.results()) {
        if (s.origin == Origin::kRecorded)
            data.recorded.push_back(&s.result);
        else if (!s.result.yours)
            data.live.push_back(&s.result);
    }
    data.settings = ResolveParams(lesson.params, ui.run);
    return data;
}

ResolvedPage ResolvedPageOf(UiState& ui, const Controller& c, const Lesson& lesson) {
    const PageData data = PageDataOf(ui, c, lesson);
    const std::string key = lesson.id + "|" + ui.settings.language + "|" + data.gpu + "|" +
                            std::to_string(c.results().size()) + "|" +
                            ToJson(data.settings).dump() + "|" +
                            (MeasuredHidden(ui, c, lesson) ? "h" : "s");
    if (key == ui.page_key) return ui.page_resolved;
    ResolvedPage page = ResolvePage(TextOf(ui, lesson), lesson, data, LanguageOf(ui));
    for (PageSection& s : page.sections) {
        if (s.part != PagePart::kPrediction) continue;
        const std::string row = MeasuredHidden(ui, c, lesson)
                                    ? Tr(ui, kResultHidden)
                                    : ResultRow(lesson, data, LanguageOf(ui));
        if (!row.empty()) s.text += std::string("\n\n**") + Tr(ui, kResultRow) + "** " + row + "\n";
    }
    ui.page_key = key;
    ui.page_resolved = page;
    return page;
}

void DrawModelPage(UiState& ui, const Controller& c, const Lesson& lesson) {
    const ResolvedPage page = ResolvedPageOf(ui, c, lesson);
    const TextLanguage language = LanguageOf(ui);
    std::vector<std::string> linked;
    const ImVec4 heading(0.55f, 0.75f, 1.0f, 1);
    for (const PageSection& s : page.sections) {
        if (!IsFolded(s.part)) {
            if (s.part != PagePart::kIntro) {
                ImGui::Spacing();
                DrawWrappedText(PartHeading(s.part, language), &heading);
            }
            DrawLinked(ui, s.text, &linked);
            continue;
        }
        const std::string id = lesson.id + "#" + PartKeyword(s.part);
        const bool open_before = ui.settings.unfolded.count(id) > 0;
        ImGui::SetNextItemOpen(open_before, ImGuiCond_Always);
        const std::string label = std::string(PartHeading(s.part, language)) + "##" + id;
        const bool open = ImGui::CollapsingHeader(label.c_str());
        Remember(ui, (std::string("fold_") + PartKeyword(s.part)).c_str());
        if (open != open_before) {
            if (open)
                ui.settings.unfolded.insert(id);
            else
                ui.settings.unfolded.erase(id);
        }
        if (open && ui.probe) ui.probe->page_open.push_back(PartKeyword(s.part));
        if (open) {
            ImGui::Indent();
            // "Hide answers" before the lesson's run: the evidence is what was measured.
            if (s.part == PagePart::kEvidence && MeasuredHidden(ui, c, lesson))
                DrawWrappedText(Tr(ui, kMeasuredHiddenNote));
            else
                DrawLinked(ui, s.text, &linked);
            ImGui::Unindent();
        }
    }
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::TextDisabled("%s", page.footer.c_str());
    Remember(ui, "page_footer");
    if (ImGui::IsItemHovered()) {
        std::string tip = Tr(ui, kFooterFiles);
        for (const std::string& f : page.files) tip += "\n" + f;
        for (const std::string& s : page.sources) tip += "\n" + s;
        Tooltip(tip);
    }
    for (const std::string& u : page.unresolved) {
        char buf[512];
        std::snprintf(buf, sizeof buf, Tr(ui, kUnresolved), c.ReferenceGpu().c_str(), u.c_str());
        DrawWrappedText(buf, &kAmber);
    }
    if (ui.probe) {
        ui.probe->page_in_model = true;
        ui.probe->page_unresolved = int(page.unresolved.size());
        ui.probe->page_unresolved_sass =
            int(std::count_if(page.unresolved.begin(), page.unresolved.end(),
                              [](const std::string& u) { return u.rfind("{{sass ", 0) == 0; }));
        ui.probe->build_has_sass = *MachineCodeFiles().sass_arch != '\0';
        ui.probe->page_footer = page.footer;
    }
}

std::vector<std::string> PresenterScreens(UiState& ui, const Controller& c, const Lesson& lesson) {
    const ResolvedPage page = ResolvedPageOf(ui, c, lesson);
    const TextLanguage language = LanguageOf(ui);
    // Four screens: the idea and the change; the prediction alone (the class predicts); the
    // result row with the reason; what to try and the questions.
    std::vector<std::string> screens(4);
    const std::string result_marker = std::string("\n\n**") + Tr(ui, kResultRow) + "**";
    for (const PageSection& page_section : page.sections) {
        if (IsFolded(page_section.part)) continue;
        PageSection s = page_section;
        if (s.part == PagePart::kPrediction)
            if (const size_t at = s.text.find(result_marker); at != std::string::npos) {
                screens[2] = s.text.substr(at + 2) + "\n\n" + screens[2];
                s.text.resize(at);
            }
        size_t screen = 0;
        switch (s.part) {
            case PagePart::kIntro:
            case PagePart::kChange:
                screen = 0;
                break;
            case PagePart::kPrediction:
                screen = 1;
                break;
            case PagePart::kWhy:
                screen = 2;
                break;
            default:
                screen = 3;
        }
        if (s.part != PagePart::kIntro)
            screens[screen] += std::string("**") + PartHeading(s.part, language) + "**\n\n";
        screens[screen] += s.text + "\n\n";
    }
    screens.erase(std::remove(screens.begin(), screens.end(), std::string()), screens.end());
    return screens;
}

void DrawChapterGlance(UiState& ui, const Controller& c, const Lesson& lesson) {
    const Registry& reg = c.registry();
    const Chapter& chapter = reg.ChapterOf(lesson);
    const std::string id = "glance#" + chapter.id;
    const std::vector<const Lesson*> lessons = reg.LessonsOf(chapter);
    const bool first = !lessons.empty() && lessons.front() == &lesson;
    const bool open_before = ui.settings.unfolded.count(id) > 0 ||
                             (first && !ui.settings.unfolded.count(id + "#closed"));
    char title[160];
    std::snprintf(title, sizeof title, Tr(ui, kGlance), std::to_string(chapter.number).c_str());
    ImGui::SetNextItemOpen(open_before, ImGuiCond_Always);
    const bool open = ImGui::CollapsingHeader((std::string(title) + "##" + id).c_str());
    Remember(ui, "glance_header");
    if (open != open_before) {
        if (open) {
            ui.settings.unfolded.insert(id);
            ui.settings.unfolded.erase(id + "#closed");
        } else {
            ui.settings.unfolded.erase(id);
            if (first) ui.settings.unfolded.insert(id + "#closed");
        }
    }
    if (!open) return;
    const TextLanguage language = LanguageOf(ui);
    // Worked out again only when what it reads changes (a result, the settings, the language).
    const PageData data = PageDataOf(ui, c, lesson);
    const std::string key = chapter.id + "|" + ui.settings.language + "|" + data.gpu + "|" +
                            std::to_string(c.results().size()) + "|" + ToJson(data.settings).dump();
    if (key != ui.glance_key) {
        ui.glance_rows = ChapterAtAGlance(chapter, data, language);
        ui.glance_key = key;
    }
    const std::vector<GlanceRow>& rows = ui.glance_rows;
    if (ImGui::BeginTable(
            "glance", 6,
            ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        for (const Word* w : {&kGlanceLesson, &kGlanceIdea, &kGlanceTime, &kGlancePrevious,
                              &kGlanceBound, &kGlanceLibrary})
            ImGui::TableSetupColumn(Tr(ui, *w), w == &kGlanceIdea
                                                    ? ImGuiTableColumnFlags_WidthStretch
                                                    : ImGuiTableColumnFlags_None);
        ImGui::TableHeadersRow();
        for (const GlanceRow& r : rows) {
            ImGui::TableNextRow();
            for (const std::string* cell :
                 {&r.label, &r.title, &r.time, &r.speedup, &r.pct, &r.vs_library}) {
                ImGui::TableNextColumn();
                if (cell == &r.title)
                    ImGui::TextWrapped("%s", cell->c_str());
                else
                    ImGui::TextUnformatted(cell->c_str());
            }
        }
        ImGui::EndTable();
    }
    if (ImGui::SmallButton(Tr(ui, kGlanceCopy))) {
        ImGui::SetClipboardText(GlanceMarkdown(chapter, rows, language).c_str());
        ui.messages.push_back({kGlanceCopied.en, kGlanceCopied.zh});
    }
    Remember(ui, "glance_copy");
    if (ui.probe) ui.probe->glance_rows = int(rows.size());
}

}  // namespace lessons::app
