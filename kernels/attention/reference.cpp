// The double-precision reference of one attention row (attention_cpu.h): the scores in double
// from the bf16 inputs, the max subtracted before the exponential, then the weighted sum of V.
#include <algorithm>
#include <cmath>

#include "attention_cpu.h"
#include "softmax/softmax_cpu.h"

namespace lessons::attention {

AttentionReferenceRow AttentionReferenceAt(const uint16_t* q, const uint16_t* k, const uint16_t* v,
                                           int n, int d, bool causal, int row) {
    using softmax::Bf16BitsToFloat;
    const int keys = causal ? row + 1 : n;
    const double scale = 1.0 / std::sqrt(double(d));
    std::vector<double> qd(static_cast<size_t>(d)), s(static_cast<size_t>(keys));
    for (int e = 0; e < d; ++e) qd[size_t(e)] = Bf16BitsToFloat(q[size_t(row) * d + e]);
    AttentionReferenceRow r;
    double max = -HUGE_VAL;
    for (int j = 0; j < keys; ++j) {
        const uint16_t* kj = k + size_t(j) * d;
        double dot = 0;
        for (int e = 0; e < d; ++e) dot += qd[size_t(e)] * Bf16BitsToFloat(kj[e]);
        s[size_t(j)] = dot * scale;
        max = std::max(max, s[size_t(j)]);
        r.max_abs_score = std::max(r.max_abs_score, std::fabs(s[size_t(j)]));
    }
    r.o.assign(size_t(d), 0.0);
    r.magnitude.assign(size_t(d), 0.0);
    double sum = 0;
    for (int j = 0; j < keys; ++j) {
        const double p = std::exp(s[size_t(j)] - max);
        sum += p;
        const uint16_t* vj = v + size_t(j) * d;
        for (int e = 0; e < d; ++e) {
            const double x = Bf16BitsToFloat(vj[e]);
            r.o[size_t(e)] += p * x;
            r.magnitude[size_t(e)] += p * std::fabs(x);
        }
    }
    for (int e = 0; e < d; ++e) {
        r.o[size_t(e)] /= sum;
        r.magnitude[size_t(e)] /= sum;
    }
    return r;
}

}  // namespace lessons::attention
