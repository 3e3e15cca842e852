// The glossary (lessons/glossary.en.md, .zh.md, embedded): the terms the pages and the counters
// use, in our own words, in both languages. A page links the first use of each term; hovering
// it shows the definition. Format, per entry:
//   ## key              a lowercase key, the same in both files
//   term: Occupancy     the name shown
//   match: occupancy    comma-separated words that count as a use of the term in a text
//   The definition, one to three sentences.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "text_links.h"

namespace lessons {

struct GlossaryEntry {
    std::string key;
    std::string term;
    std::vector<std::string> match;
    std::string definition;
};

// Parses one glossary file; each malformed entry is named in `problems`.
std::vector<GlossaryEntry> ParseGlossary(std::string_view text, std::vector<std::string>* problems);

// The embedded glossary of a language (empty when there is none).
const std::vector<GlossaryEntry>& Glossary(TextLanguage language);

// Where a term is used in `text`: the first use of each entry, as a byte range, by position.
// A match counts only as a whole word in Latin text (Chinese matches anywhere); uses inside
// `code`, {{references}} or [[links]] do not count.
struct TermUse {
    size_t at = 0, length = 0;
    const GlossaryEntry* entry = nullptr;
};
std::vector<TermUse> FirstUses(std::string_view text, const std::vector<GlossaryEntry>& glossary);

// Problems of the two files: keys that differ, entries without a term, match or definition.
std::vector<std::string> GlossaryProblems();

}  // namespace lessons
