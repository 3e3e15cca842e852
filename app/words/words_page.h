// The words of the page model's frame: the result row, the folded sections, the footer and the
// chapter at a glance. One block of their own beside words.h, listed in kPageWords for the font
// atlas and the words tests. (Section headings come with the page: lessons/page.h.)
#pragma once

#include "words/words.h"

namespace lessons::app {

#define LESSONS_WORDS_TABLE "words/words_page.def"
#define LESSONS_WORDS_LIST kPageWords
#include "words/word_table.h"

}  // namespace lessons::app
