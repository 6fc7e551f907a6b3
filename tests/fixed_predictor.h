// A predictor of the caller's own, as a C++ user of the installed library (or the Python module) writes one:
// every job is predicted to run `value` seconds, the rule of the registered `constant:value=V`, so a test can
// check that an object runs exactly as the registered predictor with the same rule.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "schedlab/predict/predictor.h"

namespace schedlab::testing {

class FixedPredictor final : public predict::Predictor {
 public:
  explicit FixedPredictor(int64_t value) : value_(value) {}
  std::unique_ptr<predict::Predictor> clone() const override { return std::make_unique<FixedPredictor>(*this); }
  std::string_view name() const override { return "fixed"; }
  int64_t on_arrival(int64_t, const predict::Job&, predict::Updates&) override { return value_; }

 private:
  int64_t value_;
};

}  // namespace schedlab::testing
