// THE table of predictors. To add one: write its file, then add one line here.
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "schedlab/predict/basic_predictors.h"
#include "schedlab/predict/correction.h"
#include "schedlab/predict/profiler_predictor.h"
#include "schedlab/predict/registry.h"
#include "schedlab/predict/sbh.h"
#include "schedlab/predict/spec.h"
#include "schedlab/predict/user_history.h"

namespace schedlab::predict {

template <typename T>
static std::unique_ptr<Predictor> make(const PredictorConfig& config) {
  ParamReader(T{}.name(), config.params).finish();
  return std::make_unique<T>();
}

static std::unique_ptr<Predictor> make_constant(const PredictorConfig& config) {
  ParamReader r("constant", config.params);
  const int64_t value = r.get_int("value", 1, 0);
  r.finish();
  return std::make_unique<ConstantPredictor>(value);
}

const std::vector<PredictorEntry>& predictors() {
  static const std::vector<PredictorEntry> table = {
      {"estimate", "the user's runtime estimate (the runtime when the log has none); default", make<EstimatePredictor>},
      {"perfect", "the job's actual runtime (an oracle, for upper bounds)", make<PerfectPredictor>},
      {"constant", "the same prediction for every job", make_constant, "value=SECONDS (1)"},
      {"user-last2", "mean runtime of the user's 2 most recent finished jobs, <= estimate (Tsafrir 2007)",
       make_user_last2, "order=submit|end (submit), propagate=0|1 (0)"},
      {"ruh", "median runtime of the user's last 3 terminated jobs, else the estimate (Talby RUH)", make_ruh,
       "jobs=N (3), propagate=0|1 (0)"},
      {"sbh", "session-based history: median over the newest similar session's jobs (Talby SBH)", make_sbh,
       "criteria=PE,P,E,* order=dfs|bfs depth=N(0=all) propagate=0|1(1) think=1200 noest=0|1 initial=1 "
       "factor=10 cap=0"},
      {"profiler", "Gibbons's historical profiler: (exe,user) -> exe -> system fit T(p)=a/p+b+cp, learns online",
       make_profiler, "confidence=0<C<1 (0.95), bound=upper|mean (upper), db=FILE, train=FILE.swf"},
  };
  return table;
}

std::unique_ptr<Predictor> make_predictor(std::string_view text, const PredictorConfig& config) {
  PredictorSpec spec = parse_predictor_spec(text);
  for (const auto& [k, v] : config.params) {
    if (!spec.params.emplace(k, v).second) {
      throw std::invalid_argument(fmt::format("predictor parameter '{}' given twice", k));
    }
  }
  Correction correction = Correction::kNone;
  if (const auto it = spec.params.find("correction"); it != spec.params.end()) {
    correction = parse_correction(it->second);
    spec.params.erase(it);
  }
  std::string known;
  for (const auto& entry : predictors()) {
    if (entry.name == spec.name) {
      auto p = entry.make(PredictorConfig{config.seed, spec.params});
      if (correction != Correction::kNone) p = std::make_unique<CorrectedPredictor>(std::move(p), correction);
      return p;
    }
    known += known.empty() ? "" : ", ";
    known += entry.name;
  }
  throw std::invalid_argument(fmt::format("unknown predictor '{}' (known: {})", spec.name, known));
}

}  // namespace schedlab::predict
