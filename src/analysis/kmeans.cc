#include "schedlab/analysis/kmeans.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Eigenvalues>

#include "schedlab/base/random.h"

namespace schedlab::analysis {
namespace {

double dist2(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return s;
}

KMeansResult run_once(const Matrix& rows, int k, base::Rng& rng, int max_iterations) {
  const size_t n = rows.size(), dims = rows.front().size();
  KMeansResult res;
  // k-means++ seeding.
  res.centroids.push_back(rows[rng.below(n)]);
  std::vector<double> d(n);
  for (size_t i = 0; i < n; ++i) d[i] = dist2(rows[i], res.centroids[0]);
  while (static_cast<int>(res.centroids.size()) < k) {
    double total = 0;
    for (const double x : d) total += x;
    size_t pick = 0;
    if (total <= 0) {
      pick = rng.below(n);
    } else {
      double u = rng.uniform() * total;
      for (pick = 0; pick + 1 < n; ++pick) {
        u -= d[pick];
        if (u < 0) break;
      }
    }
    res.centroids.push_back(rows[pick]);
    for (size_t i = 0; i < n; ++i) d[i] = std::min(d[i], dist2(rows[i], res.centroids.back()));
  }
  res.labels.assign(n, -1);
  for (res.iterations = 0; res.iterations < max_iterations; ++res.iterations) {
    bool changed = false;
    for (size_t i = 0; i < n; ++i) {
      int best = 0;
      double bd = std::numeric_limits<double>::infinity();
      for (int c = 0; c < k; ++c) {
        const double x = dist2(rows[i], res.centroids[static_cast<size_t>(c)]);
        if (x < bd) {
          bd = x;
          best = c;
        }
      }
      if (res.labels[i] != best) {
        res.labels[i] = best;
        changed = true;
      }
    }
    if (!changed) break;
    Matrix sums(static_cast<size_t>(k), std::vector<double>(dims, 0.0));
    std::vector<int64_t> counts(static_cast<size_t>(k), 0);
    for (size_t i = 0; i < n; ++i) {
      const auto c = static_cast<size_t>(res.labels[i]);
      ++counts[c];
      for (size_t j = 0; j < dims; ++j) sums[c][j] += rows[i][j];
    }
    for (size_t c = 0; c < static_cast<size_t>(k); ++c)
      if (counts[c] > 0)
        for (size_t j = 0; j < dims; ++j) res.centroids[c][j] = sums[c][j] / static_cast<double>(counts[c]);
  }
  res.inertia = 0;
  for (size_t i = 0; i < n; ++i) res.inertia += dist2(rows[i], res.centroids[static_cast<size_t>(res.labels[i])]);
  return res;
}

}  // namespace

Matrix zscore(const Matrix& rows) {
  if (rows.empty()) return rows;
  const size_t dims = rows.front().size();
  const double n = static_cast<double>(rows.size());
  Matrix out = rows;
  for (size_t j = 0; j < dims; ++j) {
    double mean = 0, var = 0;
    for (const auto& r : rows) mean += r[j];
    mean /= n;
    for (const auto& r : rows) var += (r[j] - mean) * (r[j] - mean);
    const double sd = std::sqrt(var / n);
    for (auto& r : out) r[j] = sd > 0 ? (r[j] - mean) / sd : 0.0;
  }
  return out;
}

KMeansResult kmeans(const Matrix& rows, int k, uint64_t seed, int restarts, int max_iterations,
                    const std::function<void()>& after_start) {
  if (k < 1) throw std::invalid_argument("k-means needs k >= 1");
  if (rows.size() < static_cast<size_t>(k))
    throw std::invalid_argument("k-means needs at least k rows");
  KMeansResult best;
  bool have = false;
  for (int s = 0; s < std::max(1, restarts); ++s) {
    base::Rng rng = base::Rng::stream(seed, static_cast<uint64_t>(s));
    KMeansResult r = run_once(rows, k, rng, max_iterations);
    if (!have || r.inertia < best.inertia) {
      best = std::move(r);
      have = true;
    }
    if (after_start) after_start();
  }
  return best;
}

PcaResult pca(const Matrix& rows) {
  PcaResult res;
  if (rows.size() < 2) return res;
  const Matrix z = zscore(rows);
  const auto n = static_cast<Eigen::Index>(z.size()), dims = static_cast<Eigen::Index>(z.front().size());
  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(dims, dims);
  for (const auto& r : z) {
    const Eigen::Map<const Eigen::VectorXd> v(r.data(), dims);
    cov.noalias() += v * v.transpose();
  }
  cov /= static_cast<double>(n);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(cov);
  const Eigen::VectorXd values = solver.eigenvalues();  // ascending
  const double total = std::max(values.sum(), 1e-300);
  for (Eigen::Index c = dims - 1; c >= 0; --c) {
    res.explained.push_back(std::max(values(c), 0.0) / total);
    std::vector<double> comp(static_cast<size_t>(dims));
    for (Eigen::Index j = 0; j < dims; ++j) comp[static_cast<size_t>(j)] = solver.eigenvectors()(j, c);
    // Sign convention: the largest loading positive (deterministic output).
    const auto it = std::max_element(comp.begin(), comp.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
    if (*it < 0)
      for (double& x : comp) x = -x;
    res.components.push_back(std::move(comp));
  }
  return res;
}

}  // namespace schedlab::analysis
