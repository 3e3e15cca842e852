// The catalogue: every chapter and lesson this build knows, in one registry.
#pragma once

#include <string>
#include <vector>

#include "registry.h"

namespace lessons {

// Built on first use. Call CatalogProblems() at start to see whether it is sound.
const Registry& Catalog();
// What Registry::Validate() found wrong with the catalogue (empty when sound).
const std::vector<std::string>& CatalogProblems();

// Each chapter adds itself here (lessons/NN_slug/lessons.cpp).
void RegisterSplitChapter(Registry& registry);
void RegisterReduceChapter(Registry& registry);

}  // namespace lessons
