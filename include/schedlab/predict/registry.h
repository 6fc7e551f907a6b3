// The predictor registry: every predictor the simulator can use, by name. The table lives in ONE file,
// src/predict/predictor_registry.cc (no self-registration): adding a predictor = one new file + one line.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/predict/predictor.h"

namespace schedlab::predict {

struct PredictorEntry {
  std::string_view name;
  std::string_view description;  // one line
  std::function<std::unique_ptr<Predictor>(const PredictorConfig&)> make;
};

// All registered predictors, in the order they are listed to users.
const std::vector<PredictorEntry>& predictors();

// Makes the predictor called `name`; throws std::invalid_argument listing the known names if unknown.
std::unique_ptr<Predictor> make_predictor(std::string_view name, const PredictorConfig& config = {});

// The name of the default predictor ("estimate").
inline constexpr std::string_view kDefaultPredictor = "estimate";

}  // namespace schedlab::predict
