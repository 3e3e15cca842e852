// A kernel file's descriptors made from its tile table: one per tile, in the table's order, each
// the descriptor of the kernel template's instance for that tile, registered under the file as
// LESSONS_KERNELS registers an array (kernel_family.h). A kernel file ends with
//   LESSONS_KERNEL_TABLE(kDescriptors, kTiles,
//                        [name = "<kernel>"]<Tile T>() { return <T's descriptor>; });
// so that the file says only how a tile picks its instance. (The kernel's name is captured, not
// typed in the body: nvcc refuses a captureless lambda whose template parameter is not one of
// its parameters' types, for the function pointer such a lambda converts to.)
#pragma once

#include <array>
#include <cstddef>
#include <iterator>
#include <typeindex>
#include <typeinfo>
#include <utility>

#include "kernel_family.h"

namespace lessons {

// make.template operator()<kTiles[i]>() for every tile, in order.
template <const auto& kTiles, class Make>
auto KernelTable(Make make) {
    return [&]<size_t... I>(std::index_sequence<I...>) {
        return std::array{make.template operator()<kTiles[I]>()...};
    }
    (std::make_index_sequence<std::size(kTiles)>());
}

struct KernelTableRegistration {
    template <class T, size_t N>
    KernelTableRegistration(const char* file, const std::array<T, N>& items) {
        KernelFamilies().push_back({file, std::type_index(typeid(T)), items.data(), N});
    }
};

}  // namespace lessons

#define LESSONS_KERNEL_TABLE(descriptors, tiles, ...)                                     \
    const auto descriptors = ::lessons::KernelTable<tiles>(__VA_ARGS__);                  \
    static const ::lessons::KernelTableRegistration LESSONS_KERNELS_CAT(lessons_kernels_, \
                                                                        __LINE__) {       \
        __FILE__, descriptors                                                             \
    }
