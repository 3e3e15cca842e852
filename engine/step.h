// How a step runs, declared once, with its row in the chapter's table. A step kind is a plain
// struct of its chapter (gemm::Tiled{tiles}, split::Kernel{...}): data only, so the catalogue
// holds it without CUDA. Where the GPU library is linked, each kind has one implementation
// (registered with LESSONS_STEP_KIND in the chapter's harness) that makes the step's runner from
// the kind's data and the lesson (its source file, whose kernels registered themselves).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

#include "params.h"
#include "work.h"

namespace lessons {

// What a step kind may declare besides its data (each optional, found by name):
//   std::vector<ParamSpec> Params() const;   the parameters the kind adds (block, tile, ...)
//   WorkFn Work() const;                      its own work rule (null: the chapter's)
//   static constexpr bool kLibrary = true;    a library call (CUB, Thrust, cuBLAS)
class StepDecl {
public:
    StepDecl() = default;
    template <class Kind>
    StepDecl(Kind kind)  // NOLINT(google-explicit-constructor): rows read `.step = Kind{...}`
        : m_type(typeid(Kind)), m_kind(std::make_shared<const Kind>(std::move(kind))) {
        const Kind& k = *static_cast<const Kind*>(m_kind.get());
        if constexpr (requires { k.Params(); }) m_params = k.Params();
        if constexpr (requires { k.Work(); }) m_work = k.Work();
        if constexpr (requires { Kind::kLibrary; }) m_library = Kind::kLibrary;
    }

    bool empty() const { return !m_kind; }
    std::type_index type() const { return m_type; }
    const void* data() const { return m_kind.get(); }
    template <class Kind>
    const Kind* As() const {
        return m_type == std::type_index(typeid(Kind)) ? static_cast<const Kind*>(m_kind.get())
                                                       : nullptr;
    }
    const std::vector<ParamSpec>& params() const { return m_params; }
    const WorkFn& work() const { return m_work; }
    bool library() const { return m_library; }

private:
    std::type_index m_type = typeid(void);
    std::shared_ptr<const void> m_kind;
    std::vector<ParamSpec> m_params;
    WorkFn m_work;
    bool m_library = false;
};

}  // namespace lessons
