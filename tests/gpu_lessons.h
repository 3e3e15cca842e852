// The chapters and GPU steps of the runnable catalogue, as the GPU tests of a chapter walk them.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "catalog.h"

// Chapter `id` of the runnable catalogue; std::logic_error when it has none.
inline const lessons::Chapter& RunnableChapter(const std::string& id) {
    const lessons::Chapter* chapter = lessons::RunnableCatalog().FindChapter(id);
    if (!chapter) throw std::logic_error("the catalogue has no " + id + " chapter");
    return *chapter;
}

// The GPU steps of chapter `id`, in the catalogue's order.
inline std::vector<const lessons::Lesson*> GpuLessonsOf(const std::string& id) {
    std::vector<const lessons::Lesson*> out;
    for (const lessons::Lesson* l : lessons::RunnableCatalog().LessonsOf(RunnableChapter(id)))
        if (l->kind == lessons::StepKind::kGpu) out.push_back(l);
    return out;
}
