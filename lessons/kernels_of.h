// What a step kind's implementation asks for its lesson's kernels: the descriptors of type T
// that the lesson's source file registered (LESSONS_KERNELS), or the previous lesson's, for a
// step that launches the kernel of the step before it. A missing kernel is a mistake in the
// declarations: std::logic_error, which the runnable catalogue reports at start.
#pragma once

#include <algorithm>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_family.h"
#include "lesson.h"
#include "step_kinds.h"
#include "toggles.h"

namespace lessons {

// The threads a block of a step with a `block` parameter.
inline int BlockOf(const ParamValues& params) {
    return static_cast<int>(params.Number("block"));
}

enum class KernelsFrom { kOwnSource, kPreviousLesson };

template <class T>
std::vector<const T*> KernelsOf(const StepSite& site, KernelsFrom from = KernelsFrom::kOwnSource) {
    const Lesson* lesson = &site.lesson;
    if (from == KernelsFrom::kPreviousLesson) {
        if (!site.previous)
            throw std::logic_error(
                "its step kind launches the previous lesson's kernel, and it "
                "has no previous lesson");
        lesson = site.previous;
    }
    std::vector<const T*> found = FindKernels<T>(lesson->source_path);
    if (found.empty())
        throw std::logic_error("'" + lesson->source_path +
                               "' registers no kernel of the kind its step launches "
                               "(LESSONS_KERNELS at the end of the file)");
    return found;
}

// Exactly one kernel.
template <class T>
const T& OnlyKernel(const StepSite& site, KernelsFrom from = KernelsFrom::kOwnSource) {
    const std::vector<const T*> found = KernelsOf<T>(site, from);
    if (found.size() != 1)
        throw std::logic_error("its source registers " + std::to_string(found.size()) +
                               " kernels where its step launches one");
    return *found.front();
}

// The kernel of each tile of a tiled row, by the tile's name (`name(tile)`): the kernels K that
// `site`'s source registered, paired with the row's `tiles` by their tile (K::tile: the Tile,
// or a std::optional of it for a family whose untiled kernels have none). A tile without its
// kernel, or a kernel for a tile the row does not declare, is a mistake in the declarations:
// std::logic_error.
template <class K, class Tile, class Name>
std::vector<std::pair<std::string, const K*>> KernelsByTile(std::span<const Tile> tiles,
                                                            const StepSite& site, Name name) {
    const auto tile_of = [](const K* k) -> const Tile* {
        if constexpr (std::is_same_v<std::decay_t<decltype(k->tile)>, Tile>)
            return &k->tile;
        else
            return k->tile ? &*k->tile : nullptr;
    };
    const std::vector<const K*> kernels = KernelsOf<K>(site);
    std::vector<std::pair<std::string, const K*>> out;
    for (const Tile& t : tiles) {
        auto it = std::find_if(kernels.begin(), kernels.end(), [&](const K* k) {
            const Tile* kt = tile_of(k);
            return kt && *kt == t;
        });
        if (it == kernels.end())
            throw std::logic_error("its tile " + name(t) + " has no kernel in '" +
                                   site.lesson.source_path + "'");
        out.push_back({name(t), *it});
    }
    for (const K* k : kernels) {
        const Tile* kt = tile_of(k);
        if (!kt || std::find(tiles.begin(), tiles.end(), *kt) == tiles.end())
            throw std::logic_error(std::string("'") + site.lesson.source_path + "' registers " +
                                   k->name + (kt ? " for tile " + name(*kt) : "") +
                                   ", which is no tile of its row");
    }
    return out;
}

// The kernel a tiled row launches at the parameters' "tile": one of `tiles` (KernelsByTile).
// The parameter refuses any other tile first, so a tile not there is a mistake: std::logic_error.
template <class K>
std::function<const K&(const ParamValues&)> TilePick(
    std::vector<std::pair<std::string, const K*>> tiles) {
    return [tiles = std::move(tiles)](const ParamValues& p) -> const K& {
        const std::string& tile = p.Choice("tile");
        for (const auto& [name, kernel] : tiles)
            if (name == tile) return *kernel;
        throw std::logic_error("no kernel for tile=" + tile);
    };
}

// A step whose source registers a compiled variant per combination of its ablation toggles
// (kernels/toggles.h): each variant carries the values it implements in `toggles`.

// Whether a kernel variant implements the toggle values in `params` (a kernel without toggles
// implements every set).
template <class K>
bool Implements(const K& k, const ParamValues& params) {
    for (const ToggleValue& t : k.toggles)
        if (t.name && params.Choice(t.name) != t.value) return false;
    return true;
}

template <class K>
const K& VariantAt(const std::vector<const K*>& variants, const ParamValues& params) {
    for (const K* k : variants)
        if (Implements(*k, params)) return *k;
    throw std::logic_error("no kernel variant for these toggle values");
}

// `variants`, checked against `lesson`: each combination of the toggles they name (among the
// lesson's choices) is implemented by exactly one of them. Throws std::logic_error.
template <class K>
const std::vector<const K*>& CheckVariants(const Lesson& lesson,
                                           const std::vector<const K*>& variants) {
    std::vector<const ParamSpec*> toggles;
    for (const K* k : variants)
        for (const ToggleValue& t : k->toggles) {
            if (!t.name) continue;
            const ParamSpec* p = lesson.FindParam(t.name);
            if (!p)
                throw std::logic_error(std::string(k->name) + " is a variant by '" + t.name +
                                       "', a parameter the lesson does not declare");
            if (std::find(toggles.begin(), toggles.end(), p) == toggles.end()) toggles.push_back(p);
        }
    size_t combinations = 1;
    for (const ParamSpec* p : toggles) combinations *= p->choices.size();
    for (size_t c = 0; c < combinations; ++c) {
        ParamValues values;
        std::string named;
        size_t rest = c;
        for (const ParamSpec* p : toggles) {
            const std::string& choice = p->choices[rest % p->choices.size()];
            rest /= p->choices.size();
            values.Set(p->name, ParamValue::Choice(choice));
            named += " " + p->name + "=" + choice;
        }
        const auto count = std::count_if(variants.begin(), variants.end(),
                                         [&](const K* k) { return Implements(*k, values); });
        if (count != 1)
            throw std::logic_error(std::to_string(count) + " kernel variants implement" + named);
    }
    if (variants.size() != combinations)
        throw std::logic_error("its source registers " + std::to_string(variants.size()) +
                               " kernel variants for " + std::to_string(combinations) +
                               " combinations of its toggles' choices");
    return variants;
}

// The kernel variants the lesson's source registers, checked at start (CheckVariants).
template <class K>
std::vector<const K*> Variants(const StepSite& site) {
    const std::vector<const K*> variants = KernelsOf<K>(site);
    CheckVariants(site.lesson, variants);
    return variants;
}

}  // namespace lessons
