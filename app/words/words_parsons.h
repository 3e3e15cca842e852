// The words of the Parsons problems (lessons/parsons.h): their part of the Exercise tab
// (parsons_pane.cpp) and their mark in the lesson list. Listed in kParsonsWords for the font
// atlas and the words tests.
#pragma once

#include "words/words.h"

namespace lessons::app {

#define LESSONS_WORDS_TABLE "words/words_parsons.def"
#define LESSONS_WORDS_LIST kParsonsWords
#include "words/word_table.h"

}  // namespace lessons::app
