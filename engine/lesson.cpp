#include "lesson.h"

#include <ostream>

#include "errors.h"

namespace lessons {

const char* ToString(StepKind kind) {
    return kind == StepKind::kGpu ? "gpu" : "cpu";
}

const char* ToString(Bound bound) {
    switch (bound) {
        case Bound::kNone:
            return "none";
        case Bound::kRead:
            return "read";
        case Bound::kCopy:
            return "copy";
        case Bound::kFp32:
            return "fp32";
        case Bound::kH2D:
            return "h2d";
        case Bound::kPeer:
            return "peer";
    }
    return "none";
}

Bound ParseBound(std::string_view text) {
    for (Bound b : {Bound::kRead, Bound::kCopy, Bound::kFp32, Bound::kH2D, Bound::kPeer})
        if (text == ToString(b)) return b;
    return Bound::kNone;
}

void StepInstance::WriteOutput(std::ostream&) const {
    throw UsageError("this chapter has no output to write");
}

const ParamSpec* Lesson::FindParam(std::string_view name) const {
    for (const ParamSpec& p : params)
        if (p.name == name) return &p;
    return nullptr;
}

}  // namespace lessons
