// k-means clustering and PCA for the user/session classification (Talby thesis §9).
//
// - zscore: each column minus its mean, over its population standard deviation (a constant column
//   becomes 0).
// - kmeans: Lloyd's algorithm from k-means++ seeds, `restarts` independent starts (start s draws from
//   Rng::stream(seed, s)), each run until no label changes or `max_iterations`; the start with the least
//   inertia (sum of squared distances to the centroids) wins, the first on ties. Deterministic.
// - pca: eigen-decomposition of the covariance matrix of z-scored columns (= correlation matrix);
//   components by decreasing eigenvalue, explained share = eigenvalue / sum.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace schedlab::analysis {

using Matrix = std::vector<std::vector<double>>;  // rows of equal length

Matrix zscore(const Matrix& rows);

struct KMeansResult {
  std::vector<int> labels;  // one per row, 0..k-1
  Matrix centroids;         // k rows, in the (z-scored) input space
  double inertia = 0;
  int iterations = 0;
};

// Throws std::invalid_argument when k < 1 or there are fewer rows than k. `after_start`, when given, is called
// after each start (a long run's progress).
inline constexpr int kKMeansMaxIterations = 300;
KMeansResult kmeans(const Matrix& rows, int k, uint64_t seed, int restarts = 10,
                    int max_iterations = kKMeansMaxIterations,
                    const std::function<void()>& after_start = {});

struct PcaResult {
  std::vector<double> explained;  // share of variance per component, decreasing
  Matrix components;              // components[c][v]: loading of variable v
};

PcaResult pca(const Matrix& rows);

}  // namespace schedlab::analysis
