#include "schedlab/analysis/hurst.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <vector>

#include <unsupported/Eigen/FFT>

namespace schedlab::analysis {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Up to `levels` distinct log-spaced integers in [lo, hi].
std::vector<int64_t> log_levels(int64_t lo, int64_t hi, int levels) {
  std::vector<int64_t> out;
  if (lo < 1 || hi < lo || levels < 1) return out;
  const double a = std::log(static_cast<double>(lo)), b = std::log(static_cast<double>(hi));
  for (int i = 0; i < levels; ++i) {
    const double t = levels == 1 ? 0.0 : static_cast<double>(i) / (levels - 1);
    const auto m = static_cast<int64_t>(std::llround(std::exp(a + t * (b - a))));
    if (out.empty() || m != out.back()) out.push_back(std::clamp(m, lo, hi));
  }
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool smooth(int64_t n) {
  for (const int64_t p : {2, 3, 5})
    while (n % p == 0) n /= p;
  return n == 1;
}

}  // namespace

double ls_slope(std::span<const double> x, std::span<const double> y) {
  if (x.size() < 2 || x.size() != y.size()) return kNaN;
  const double n = static_cast<double>(x.size());
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
  const double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  return sxx > 0 ? sxy / sxx : kNaN;
}

double hurst_variance_time(std::span<const double> x, int64_t m_min, int64_t m_max, int levels) {
  const auto n = static_cast<int64_t>(x.size());
  std::vector<double> lx, ly;
  for (const int64_t m : log_levels(m_min, std::min(m_max, n / 10), levels)) {
    const int64_t blocks = n / m;
    std::vector<double> means(static_cast<size_t>(blocks));
    for (int64_t b = 0; b < blocks; ++b) {
      double s = 0;
      for (int64_t i = b * m; i < (b + 1) * m; ++i) s += x[static_cast<size_t>(i)];
      means[static_cast<size_t>(b)] = s / static_cast<double>(m);
    }
    const double mean = std::accumulate(means.begin(), means.end(), 0.0) / static_cast<double>(blocks);
    double var = 0;
    for (const double v : means) var += (v - mean) * (v - mean);
    var /= static_cast<double>(blocks);
    if (var <= 0) continue;
    lx.push_back(std::log(static_cast<double>(m)));
    ly.push_back(std::log(var));
  }
  if (lx.size() < 3) return kNaN;
  return 1 + ls_slope(lx, ly) / 2;  // slope = -beta
}

double hurst_rs(std::span<const double> x, int64_t n_min, int64_t n_max, int levels) {
  const auto n = static_cast<int64_t>(x.size());
  std::vector<double> lx, ly;
  for (const int64_t size : log_levels(std::max<int64_t>(n_min, 2), std::min(n_max, n / 2), levels)) {
    double sum_rs = 0;
    int64_t used = 0;
    for (int64_t b = 0; b + size <= n; b += size) {
      const auto block = x.subspan(static_cast<size_t>(b), static_cast<size_t>(size));
      const double mean = std::accumulate(block.begin(), block.end(), 0.0) / static_cast<double>(size);
      double w = 0, lo = 0, hi = 0, ss = 0;
      for (const double v : block) {
        w += v - mean;
        lo = std::min(lo, w);
        hi = std::max(hi, w);
        ss += (v - mean) * (v - mean);
      }
      const double s = std::sqrt(ss / static_cast<double>(size));
      if (s <= 0) continue;
      sum_rs += (hi - lo) / s;
      ++used;
    }
    if (used == 0 || sum_rs <= 0) continue;
    lx.push_back(std::log(static_cast<double>(size)));
    ly.push_back(std::log(sum_rs / static_cast<double>(used)));
  }
  if (lx.size() < 3) return kNaN;
  return ls_slope(lx, ly);
}

namespace {

// The periodogram of x's first n values (n with no prime factor above 5), which `centred` holds minus their
// mean. Only the half spectrum is computed: the frequencies used are below n / 2, and the mirrored half would
// cost 16 bytes a value (0.5 GB for the 1-minute series of a log spanning decades).
double periodogram_slope(std::vector<double>& centred, double fraction) {
  const auto n = static_cast<int64_t>(centred.size());
  std::vector<std::complex<double>> spectrum;
  Eigen::FFT<double> fft;
  fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
  fft.fwd(spectrum, centred);
  const int64_t top = std::max<int64_t>(3, static_cast<int64_t>(fraction * static_cast<double>(n) / 2));
  if (top > n / 2) return kNaN;
  std::vector<double> lx, ly;
  const double two_pi = 6.283185307179586;
  for (int64_t j = 1; j <= top; ++j) {
    const double power = std::norm(spectrum[static_cast<size_t>(j)]) / (two_pi * static_cast<double>(n));
    if (power <= 0) continue;
    lx.push_back(std::log(two_pi * static_cast<double>(j) / static_cast<double>(n)));
    ly.push_back(std::log(power));
  }
  if (lx.size() < 3) return kNaN;
  return (1 - ls_slope(lx, ly)) / 2;
}

int64_t smooth_prefix(int64_t n) {
  while (n > 0 && !smooth(n)) --n;
  return n;
}

}  // namespace

double hurst_periodogram(std::span<const double> x, double fraction) {
  const int64_t n = smooth_prefix(static_cast<int64_t>(x.size()));
  if (n < 8) return kNaN;
  const double mean = std::accumulate(x.begin(), x.begin() + n, 0.0) / static_cast<double>(n);
  std::vector<double> centred(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) centred[static_cast<size_t>(i)] = x[static_cast<size_t>(i)] - mean;
  return periodogram_slope(centred, fraction);
}

double hurst_periodogram(std::vector<double>&& x, double fraction) {
  const int64_t n = smooth_prefix(static_cast<int64_t>(x.size()));
  if (n < 8) return kNaN;
  x.resize(static_cast<size_t>(n));
  const double mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(n);
  for (double& v : x) v -= mean;
  return periodogram_slope(x, fraction);
}

}  // namespace schedlab::analysis
