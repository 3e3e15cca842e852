// A build without CUDA has no GPU steps: GPU lessons keep their texts and sources and show
// their recorded results.
#include "catalog.h"

namespace lessons {

std::vector<std::pair<std::string, StepRunner>> GpuRunners() {
    return {};
}

}  // namespace lessons
