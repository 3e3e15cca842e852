// The lesson page's "Predict, then measure" box: the work the step must do at the page's
// settings (from the catalogue, without running it), the ceilings the worker measured (or,
// with no GPU, the recorded ones, labelled), the lower bound they give, Little's law for the
// bytes a thread keeps in flight, and the measured time beside the bound once a result exists.
// Pure text building (PredictionLines) so that tests check the figures; DrawPrediction draws it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/device_facts.h"
#include "model/settings.h"
#include "predict.h"
#include "registry.h"
#include "report.h"
#include "result.h"

namespace lessons::app {

// Where the ceilings come from.
struct CeilingSource {
    PredictCeilings ceilings;
    bool known = false;     // any ceiling at all
    bool measured = false;  // measured by this machine's worker; else recorded
    std::string device;     // the GPU's name
    std::string date;       // recorded: the day of the recording
    int sm_count = 0;       // for Little's law; 0: unknown
    int max_threads_per_sm = 0;
    int clock_khz = 0;
    // Recorded results without a TF32 ceiling (recorded before there was one): the fastest
    // recorded TF32 run stands for it, as on the roofline.
    bool tf32_from_rates = false;
};

// Device 0's ceilings as the worker measured them; known = false without a GPU.
CeilingSource CeilingsFromDevices(const DeviceFacts& devices);
// The ceilings recorded with a GPU's results (its `info --format json` object, as
// RecordedDeviceInfo gives it): every ceiling, the SM count and clock, the day from its
// "recorded_at"; measured = false. known = false for a null or unreadable object.
CeilingSource CeilingsFromRecordedInfo(const Json& info);
// From a recorded one-GPU result: the ceiling it was compared with (read, copy, fp32, TF32 or H2D,
// as its work's bound says) fills that figure of `source` if still unknown; the first one also
// names the device and the day. A TF32 result recorded without a TF32 ceiling offers its rate
// instead: the fastest such rate stands for the TF32 ceiling (tf32_from_rates).
void AddRecordedCeiling(const RunResult& recorded, CeilingSource* source);

// The box's lines in `language`, for `lesson` at `params` (every parameter, resolved);
// `measured` is the result at these settings, or null; `attributes` the kernel's resource
// use at them, or null.
std::vector<std::string> PredictionLines(const std::string& language, const Lesson& lesson,
                                         const Chapter& chapter, const ParamValues& params,
                                         const CeilingSource& source, const RunResult* measured,
                                         const KernelAttributes* attributes);

// The model's lower bound for the time a result of `lesson` at `params` reports, and that time
// in `measured`: its kernel part where it has one (bounded by the device alone), else its whole
// run (bounded with the copies, overlapped or in turn as the step runs them). No bound for CPU
// steps, steps without declared work, or where a ceiling the bound needs is unknown; no time
// without a verified measurement.
struct BoundedTime {
    std::optional<double> bound_ms;
    std::optional<double> measured_ms;
};
BoundedTime BoundAndTime(const Lesson& lesson, const Chapter& chapter, const ParamValues& params,
                         const CeilingSource& source, const RunResult* measured);

// The student's guess beside the model and the measurement, in the guess's unit. A time: this
// lesson's bound and measured time (`mine`). A speed-up over the previous lesson: the previous
// lesson's bound over this one's, and `measured_speedup` (as the step chart's headline has it).
struct GuessCheck {
    double guess = 0;
    std::optional<double> bound;
    std::optional<double> measured;
};
GuessCheck CheckGuess(const Guess& guess, const BoundedTime& mine, const BoundedTime& previous,
                      std::optional<double> measured_speedup);

// "1.08": measured / bound, two decimals.
std::string Times(double ratio);

}  // namespace lessons::app

namespace lessons::app {

// One row of the chapter summary: a lesson, the result shown for it (null: not run at these
// settings), and the speed-ups of its whole-run time over the previous step and the first.
struct SummaryRow {
    const Lesson* lesson = nullptr;
    const RunResult* result = nullptr;
    std::optional<double> vs_previous;    // previous step's time / this one's
    std::optional<double> vs_first;       // the base step's time / this one's
    const RunResult* previous = nullptr;  // the result vs_previous compares with
    const RunResult* first = nullptr;     // the result vs_first compares with
};
// Every lesson of `chapter`, in order, with the result `shown` gives for it. The cumulative
// speed-up is over the chapter's first step that has a correct result (`*base` is that lesson;
// null when none has): the CPU step once the chapter has run here, the first GPU step when only
// recorded results are shown. A chapter of independent experiments (Chapter::independent_steps)
// has no speed-ups.
std::vector<SummaryRow> SummaryRows(const Registry& reg, const Chapter& chapter,
                                    const std::function<const RunResult*(const Lesson&)>& shown,
                                    const Lesson** base = nullptr);

}  // namespace lessons::app
