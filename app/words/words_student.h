// The words of the student's path: the first-run page, the lesson list's filter and progress
// marks, and why a control cannot act here. One block of their own beside words.h, listed in
// kStudentWords for the font atlas and the words tests.
#pragma once

#include "words/words.h"

namespace lessons::app {

#define LESSONS_WORDS_TABLE "words/words_student.def"
#define LESSONS_WORDS_LIST kStudentWords
#include "words/word_table.h"

}  // namespace lessons::app
