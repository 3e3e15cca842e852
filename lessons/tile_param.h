// A tiled step's `tile` parameter (chapters 5, 8 and 10): one choice per compiled configuration,
// the first the default, shown verbatim in both languages (a tile's name reads the same) with a
// note on each, and a launch shape (a sweep over it compares kernels, not sizes).
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "params.h"

namespace lessons {

// The parameter over the configurations `names`, described by `notes` (and `notes_zh`); `why`
// says what makes each its own kernel.
inline ParamSpec TileParam(std::vector<std::string> names, std::vector<std::string> notes,
                           std::vector<std::string> notes_zh, std::string why) {
    ParamSpec p = ChoiceParam("tile", "Tile configuration", "分块配置", std::move(names),
                              std::move(notes), std::move(notes_zh));
    p.launch_shape = true;
    p.verbatim_choices = true;
    p.why = std::move(why);
    return p;
}

// The same over a table of tiles: each named by `name(tile)`, described by `describe(tile, zh)`.
template <class Tile, class Name, class Describe>
ParamSpec TileParam(std::span<const Tile> tiles, Name name, Describe describe, std::string why) {
    std::vector<std::string> names, notes, notes_zh;
    for (const Tile& t : tiles) {
        names.push_back(name(t));
        notes.push_back(describe(t, false));
        notes_zh.push_back(describe(t, true));
    }
    return TileParam(std::move(names), std::move(notes), std::move(notes_zh), std::move(why));
}

}  // namespace lessons
