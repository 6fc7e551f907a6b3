// THE table of predictors. To add one: write its file, then add one line here.
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "schedlab/predict/basic_predictors.h"
#include "schedlab/predict/registry.h"

namespace schedlab::predict {

template <typename T>
static std::unique_ptr<Predictor> make(const PredictorConfig& /*config*/) {
  return std::make_unique<T>();
}

const std::vector<PredictorEntry>& predictors() {
  static const std::vector<PredictorEntry> table = {
      {"estimate", "the user's runtime estimate (the runtime when the log has none); default", make<EstimatePredictor>},
      {"perfect", "the job's actual runtime (an oracle, for upper bounds)", make<PerfectPredictor>},
  };
  return table;
}

std::unique_ptr<Predictor> make_predictor(std::string_view name, const PredictorConfig& config) {
  std::string known;
  for (const auto& entry : predictors()) {
    if (entry.name == name) return entry.make(config);
    known += known.empty() ? "" : ", ";
    known += entry.name;
  }
  throw std::invalid_argument(fmt::format("unknown predictor '{}' (known: {})", name, known));
}

}  // namespace schedlab::predict
