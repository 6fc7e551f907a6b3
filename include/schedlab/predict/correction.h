// Prediction correction: what a predictor's prediction becomes when a job outlives it (a deadline miss).
//
// Policies (`--correction NAME` on simulate/predict, or the `correction=NAME` parameter of any predictor spec):
// - none:    the prediction is left alone; the job counts as "ending now" for the scheduler until it ends.
// - tsafrir: PCOR of Tsafrir et al. 2007: if the old prediction was below the job's estimate, the new one is
//            the estimate; otherwise add, in turn (per job), 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 5 h,
//            10 h, 20 h, 50 h, 100 h to the old prediction (100 h again for every later miss).
// - double:  twice the old prediction (1 s when it was 0).
// - times10: ten times the old prediction (1 s when it was 0).
// The new prediction is always above the old one, i.e. above the elapsed runtime.
//
// CorrectedPredictor wraps any predictor: arrivals, starts and terminations go to the wrapped predictor;
// on a deadline miss the wrapped predictor is told first, then the policy sets the new prediction. Once a
// job has missed a deadline, the wrapped predictor's later updates for it (e.g. propagation) are ignored,
// so a correction is never undone. Per-job state: O(1); cost per event: that of the wrapped predictor.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/predict/predictor.h"

namespace schedlab::predict {

enum class Correction { kNone, kTsafrir, kDouble, kTimes10 };

// Throws std::invalid_argument listing the known names.
Correction parse_correction(std::string_view name);
std::string_view correction_name(Correction c);

inline constexpr std::array<int64_t, 11> kTsafrirSteps = {60,    300,   900,    1800,   3600,  7200,
                                                          18000, 36000, 72000, 180000, 360000};

// The prediction after a job with estimate `estimate` outlived `old`; `step` is the job's count of gradual
// steps taken so far (tsafrir), advanced by the call.
int64_t corrected_prediction(Correction c, int64_t old, int64_t estimate, int32_t& step);

// A predictor made by the caller (one of its own, e.g. written in Python) with a correction given by name: ""
// or "none" leave it as it is, any other wraps it in CorrectedPredictor, labelled as make_predictor labels a
// registered one ("LABEL:correction=NAME"). Throws std::invalid_argument on an unknown correction.
std::unique_ptr<Predictor> with_correction(std::unique_ptr<Predictor> p, std::string_view correction);

class CorrectedPredictor final : public Predictor {
 public:
  CorrectedPredictor(std::unique_ptr<Predictor> inner, Correction correction);
  CorrectedPredictor(const CorrectedPredictor& other);
  std::unique_ptr<Predictor> clone() const override { return std::make_unique<CorrectedPredictor>(*this); }
  std::string_view name() const override { return name_; }

  int64_t on_arrival(int64_t now, const Job& job, Updates& updates) override;
  void on_start(int64_t now, const Job& job, int64_t prediction, Updates& updates) override;
  void on_termination(int64_t now, const Job& job, int64_t start, Updates& updates) override;
  void on_deadline_miss(int64_t now, const Job& job, int64_t start, int64_t prediction, Updates& updates) override;

 private:
  void forward(Updates& updates);  // moves scratch_ into updates, dropping updates for corrected jobs
  std::unique_ptr<Predictor> inner_;
  Correction correction_;
  std::string name_;
  std::vector<int32_t> step_;     // per job: -1 = never missed, else gradual steps taken
  Updates scratch_;
};

}  // namespace schedlab::predict
