#include "catalog.h"

#include "resources.h"
#include "text_links.h"

namespace lessons {

std::string_view EmbeddedFile(std::string_view path) {
    const auto& files = EmbeddedFiles();
    auto it = files.find(std::string(path));
    return it == files.end() ? std::string_view() : it->second;
}

const Registry& Catalog() {
    static const Registry registry = [] {
        Registry r;
#define LESSONS_ADD_CHAPTER(Name) Register##Name##Chapter(r);
        LESSONS_CHAPTERS(LESSONS_ADD_CHAPTER)
#undef LESSONS_ADD_CHAPTER
        RenderLessonLinks(r);  // the texts' [[links]], now that every lesson has its number
        return r;
    }();
    return registry;
}

const std::vector<std::string>& CatalogProblems() {
    static const std::vector<std::string> problems = Catalog().Validate();
    return problems;
}

}  // namespace lessons
