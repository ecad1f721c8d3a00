#pragma once
// Summary statistics of a set of samples as the Graph500 reference prints them: min, first
// quartile, median, third quartile, max, mean, standard deviation, and for rates the
// harmonic mean with its standard deviation.

#include <algorithm>
#include <cmath>
#include <vector>

namespace gridblas::bench {

struct Summary {
    double min = 0, firstquartile = 0, median = 0, thirdquartile = 0, max = 0;
    double mean = 0, stddev = 0;
    double harmonic_mean = 0, harmonic_stddev = 0;
};

/// Quantile q of sorted samples, interpolating between neighbours.
inline double quantile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0.0;
    const double pos = q * double(sorted.size() - 1);
    const std::size_t lo = std::size_t(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (pos - double(lo)) * (sorted[hi] - sorted[lo]);
}

inline Summary summarize(std::vector<double> x) {
    Summary s;
    if (x.empty()) return s;
    std::sort(x.begin(), x.end());
    const double n = double(x.size());
    s.min = x.front();
    s.max = x.back();
    s.firstquartile = quantile(x, 0.25);
    s.median = quantile(x, 0.5);
    s.thirdquartile = quantile(x, 0.75);
    double sum = 0, inv = 0;
    for (double v : x) {
        sum += v;
        inv += 1.0 / v;
    }
    s.mean = sum / n;
    double var = 0, hvar = 0;
    s.harmonic_mean = n / inv;
    for (double v : x) {
        var += (v - s.mean) * (v - s.mean);
        hvar += (1.0 / v - 1.0 / s.harmonic_mean) * (1.0 / v - 1.0 / s.harmonic_mean);
    }
    s.stddev = x.size() > 1 ? std::sqrt(var / (n - 1)) : 0.0;
    // Standard deviation of the harmonic mean, propagated from that of the reciprocals.
    s.harmonic_stddev =
        x.size() > 1 ? std::sqrt(hvar / (n - 1)) / std::sqrt(n) * s.harmonic_mean * s.harmonic_mean
                     : 0.0;
    return s;
}

}  // namespace gridblas::bench
