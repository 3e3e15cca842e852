// Every word of the interface that has a Chinese form, in one place: the table words.def (and
// its siblings' tables beside it). A panel draws Tr(ui, kRun); the font atlas takes its Chinese
// glyphs from kAllWords, the list of the table's words.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace lessons {
struct ParamSpec;
struct Message;
}  // namespace lessons

namespace lessons::app {

struct Word {
    const char* en;
    const char* zh;
};

#define LESSONS_WORDS_TABLE "words/words.def"
#define LESSONS_WORDS_LIST kAllWords
#include "words/word_table.h"

// printf into a string: a Word's format (Tr) and its arguments.
template <typename... Args>
std::string Fmt(const char* format, Args... args) {
    const int n = std::snprintf(nullptr, 0, format, args...);
    if (n <= 0) return std::string();
    std::string out(static_cast<size_t>(n), '\0');
    std::snprintf(out.data(), out.size() + 1, format, args...);
    return out;
}

// The word in `language` ("zh": Chinese; anything else: English).
const char* Tr(std::string_view language, const Word& word);

// Text that does not come from a Word (a choice's name, a reason from the engine, a notice of
// the controller) in `language`, looked up by its English: an exact entry of the phrase table
// in words.cpp or of kAllWords, or a message of one of their forms ("exit code %s"). In
// Chinese, English that has no entry is recorded as a miss and shown as it is: tests walk every
// screen in Chinese and fail on any miss (README, "Both languages").
std::string Say(std::string_view language, const std::string& english);
// A message from the engine or a chapter (its id, arguments and English): rendered from its
// form by id, never by matching its English. One without a form (an older worker's, free text,
// or this program's own Message::Plain) is looked up as Say does.
std::string Say(std::string_view language, const Message& message);
// A choice of parameter `spec` by name: as it is when the parameter shows its choices verbatim
// (a tile configuration's shape reads the same in both languages); else the Chinese label its
// chapter declared with it (ParamSpec::choice_labels_zh), else the name as it is.
std::string SayChoice(std::string_view language, const ParamSpec& spec, const std::string& choice);
// The English texts looked up in Chinese without an entry since the last clear.
std::vector<std::string> TranslationMisses();
void ClearTranslationMisses();
// Records a miss found elsewhere (a parameter's label or a title without its Chinese).
void RecordTranslationMiss(const std::string& english);
// The phrase table's Chinese, for the font atlas.
std::vector<std::string_view> PhrasesZh();

}  // namespace lessons::app
