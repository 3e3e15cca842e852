// The words of the machine-code tabs, the ncu line and the roofline (page and insets): one
// block of their own beside words.h, listed in kMachineWords for the font atlas.
#pragma once

#include "words/words.h"

namespace lessons::app {

#define LESSONS_WORDS_TABLE "words/words_machine.def"
#define LESSONS_WORDS_LIST kMachineWords
#include "words/word_table.h"

}  // namespace lessons::app
