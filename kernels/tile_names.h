// What the tile tables of chapters 5 and 8 (gemm/gemm_tiles.h, tc/tc_tiles.h) name and describe
// alike: a tile's sizes, the start of its name and of its description, and an ablation's row.
// CUDA-free.
#pragma once

#include <initializer_list>
#include <string>

namespace lessons {

// "128x128x32": sizes joined by 'x'.
inline std::string TileDims(std::initializer_list<int> sizes) {
    std::string out;
    for (int size : sizes) {
        if (!out.empty()) out += 'x';
        out += std::to_string(size);
    }
    return out;
}

// A tile's name up to its block tile: "256t-128x128x16".
inline std::string TileNameStart(int threads, int bm, int bn, int bk) {
    return std::to_string(threads) + "t-" + TileDims({bm, bn, bk});
}

// A tile's description up to its block tile (`zh`: in Chinese): "256 threads, block tile
// 128x128x16".
inline std::string TileDescriptionStart(int threads, int bm, int bn, int bk, bool zh) {
    const std::string n = std::to_string(threads), block = TileDims({bm, bn, bk});
    return zh ? n + " 个线程，线程块分块 " + block : n + " threads, block tile " + block;
}

// An ablation (a step's tile with one of its ideas taken out): what the tile's name ends with,
// and what is taken out, in English and in Chinese. A table of them is in its enum's order.
struct AblationRow {
    const char* suffix;
    const char* en;
    const char* zh;
};

// The ablation's clause of a tile's description: "; ablation: " and what it takes out (`zh`: in
// Chinese); nothing for a tile without one (an empty `en`).
inline std::string AblationClause(const AblationRow& row, bool zh) {
    if (!*row.en) return "";
    return zh ? std::string("；消融：") + row.zh : std::string("; ablation: ") + row.en;
}

}  // namespace lessons
