// The runtime-conditioned estimate model of Song, Ernemann and Yahyapour (docs/estimate-models.md).
//
// Fitting (fit_song):
// - Training jobs: runtime RRT >= 0 and an estimate E > 0; accuracy = RRT / E. For the Beta family jobs with
//   accuracy > 1.1 are dropped (counted); the Gamma family (LANL-like logs) keeps them.
// - Groups G_i = {jobs : floor(ln RRT) = i}, RRT = 0 (and RRT = 1) in group 0.
// - Per group with at least `min_group_jobs` jobs: Beta(p, q) on [0, 1.1] by maximum likelihood (Newton on
//   the log-likelihood with Boost.Math digamma/trigamma, started from the method of moments); accuracies are
//   clamped into [1e-9, 1 - 1e-9] of the unit interval (only accuracy 0, i.e. RRT = 0, and 1.1 are affected).
//   Gamma family: Gamma(shape k, scale theta) with location 0 (Decision: the paper's 3-parameter Gamma with a
//   location parameter is not identifiable per group; accuracies are > 0 once RRT >= 1) by maximum likelihood.
// - Regressions over the fitted groups (ordinary least squares, unweighted, one point per group), with the
//   group's x = mean of ln(max(RRT, 1)) over its jobs (Decision: the group's mean log runtime, so the
//   regression is evaluated at the same x at generation time):
//     Beta:  ln p = a1 x + b1;  ln(ln q) = a2 x + b2 (groups with q <= 1 left out of the q regression).
//     Gamma: ln k = a1 x + b1;  ln theta = a2 x + b2.
//   With one usable group the slope is 0; with none fitting fails.
// - cap = the largest of the training logs' limits (model/estimate_bins.h: the largest estimate at least 1 in 2,000
//   jobs used). The paper bounds the estimates by "the highest value of all jobs" so that the modelled squashed
//   area stays near the log's; a few jobs above a site's limit (CEA-Curie: 2^31 - 1 s) made the bound no bound.
//
// Generation (song_estimate): x = ln(max(RRT, 1)); p, q from the regressions; accuracy = 1.1 Beta(p, q)
// (Gamma: accuracy ~ Gamma(k, theta)); E = max(RRT, 1) / accuracy; with probability align_prob rounded to the
// nearest multiple of 1 min (60 s <= E < 5 min), 5 min (5 min <= E < 1 h), 20 min (1 h <= E <= 4 h), 1 h (> 4 h)
// (E < 60 s is not aligned); then E = min(E, max(cap, RRT)); at least 1 s. Runtimes < 0 are not given an
// estimate by the caller.
// Random variates: Boost.Random beta_distribution / gamma_distribution driven by base::Rng (portable
// engine; the Boost algorithms are fixed code, so the sequence does not depend on the standard library).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/base/random.h"
#include "schedlab/swf/record.h"

namespace schedlab::model {

enum class SongFamily { kBeta, kGamma };

struct SongGroup {
  int group = 0;         // floor(ln RRT)
  int64_t jobs = 0;
  double x = 0;          // mean ln(max(RRT, 1))
  bool fitted = false;   // enough jobs
  double p = 0, q = 0;   // Beta shapes, or Gamma shape (p) and scale (q)
  bool in_q_regression = false;
};

struct SongModel {
  SongFamily family = SongFamily::kBeta;
  double a1 = 0, b1 = 0, a2 = 0, b2 = 0;
  int32_t cap = 0;             // maximal estimate, seconds
  double align_prob = 0.8;
  double accuracy_max = 1.1;   // Beta support upper bound
  int64_t training_jobs = 0;   // jobs used for fitting
  int64_t dropped_over = 0;    // dropped for accuracy > accuracy_max (Beta)
  int64_t without_estimate = 0;  // training records without an estimate or runtime
  std::vector<SongGroup> groups;
  std::vector<std::string> sources;  // training logs
};

struct SongFitOptions {
  SongFamily family = SongFamily::kBeta;
  int64_t min_group_jobs = 10;
};

// Fits the model on the pooled jobs of one or more logs. Throws ModelError when no group can be fitted
// (e.g. no job has an estimate).
SongModel fit_song(const std::vector<const std::vector<swf::Record>*>& logs, const SongFitOptions& options = {});

// Maximum-likelihood Beta(p, q) fit of values in (0, 1) (clamped). Returns false when it cannot fit.
bool fit_beta_ml(const std::vector<double>& x, double& p, double& q);
// Maximum-likelihood Gamma(shape, scale) of positive values. Returns false when it cannot fit.
bool fit_gamma_ml(const std::vector<double>& x, double& shape, double& scale);

// Aligns an estimate as the model does (always; the caller draws the 0.8).
int64_t song_align(int64_t e);

// One estimate for runtime `rrt` (>= 0).
int32_t song_estimate(const SongModel& m, int32_t rrt, base::Rng& rng);

nlohmann::ordered_json song_to_json(const SongModel& m);
SongModel song_from_json(const nlohmann::json& j);  // throws ModelError on a malformed document

}  // namespace schedlab::model
