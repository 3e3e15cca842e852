// The catalogue: every chapter and lesson, in one registry. Catalog() holds the declarations
// (titles, texts, sources, parameters) and the CPU steps; RunnableCatalog() is the same with
// the GPU steps' runners attached, where the GPU library is linked (the CLI and worker). The
// GUI links only the first: it leaves all running to its worker.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "chapters.h"
#include "kernel_family.h"
#include "registry.h"

namespace lessons {

// Built on first use. Call CatalogProblems() at start to see whether it is sound.
const Registry& Catalog();
// What Registry::Validate() found wrong with the catalogue (empty when sound).
const std::vector<std::string>& CatalogProblems();

// Each chapter adds itself (lessons/NN_slug/lessons.cpp), in the order of lessons/chapters.h.
#define LESSONS_DECLARE_CHAPTER(Name) void Register##Name##Chapter(Registry& registry);
LESSONS_CHAPTERS(LESSONS_DECLARE_CHAPTER)
#undef LESSONS_DECLARE_CHAPTER

// --- lessons_runners: the catalogue with the GPU library (or, without CUDA, without it) ---
// The catalogue with each GPU lesson's runner attached: its step kind's implementation (each
// chapter's *_harness.cu registers its kinds) over the kernels its source file registered.
const Registry& RunnableCatalog();
// Attaches each GPU lesson of `registry` its runner (its step kind's implementation, over the
// kernels its source registered) and returns what is wrong: a kind without an implementation, a
// lesson whose kernels are missing, a family in `families` that no lesson's source names.
std::vector<std::string> AttachGpuRunners(Registry& registry,
                                          const std::vector<KernelFamily>& families);
// The problems of the runnable catalogue: Validate(), plus (with CUDA) a GPU lesson whose step
// kind has no implementation or whose kernels are missing, and a kernel file no lesson names.
const std::vector<std::string>& RunnableCatalogProblems();

}  // namespace lessons
