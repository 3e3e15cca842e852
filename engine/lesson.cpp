#include "lesson.h"

#include <ostream>
#include <stdexcept>

#include "errors.h"

namespace lessons {

const char* ToString(StepKind kind) {
    return kind == StepKind::kGpu ? "gpu" : "cpu";
}

namespace {

// Each bound: its name in results and files, and its ceiling described in English and Chinese.
struct BoundRow {
    Bound bound;
    const char* name;
    const char* ceiling;
    const char* ceiling_zh;
};
constexpr BoundRow kBounds[] = {
    {Bound::kNone, "none", "no ceiling", "无上限"},
    {Bound::kRead, "read", "read-only bandwidth", "只读带宽"},
    {Bound::kCopy, "copy", "device copy bandwidth", "设备内拷贝带宽"},
    {Bound::kFp32, "fp32", "fp32 FMA peak", "fp32 FMA 峰值"},
    // kTf32 and kBf16: a library's rate, not the hardware's peak.
    {Bound::kTf32, "tf32", "cuBLAS TF32 GEMM rate", "cuBLAS TF32 GEMM 速率"},
    {Bound::kBf16, "bf16", "cuBLAS bf16 GEMM rate", "cuBLAS bf16 GEMM 速率"},
    {Bound::kH2D, "h2d", "pinned host-to-device copy", "锁页内存到设备的拷贝"},
    {Bound::kPeer, "peer", "peer copy between GPUs", "GPU 之间的拷贝"},
};

const BoundRow& RowOf(Bound bound) {
    for (const BoundRow& row : kBounds)
        if (row.bound == bound) return row;
    return kBounds[0];
}

}  // namespace

const char* ToString(Bound bound) {
    return RowOf(bound).name;
}

Bound ParseBound(std::string_view text) {
    for (const BoundRow& row : kBounds)
        if (text == row.name) return row.bound;
    return Bound::kNone;
}

const char* CeilingDescription(Bound bound) {
    return RowOf(bound).ceiling;
}

const char* CeilingDescriptionZh(Bound bound) {
    return RowOf(bound).ceiling_zh;
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
