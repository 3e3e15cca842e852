#include "catalog.h"
#include "device.h"

namespace lessons {
namespace {

struct Runnable {
    Registry registry;
    std::vector<std::string> problems;
};

const Runnable& Get() {
    static const Runnable runnable = [] {
        Runnable r;
        r.registry = Catalog();
        for (const std::string& id : r.registry.AttachRunners(GpuRunners()))
            r.problems.push_back("the GPU library has a runner for '" + id +
                                 "', which is no lesson");
        for (std::string& p : r.registry.Validate(BuiltWithCuda())) r.problems.push_back(p);
        return r;
    }();
    return runnable;
}

}  // namespace

const Registry& RunnableCatalog() {
    return Get().registry;
}
const std::vector<std::string>& RunnableCatalogProblems() {
    return Get().problems;
}

}  // namespace lessons
