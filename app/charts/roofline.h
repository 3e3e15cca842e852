// The roofline without drawing: this GPU's roof (from the worker's measured ceilings, or from
// the ceilings recorded results carry), the attainable rate at an intensity, the ridge point,
// and every result as a point at its arithmetic intensity. roofline_page.cpp draws them.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "model/device_facts.h"
#include "model/results_store.h"

namespace lessons::app {

// A GPU's ceilings in GB/s and GFLOP/s, 0 where unknown: TF32 where the GEMM chapter measured
// it (cuBLAS's TF32 SGEMM), bf16 where the tensor-core chapter did (cuBLAS's bf16 GEMM). The
// roof is drawn from read, copy and the peaks; the PCIe figures are not on it.
struct Roof : PredictCeilings {
    std::string device;
    bool recorded = false;  // taken from recorded results, not measured by this worker
    // The TF32 figure is the fastest recorded TF32 rate (results recorded before they carried
    // the TF32 ceiling: cuBLAS's own TF32 runs, what the ceiling is measured with).
    bool tf32_from_rates = false;
    bool Any() const { return read_gbps > 0 || copy_gbps > 0 || fp32_gflops > 0; }
    // The bandwidth of the slope: read-only when known, else copy.
    double Bandwidth() const { return read_gbps > 0 ? read_gbps : copy_gbps; }
};

// min(peak, intensity x bandwidth): a kernel of this intensity runs at most this fast. With no
// peak known (0), the slope alone; with no bandwidth, the peak alone.
double Attainable(double peak_gflops, double bandwidth_gbps, double intensity);
// The intensity where the slope meets the flat roof: peak / bandwidth (flop per byte); 0 when
// either is unknown.
double Ridge(double peak_gflops, double bandwidth_gbps);

// Device 0's measured ceilings as the worker reported them, or an empty roof. The TF32 figure
// is there once a tensor-core step (or "measure again") has measured it.
Roof RoofFromInfo(const DeviceFacts& devices);
// The ceilings recorded results carry, by the bound each was compared with (read, copy, fp32,
// TF32, bf16). Where no recorded result carries a TF32 ceiling (recorded before there was one), the
// fastest verified recorded TF32 rate stands for it (tf32_from_rates).
Roof RoofFromResults(const std::vector<StoredResult>& results);
// The roof the pages draw: the worker's measured ceilings, with the TF32 ceiling this session's
// results carry when the info has none yet; with no GPU, the recorded ones.
Roof CurrentRoof(const DeviceFacts& devices, const std::vector<StoredResult>& results);
// The peak a result's point is held to: TF32 or bf16 for a tensor-core step when the roof has
// it, else fp32.
double PeakFor(const Roof& roof, Bound bound);

// The colour of a chapter's points: the Okabe-Ito palette (safe for the common forms of colour
// blindness), one colour per chapter by its number (1 orange, 2 sky blue, 3 bluish green,
// 4 yellow, 5 blue, 6 vermillion, 7 reddish purple, 8 grey in place of black on the dark page);
// chapters after the eighth get generated colours, none of them an earlier chapter's.
ImU32 ChapterColor(int chapter_number);

// Where a label of `size` goes: the first of `candidates` (top-left corners) whose rectangle
// stays inside `bounds` and overlaps none of `obstacles` (each x0, y0, x1, y1); else the one
// inside `bounds` (or, if none is, any) that overlaps them the least. `clear` says whether the
// place found overlaps nothing.
ImVec2 PlaceLabel(const std::vector<ImVec2>& candidates, ImVec2 size,
                  const std::vector<ImVec4>& obstacles, ImVec4 bounds, bool* clear = nullptr);

struct RooflinePoint {
    int lesson = 0;
    std::string id;
    std::string title;
    std::string chapter;
    double intensity = 0;    // flop per byte
    double gflops = 0;       // attained
    double gbps = 0;         // attained
    double roof_gflops = 0;  // the roof at this intensity (its bound's bandwidth, or the peak)
    double pct_of_roof = 0;
    bool recorded = false;
    std::string device, timestamp;
    int sequence = 0;
};

// A result's place on the roofline: its intensity (flop per byte) and attained GFLOP/s (over the
// time its rates are taken over); false when it does no arithmetic or has no such time.
bool RooflineXY(const RunResult& r, double* intensity, double* gflops);

// Every verified GPU result with arithmetic as a point on `roof` (the newest of each lesson
// and parameter set only); `no_arithmetic` counts the others (flops 0) and `their_chapters`
// names their chapters.
std::vector<RooflinePoint> RooflinePoints(const std::vector<StoredResult>& results,
                                          const Roof& roof, int* no_arithmetic = nullptr,
                                          std::string* their_chapters = nullptr);

}  // namespace lessons::app
