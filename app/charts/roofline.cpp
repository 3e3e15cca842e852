#include "charts/roofline.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "report.h"

namespace lessons::app {

double Attainable(double peak_gflops, double bandwidth_gbps, double intensity) {
    const double slope = bandwidth_gbps > 0 ? intensity * bandwidth_gbps : 0;
    if (peak_gflops <= 0) return slope;
    if (bandwidth_gbps <= 0) return peak_gflops;
    return std::min(peak_gflops, slope);
}

double Ridge(double peak_gflops, double bandwidth_gbps) {
    return peak_gflops > 0 && bandwidth_gbps > 0 ? peak_gflops / bandwidth_gbps : 0;
}

Roof RoofFromInfo(const DeviceFacts& devices) {
    Roof roof;
    const GpuFacts* gpu = devices.First();
    if (!gpu) return roof;
    roof.device = gpu->name;
    static_cast<PredictCeilings&>(roof) = gpu->ceilings;
    return roof;
}

namespace {

// The largest tensor-core ceiling of `bound` (TF32, bf16) that results of one origin carry
// (recorded or live).
double TensorCarried(const std::vector<StoredResult>& results, bool recorded, Bound bound) {
    double best = 0;
    for (const StoredResult& s : results)
        if (s.result.recorded == recorded && s.result.devices.size() <= 1)
            if (const auto c = s.result.CeilingOf(bound)) best = std::max(best, *c);
    return best;
}

}  // namespace

Roof RoofFromResults(const std::vector<StoredResult>& results) {
    Roof roof;
    roof.recorded = true;
    double fastest_tf32 = 0;
    for (const StoredResult& s : results) {
        const RunResult& r = s.result;
        if (!r.recorded) continue;
        // One GPU's roof: results of several GPUs carry their sum (2 H200s read at 9 TB/s), and
        // recorded files of another GPU belong to another roof; the first one-GPU result names it.
        if (r.devices.size() != 1) continue;
        if (!roof.device.empty() && r.Device() != roof.device) continue;
        if (r.work.bound == Bound::kTf32 && r.verified && r.gflops)
            fastest_tf32 = std::max(fastest_tf32, *r.gflops);
        const std::optional<double> ceiling = r.CeilingOf(r.work.bound);
        if (!ceiling) continue;
        double* slot = r.work.bound == Bound::kRead   ? &roof.read_gbps
                       : r.work.bound == Bound::kCopy ? &roof.copy_gbps
                       : r.work.bound == Bound::kFp32 ? &roof.fp32_gflops
                       : r.work.bound == Bound::kTf32 ? &roof.tf32_gflops
                       : r.work.bound == Bound::kBf16 ? &roof.bf16_gflops
                                                      : nullptr;
        if (!slot) continue;
        *slot = std::max(*slot, *ceiling);
        if (roof.device.empty()) roof.device = r.Device();
    }
    if (roof.tf32_gflops <= 0 && fastest_tf32 > 0) {
        roof.tf32_gflops = fastest_tf32;
        roof.tf32_from_rates = true;
    }
    return roof;
}

Roof CurrentRoof(const DeviceFacts& devices, const std::vector<StoredResult>& results) {
    Roof roof = RoofFromInfo(devices);
    if (!roof.Any()) return RoofFromResults(results);
    if (roof.tf32_gflops <= 0) roof.tf32_gflops = TensorCarried(results, false, Bound::kTf32);
    if (roof.bf16_gflops <= 0) roof.bf16_gflops = TensorCarried(results, false, Bound::kBf16);
    return roof;
}

double PeakFor(const Roof& roof, Bound bound) {
    if (bound == Bound::kTf32 && roof.tf32_gflops > 0) return roof.tf32_gflops;
    if (bound == Bound::kBf16 && roof.bf16_gflops > 0) return roof.bf16_gflops;
    return roof.fp32_gflops;
}

bool RooflineXY(const RunResult& r, double* intensity, double* gflops) {
    const double bytes = double(r.work.MemoryBytes());
    if (r.work.flops == 0 || bytes <= 0 || r.rate_ms <= 0) return false;
    *intensity = double(r.work.flops) / bytes;
    *gflops = double(r.work.flops) / (r.rate_ms * 1e-3) * 1e-9;
    return true;
}

std::vector<RooflinePoint> RooflinePoints(const std::vector<StoredResult>& results,
                                          const Roof& roof, int* no_arithmetic,
                                          std::string* their_chapters) {
    // The newest result of each lesson, parameter set and origin (live or recorded).
    std::map<std::tuple<std::string, std::string, bool>, const StoredResult*> newest;
    for (const StoredResult& s : results) {
        const RunResult& r = s.result;
        if (r.kind != StepKind::kGpu || !r.verified) continue;
        const auto key = std::make_tuple(r.id, ToJson(r.params).dump(), r.recorded);
        auto& slot = newest[key];
        if (!slot || s.sequence > slot->sequence) slot = &s;
    }
    std::vector<RooflinePoint> out;
    std::set<std::string> chapters;
    int none = 0;
    for (const auto& [key, s] : newest) {
        const RunResult& r = s->result;
        const double bytes = double(r.work.MemoryBytes());
        if (r.work.flops == 0 || bytes <= 0 || r.rate_ms <= 0) {
            ++none;
            chapters.insert(r.chapter);
            continue;
        }
        RooflinePoint p;
        p.lesson = r.lesson;
        p.id = r.id;
        p.title = r.title;
        p.chapter = r.chapter;
        p.intensity = double(r.work.flops) / bytes;
        p.gflops = double(r.work.flops) / (r.rate_ms * 1e-3) * 1e-9;
        p.gbps = bytes / (r.rate_ms * 1e-3) * 1e-9;
        const double bandwidth = r.work.bound == Bound::kRead && roof.read_gbps > 0
                                     ? roof.read_gbps
                                     : (roof.copy_gbps > 0 ? roof.copy_gbps : roof.read_gbps);
        p.roof_gflops = Attainable(PeakFor(roof, r.work.bound), bandwidth, p.intensity);
        p.pct_of_roof = p.roof_gflops > 0 ? 100.0 * p.gflops / p.roof_gflops : 0;
        p.recorded = r.recorded;
        p.device = r.Device();
        p.timestamp = r.timestamp;
        p.sequence = s->sequence;
        out.push_back(std::move(p));
    }
    std::sort(out.begin(), out.end(), [](const RooflinePoint& a, const RooflinePoint& b) {
        return a.sequence < b.sequence;
    });
    if (no_arithmetic) *no_arithmetic = none;
    if (their_chapters) {
        their_chapters->clear();
        for (const std::string& c : chapters)
            *their_chapters += (their_chapters->empty() ? "" : ", ") + c;
    }
    return out;
}

ImU32 ChapterColor(int chapter_number) {
    static const ImU32 kOkabeIto[] = {IM_COL32(230, 159, 0, 255),   IM_COL32(86, 180, 233, 255),
                                      IM_COL32(0, 158, 115, 255),   IM_COL32(240, 228, 66, 255),
                                      IM_COL32(0, 114, 178, 255),   IM_COL32(213, 94, 0, 255),
                                      IM_COL32(204, 121, 167, 255), IM_COL32(190, 190, 190, 255)};
    const int n = static_cast<int>(sizeof kOkabeIto / sizeof kOkabeIto[0]);
    if (chapter_number >= 1 && chapter_number <= n) return kOkabeIto[chapter_number - 1];
    // Past the palette: hues a golden angle apart, at three saturation and brightness levels in
    // turn, so that no later chapter takes an earlier one's colour.
    const int k = std::max(chapter_number - n - 1, 0);
    const float hue = std::fmod(0.13f + 0.618034f * static_cast<float>(k), 1.0f);
    static const float kSaturation[] = {0.9f, 0.5f, 0.7f};
    static const float kValue[] = {0.6f, 0.95f, 0.8f};
    float r = 0, g = 0, b = 0;
    ImGui::ColorConvertHSVtoRGB(hue, kSaturation[k % 3], kValue[k % 3], r, g, b);
    return IM_COL32(static_cast<int>(r * 255 + 0.5f), static_cast<int>(g * 255 + 0.5f),
                    static_cast<int>(b * 255 + 0.5f), 255);
}

ImVec2 PlaceLabel(const std::vector<ImVec2>& candidates, ImVec2 size,
                  const std::vector<ImVec4>& obstacles, ImVec4 bounds, bool* clear) {
    auto overlap = [&](ImVec2 at) {
        float area = 0;
        for (const ImVec4& o : obstacles) {
            const float w = std::min(at.x + size.x, o.z) - std::max(at.x, o.x);
            const float h = std::min(at.y + size.y, o.w) - std::max(at.y, o.y);
            if (w > 0 && h > 0) area += w * h;
        }
        return area;
    };
    auto inside = [&](ImVec2 at) {
        return at.x >= bounds.x && at.y >= bounds.y && at.x + size.x <= bounds.z &&
               at.y + size.y <= bounds.w;
    };
    ImVec2 best = candidates.empty() ? ImVec2(bounds.x, bounds.y) : candidates.front();
    float best_area = -1;
    bool best_inside = false;
    for (const ImVec2& at : candidates) {
        const float area = overlap(at);
        const bool in = inside(at);
        if (in && area == 0) {
            if (clear) *clear = true;
            return at;
        }
        if (best_area < 0 || (in && !best_inside) || (in == best_inside && area < best_area)) {
            best = at;
            best_area = area;
            best_inside = in;
        }
    }
    if (clear) *clear = !candidates.empty() && best_area == 0 && best_inside;
    return best;
}

}  // namespace lessons::app
