// The words of the exercises: the Exercise tab of the code pane (the task, hints, the editor,
// the compiler's answer, the student's kernel beside the step) and the controller's words for
// a student's kernel. One block of their own beside words.h, listed in kExerciseWords for the
// font atlas and the words tests.
#pragma once

#include "words/words.h"

namespace lessons::app {

#define LESSONS_WORDS_TABLE "words/words_exercise.def"
#define LESSONS_WORDS_LIST kExerciseWords
#include "words/word_table.h"

}  // namespace lessons::app
