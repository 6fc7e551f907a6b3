#include "schedlab/analysis/hurst.h"

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
