#include "lesson.h"

#include <ostream>

#include "errors.h"

namespace lessons {

const char* ToString(StepKind kind) {
    return kind == StepKind::kGpu ? "gpu" : "cpu";
}

const char* ToString(DataKind kind) {
    switch (kind) {
        case DataKind::kRandom:
            return "random";
        case DataKind::kDense:
            return "dense";
        case DataKind::kNone:
            return "none";
        case DataKind::kOnes:
            return "ones";
    }
    return "?";
}

DataKind ParseDataKind(std::string_view text) {
    for (DataKind k : {DataKind::kRandom, DataKind::kDense, DataKind::kNone, DataKind::kOnes})
        if (text == ToString(k)) return k;
    throw UsageError("unknown data kind '" + std::string(text) +
                     "': use random, dense or none (split lines) or random, ones (reduction)");
}

void StepInstance::WriteOutput(std::ostream&) const {
    throw UsageError("this chapter has no output to write");
}

bool BlockSpec::Accepts(int block) const {
    if (block < min || block > max || block % 32 != 0) return false;
    return !power_of_two || (block & (block - 1)) == 0;
}

std::vector<int> BlockSpec::Choices() const {
    std::vector<int> out;
    for (int b = 32; b <= max; b += 32)
        if (Accepts(b)) out.push_back(b);
    return out;
}

}  // namespace lessons
