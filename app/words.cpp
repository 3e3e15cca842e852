#include "words.h"

namespace lessons::app {

const char* Tr(std::string_view language, const Word& word) {
    return language == "zh" ? word.zh : word.en;
}

}  // namespace lessons::app
