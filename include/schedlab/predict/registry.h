// The predictor registry: every predictor the simulator can use, by name. The table lives in ONE file,
// src/predict/predictor_registry.cc (no self-registration): adding a predictor = one new file + one line.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/base/params.h"
#include "schedlab/predict/predictor.h"

namespace schedlab::predict {

struct PredictorEntry {
  std::string_view name;
  std::string_view description;  // one line
  // Makes the predictor from checked parameters (every declared one has its given value or its default).
  std::function<std::unique_ptr<Predictor>(const PredictorConfig&, const base::Params&)> make;
  std::vector<base::ParamDecl> parameters = {};  // base/params.h; `correction` is common to all, not listed
};

// All registered predictors, in the order they are listed to users.
const std::vector<PredictorEntry>& predictors();

// Makes a predictor from a spec (predict/spec.h: NAME[:KEY=VALUE;...]); config.params are added to the
// spec's parameters (a key in both is an error). The common parameter `correction` wraps the predictor in
// CorrectedPredictor (predict/correction.h). Throws std::invalid_argument on an unknown name (listing the
// known ones), an unknown parameter (listing the predictor's) or a bad value.
std::unique_ptr<Predictor> make_predictor(std::string_view spec, const PredictorConfig& config = {});

// The name of the default predictor ("estimate").
inline constexpr std::string_view kDefaultPredictor = "estimate";

}  // namespace schedlab::predict
