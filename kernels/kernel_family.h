// A kernel file's descriptors, registered under the file itself. A kernel file ends with
//   LESSONS_KERNELS(kDescriptors);
// (an array, or one descriptor) and the step whose row names this file as its source finds them
// with FindKernels<Descriptor>(source path). No list of kernels is kept by hand anywhere: the
// row's source path is the join, and the runnable catalogue reports a file whose kernels no row
// uses and a row whose file registered none. CUDA-free: the descriptor type is the kernel
// folder's own.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <typeindex>
#include <typeinfo>
#include <vector>

namespace lessons {

struct KernelFamily {
    std::string file;  // __FILE__ of the registering file, as its compiler was given it
    std::type_index type;
    const void* items;
    size_t count;
};

inline std::vector<KernelFamily>& KernelFamilies() {
    static std::vector<KernelFamily> families;
    return families;
}

// Whether `file` (as the compiler named it: absolute, or relative to the build) is the
// repository-relative `source`, e.g. "kernels/gemm/2d-register-blocking.cu".
inline bool SameSourceFile(std::string_view file, std::string_view source) {
    if (source.empty() || file.size() < source.size()) return false;
    if (file.substr(file.size() - source.size()) != source) return false;
    return file.size() == source.size() || file[file.size() - source.size() - 1] == '/';
}

// The descriptors `source` registered, of type T; empty when it registered none of that type.
template <class T>
std::vector<const T*> FindKernels(std::string_view source) {
    std::vector<const T*> out;
    for (const KernelFamily& f : KernelFamilies())
        if (f.type == std::type_index(typeid(T)) && SameSourceFile(f.file, source))
            for (size_t i = 0; i < f.count; ++i) out.push_back(static_cast<const T*>(f.items) + i);
    return out;
}

struct KernelRegistration {
    template <class T, size_t N>
    KernelRegistration(const char* file, const T (&items)[N]) {
        KernelFamilies().push_back({file, std::type_index(typeid(T)), items, N});
    }
    template <class T>
    KernelRegistration(const char* file, const T& item) {
        KernelFamilies().push_back({file, std::type_index(typeid(T)), &item, 1});
    }
};

#define LESSONS_KERNELS_CAT2(a, b) a##b
#define LESSONS_KERNELS_CAT(a, b) LESSONS_KERNELS_CAT2(a, b)
#define LESSONS_KERNELS(descriptors)                                                             \
    static const ::lessons::KernelRegistration LESSONS_KERNELS_CAT(lessons_kernels_, __LINE__) { \
        __FILE__, descriptors                                                                    \
    }

}  // namespace lessons
