// The two reference predictors.
// - `estimate` (default): the prediction is the user estimate (the runtime when the log gives none); never
//   updated, so a job running past its estimate counts as ending now for the scheduler. O(1) per event.
// - `perfect`: the prediction is the job's actual (simulated) runtime. O(1) per event.
// - `constant`: every job is predicted `value` seconds (parameter value=N, default 1 — the thesis's best
//   constant); never updated by itself (pair it with a correction). O(1) per event.
#pragma once

#include <memory>

#include "schedlab/predict/predictor.h"

namespace schedlab::predict {

class EstimatePredictor final : public Predictor {
 public:
  std::unique_ptr<Predictor> clone() const override { return std::make_unique<EstimatePredictor>(*this); }
  std::string_view name() const override { return "estimate"; }
  int64_t on_arrival(int64_t now, const Job& job, Updates& updates) override;
};

class PerfectPredictor final : public Predictor {
 public:
  std::unique_ptr<Predictor> clone() const override { return std::make_unique<PerfectPredictor>(*this); }
  std::string_view name() const override { return "perfect"; }
  int64_t on_arrival(int64_t now, const Job& job, Updates& updates) override;
};

class ConstantPredictor final : public Predictor {
 public:
  explicit ConstantPredictor(int64_t value = 1) : value_(value) {}
  std::unique_ptr<Predictor> clone() const override { return std::make_unique<ConstantPredictor>(*this); }
  std::string_view name() const override { return "constant"; }
  int64_t on_arrival(int64_t now, const Job& job, Updates& updates) override;

 private:
  int64_t value_;
};

}  // namespace schedlab::predict
