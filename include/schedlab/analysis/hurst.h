// Hurst-parameter estimators of a time series (Talby thesis §5.4; docs/analysis.md, "Temporal
// structure"). Each returns NaN when the series is too short for at least three levels / frequencies.
//
// - Variance-time: for aggregation levels m (log-spaced integers in [m_min, min(m_max, n / 10)], at most
//   `levels` of them), X^(m) = means of non-overlapping blocks of m values; least-squares slope of
//   log Var(X^(m)) vs log m is -beta; H = 1 - beta / 2.
// - R/S (pox plot): for block sizes n_b log-spaced in [n_min, min(n_max, n / 2)], the mean over the
//   non-overlapping blocks of R/S = (max(0, W_1..W_k) - min(0, W_1..W_k)) / S (W = cumulative deviations
//   from the block mean, S = population standard deviation; blocks with S = 0 are skipped); H = slope
//   of log mean R/S vs log n_b.
// - Periodogram: I(w_j) = |sum_t (x_t - mean) e^(-i w_j t)|^2 / (2 pi n) at w_j = 2 pi j / n for
//   j = 1 .. max(3, floor(fraction * n / 2)); s = slope of log I vs log w; H = (1 - s) / 2. The series is
//   first cut to its longest prefix whose length has no prime factor above 5 (for the FFT).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace schedlab::analysis {

double hurst_variance_time(std::span<const double> x, int64_t m_min, int64_t m_max, int levels = 20);
double hurst_rs(std::span<const double> x, int64_t n_min, int64_t n_max, int levels = 20);
double hurst_periodogram(std::span<const double> x, double fraction = 0.1);
// The same, centring the series in place instead of in a copy (8 bytes a value less).
double hurst_periodogram(std::vector<double>&& x, double fraction = 0.1);

// Least-squares slope of y on x (NaN with fewer than 2 points or no spread in x).
double ls_slope(std::span<const double> x, std::span<const double> y);

}  // namespace schedlab::analysis
