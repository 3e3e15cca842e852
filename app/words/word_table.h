// Declares the words of one table and lists them: included by words.h and its siblings with
// LESSONS_WORDS_TABLE (the table, a .def file of LESSONS_WORD(name, English, Chinese) rows) and
// LESSONS_WORDS_LIST (the name of the list of them all) defined. Each row becomes
// `inline constexpr Word name{English, Chinese};` and an entry of the list, which the font atlas
// (its Chinese glyphs) and the words tests walk: a word is typed once, in its table.
// Included once per table: no include guard.

#define LESSONS_WORD(name, en, zh) inline constexpr Word name{en, zh};
#include LESSONS_WORDS_TABLE
#undef LESSONS_WORD

inline constexpr const Word* LESSONS_WORDS_LIST[] = {
#define LESSONS_WORD(name, en, zh) &name,
#include LESSONS_WORDS_TABLE
#undef LESSONS_WORD
};

#undef LESSONS_WORDS_TABLE
#undef LESSONS_WORDS_LIST
