#include "lesson.h"

#include <ostream>
#include <stdexcept>

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
        case Bound::kTf32:
            return "tf32";
        case Bound::kBf16:
            return "bf16";
        case Bound::kH2D:
            return "h2d";
        case Bound::kPeer:
            return "peer";
    }
    return "none";
}

Bound ParseBound(std::string_view text) {
    for (Bound b : {Bound::kRead, Bound::kCopy, Bound::kFp32, Bound::kTf32, Bound::kBf16,
                    Bound::kH2D, Bound::kPeer})
        if (text == ToString(b)) return b;
    return Bound::kNone;
}

const char* CeilingDescription(Bound bound) {
    switch (bound) {
        case Bound::kRead:
            return "read-only bandwidth";
        case Bound::kCopy:
            return "device copy bandwidth";
        case Bound::kFp32:
            return "fp32 FMA peak";
        case Bound::kTf32:  // a library's rate, not the hardware's peak
            return "cuBLAS TF32 GEMM rate";
        case Bound::kBf16:
            return "cuBLAS bf16 GEMM rate";
        case Bound::kH2D:
            return "pinned host-to-device copy";
        case Bound::kPeer:
            return "peer copy between GPUs";
        case Bound::kNone:
            break;
    }
    return "no ceiling";
}

const char* CeilingDescriptionZh(Bound bound) {
    switch (bound) {
        case Bound::kRead:
            return "只读带宽";
        case Bound::kCopy:
            return "设备内拷贝带宽";
        case Bound::kFp32:
            return "fp32 FMA 峰值";
        case Bound::kTf32:
            return "cuBLAS TF32 GEMM 速率";
        case Bound::kBf16:
            return "cuBLAS bf16 GEMM 速率";
        case Bound::kH2D:
            return "锁页内存到设备的拷贝";
        case Bound::kPeer:
            return "GPU 之间的拷贝";
        case Bound::kNone:
            break;
    }
    return "无上限";
}

void StepInstance::WriteOutput(std::ostream&) const {
    throw UsageError("this chapter has no output to write");
}

const ParamSpec* Lesson::FindParam(std::string_view name) const {
    for (const ParamSpec& p : params)
        if (p.name == name) return &p;
    return nullptr;
}

std::string Lesson::Name() const {
    return "lesson " + (label.empty() ? std::to_string(number) : label) + " (" +
           (id.empty() ? "no id" : id) + ")";
}

std::string Lesson::OldId() const {
    if (was <= 0) return {};
    const size_t slash = id.find('/');
    if (slash == std::string::npos) return {};
    const std::string old_number = (was < 10 ? "0" : "") + std::to_string(was);
    return id.substr(0, slash + 1) + old_number + "-" + id.substr(slash + 1);
}

Work StepInstance::GetWork() const {
    throw std::logic_error(
        "the lesson declares no work rule (EstimateWork), and its step does not report its work");
}

std::optional<Work> EstimateWork(const Lesson& lesson, const Chapter& chapter,
                                 const ParamValues& params) {
    if (lesson.work) return lesson.work(params);
    if (chapter.work) return chapter.work(lesson.kind, params);
    return std::nullopt;
}

}  // namespace lessons
