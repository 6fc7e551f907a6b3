// `profiler`: the historical application profiler (predict/profiler.h, Gibbons 1997) as a simulation
// predictor, learning online from the jobs as they finish.
//
// Spec: `profiler[:confidence=0.95;bound=upper;db=FILE;train=FILE.swf]`
//   confidence  0 < δ < 1 (0.95): the confidence of the interval.
//   bound       upper|mean (upper): predict the upper end of the interval, estimate + half-width (what the
//               thesis's schedulers use: "the greatest value in a 95% confidence interval"), or the estimate.
//   db          a database made by `schedlab profiler ingest` (predict/profiler_db.h): the starting repository.
//   train       an SWF log whose jobs are learnt before the simulation starts (e.g. the thesis's 25 seed runs
//               per executable). db and train may be combined. Neither should be the simulated log itself,
//               or the predictor knows the future.
//
// Arrival: getEstimate(executable, user, procs, attained 0, δ) through the fallback chain; the prediction is
// ⌈bound⌉ seconds. When the repository has nothing to say (it is empty) the prediction is the job's user
// estimate (the runtime when the log gives none).
// Termination: the job is added to the repository with runtime = now − start (what the machine saw).
// Deadline miss (the job has run R = its prediction, and is still running) — Decision, the thesis gives the
// correction rule but not how a simulator should re-predict:
//   1. re-query with attained time R: only data of jobs that ran at least about R count, and when the job has
//      outlived E + 3·CI Gibbons's correction replaces E by E' = ⌈R/E⌉·E (predict/profiler.h get_estimate,
//      corrected_estimate); if ⌈bound⌉ (E' + CI with bound=upper) > R, that is the new prediction;
//   2. otherwise R <= E + 3·CI, where the thesis keeps E although E < R: the new prediction is ⌈E + 3·CI⌉, the
//      point from which the thesis would correct;
//   3. when no job in the repository ran as long as R (the query fails): the user estimate when it is above
//      R, else 2·R (so misses stay logarithmic in the runtime);
//   the new prediction is always at least R + 1. Conditioning keeps a bucket mean above R/2, so predictions
//   usually grow by a factor per miss (a fit extrapolated below its data can take smaller steps).
// Costs: one query per arrival and per miss (O(entries of the categories tried) plus a 3×3 solve), O(1) map
// updates per termination; no per-job state.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "schedlab/base/params.h"
#include "schedlab/predict/predictor.h"
#include "schedlab/predict/profiler.h"

namespace schedlab::predict {

struct ProfilerOptions {
  double confidence = 0.95;
  bool upper = true;  // bound=upper (estimate + half-width); false: bound=mean
};

class ProfilerPredictor final : public Predictor {
 public:
  explicit ProfilerPredictor(ProfilerOptions options, profiler::Repository start = {});
  std::unique_ptr<Predictor> clone() const override { return std::make_unique<ProfilerPredictor>(*this); }
  std::string_view name() const override { return "profiler"; }

  int64_t on_arrival(int64_t now, const Job& job, Updates& updates) override;
  void on_termination(int64_t now, const Job& job, int64_t start, Updates& updates) override;
  void on_deadline_miss(int64_t now, const Job& job, int64_t start, int64_t prediction, Updates& updates) override;

  const profiler::Repository& repository() const { return repo_; }
  // Arrivals answered by the repository / by the user estimate (for tests and reports).
  int64_t answered() const { return answered_; }
  int64_t fallbacks() const { return fallbacks_; }

 private:
  double bound(const profiler::Estimate& e) const { return options_.upper ? e.estimate + e.half_width : e.estimate; }
  ProfilerOptions options_;
  profiler::Repository repo_;
  int64_t answered_ = 0, fallbacks_ = 0;
};

// The registry's factory: parameters confidence, bound, db, train (see above).
std::unique_ptr<Predictor> make_profiler(const PredictorConfig& config, const base::Params& params);
const std::vector<base::ParamDecl>& profiler_params();

}  // namespace schedlab::predict
