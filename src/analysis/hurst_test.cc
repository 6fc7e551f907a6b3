#include "schedlab/analysis/hurst.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "schedlab/base/random.h"

namespace schedlab::analysis {
namespace {

std::vector<double> white_noise(size_t n, uint64_t seed) {
  base::Rng rng(seed);
  std::vector<double> x(n);
  for (double& v : x) v = rng.normal();
  return x;
}

// Fractional Gaussian noise with Hurst parameter h by Hosking's exact method (Durbin-Levinson).
std::vector<double> fgn_hosking(size_t n, double h, uint64_t seed) {
  const auto gamma = [h](double k) {
    return 0.5 * (std::pow(std::abs(k + 1), 2 * h) - 2 * std::pow(std::abs(k), 2 * h) + std::pow(std::abs(k - 1), 2 * h));
  };
  std::vector<double> g(n);
  for (size_t k = 0; k < n; ++k) g[k] = gamma(static_cast<double>(k));
  base::Rng rng(seed);
  std::vector<double> x(n), phi(n, 0.0), prev(n, 0.0);
  x[0] = rng.normal();
  double v = 1.0;
  for (size_t t = 1; t < n; ++t) {
    double acc = g[t];
    for (size_t j = 1; j < t; ++j) acc -= prev[j] * g[t - j];
    const double ptt = acc / v;
    for (size_t j = 1; j < t; ++j) phi[j] = prev[j] - ptt * prev[t - j];
    phi[t] = ptt;
    v *= 1 - ptt * ptt;
    double mean = 0;
    for (size_t j = 1; j <= t; ++j) mean += phi[j] * x[t - j];
    x[t] = mean + std::sqrt(v) * rng.normal();
    std::swap(phi, prev);
  }
  return x;
}

TEST(Hurst, WhiteNoiseIsOneHalf) {
  const auto x = white_noise(1 << 16, 3);
  EXPECT_NEAR(hurst_variance_time(x, 10, 2000), 0.5, 0.05);
  EXPECT_NEAR(hurst_rs(x, 20, 4000), 0.5, 0.1);  // R/S is biased up a little at small block sizes
  EXPECT_NEAR(hurst_periodogram(x, 0.1), 0.5, 0.05);
}

TEST(Hurst, FractionalGaussianNoiseGivesItsH) {
  for (const double h : {0.7, 0.85}) {
    const auto x = fgn_hosking(1 << 14, h, 5);
    EXPECT_NEAR(hurst_variance_time(x, 10, 1000), h, 0.1) << h;
    EXPECT_NEAR(hurst_rs(x, 20, 2000), h, 0.1) << h;
    EXPECT_NEAR(hurst_periodogram(x, 0.1), h, 0.08) << h;
  }
}

// The periodogram against a direct O(n^2) DFT of the centred series (the obvious implementation), on lengths that
// take each of the FFT's paths (n divisible by 4, n = 2 mod 4, n odd) and one that is cut to its 5-smooth
// prefix; the in-place form gives the same bits as the copying one.
TEST(Hurst, PeriodogramMatchesADirectDft) {
  for (const size_t len : {size_t{360}, size_t{270}, size_t{405}, size_t{367}}) {
    const auto x = fgn_hosking(len, 0.8, 11);
    size_t n = len;
    const auto smooth = [](size_t k) {
      for (const size_t p : {2, 3, 5})
        while (k % p == 0) k /= p;
      return k == 1;
    };
    while (!smooth(n)) --n;
    double mean = 0;
    for (size_t t = 0; t < n; ++t) mean += x[t];
    mean /= static_cast<double>(n);
    const double two_pi = 6.283185307179586;
    std::vector<double> lx, ly;
    for (size_t j = 1; j <= std::max<size_t>(3, n / 20); ++j) {
      double re = 0, im = 0;
      for (size_t t = 0; t < n; ++t) {
        const double w = two_pi * static_cast<double>(j * t % n) / static_cast<double>(n);
        re += (x[t] - mean) * std::cos(w);
        im -= (x[t] - mean) * std::sin(w);
      }
      lx.push_back(std::log(two_pi * static_cast<double>(j) / static_cast<double>(n)));
      ly.push_back(std::log((re * re + im * im) / (two_pi * static_cast<double>(n))));
    }
    const double direct = (1 - ls_slope(lx, ly)) / 2;
    const double copying = hurst_periodogram(x, 0.1);
    EXPECT_NEAR(copying, direct, 1e-9) << len;
    EXPECT_EQ(hurst_periodogram(std::vector<double>(x), 0.1), copying) << len;
  }
}

TEST(Hurst, TooShortIsNan) {
  const std::vector<double> x{1, 2, 3, 4};
  EXPECT_TRUE(std::isnan(hurst_variance_time(x, 100, 50000)));
  EXPECT_TRUE(std::isnan(hurst_rs(x, 100, 50000)));
  EXPECT_TRUE(std::isnan(hurst_periodogram(x)));
}

TEST(Hurst, SlopeOfALine) {
  const std::vector<double> x{0, 1, 2, 3}, y{1, 3, 5, 7};
  EXPECT_DOUBLE_EQ(ls_slope(x, y), 2.0);
}

}  // namespace
}  // namespace schedlab::analysis
