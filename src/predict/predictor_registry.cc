// THE table of predictors. To add one: write its file, then add one line here.
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "schedlab/base/params.h"
#include "schedlab/predict/basic_predictors.h"
#include "schedlab/predict/correction.h"
#include "schedlab/predict/profiler_predictor.h"
#include "schedlab/predict/registry.h"
#include "schedlab/predict/sbh.h"
#include "schedlab/predict/spec.h"
#include "schedlab/predict/user_history.h"
#include "schedlab/base/nearest.h"

namespace schedlab::predict {

template <typename T>
static std::unique_ptr<Predictor> make(const PredictorConfig&, const base::Params&) {
  return std::make_unique<T>();
}

static std::unique_ptr<Predictor> make_constant(const PredictorConfig&, const base::Params& p) {
  return std::make_unique<ConstantPredictor>(p.get_int("value"));
}

const std::vector<PredictorEntry>& predictors() {
  static const std::vector<PredictorEntry> table = {
      {"estimate", "the user's runtime estimate (the runtime when the log has none); default", make<EstimatePredictor>},
      {"perfect", "the job's actual runtime (an oracle, for upper bounds)", make<PerfectPredictor>},
      {"constant", "the same prediction for every job", make_constant,
       {{.name = "value", .type = base::ParamType::kInt, .default_value = "1", .help = "the prediction, seconds",
         .min = 0, .metavar = "SECONDS"}}},
      {"user-last2", "mean runtime of the user's 2 most recent finished jobs, <= estimate (Tsafrir 2007)",
       make_user_last2, user_last2_params()},
      {"ruh", "median runtime of the user's last 3 terminated jobs, else the estimate (Talby RUH)", make_ruh,
       ruh_params()},
      {"sbh", "session-based history: median over the newest similar session's jobs (Talby SBH)", make_sbh,
       sbh_params()},
      {"profiler", "Gibbons's historical profiler: (exe,user) -> exe -> system fit T(p)=a/p+b+cp, learns online",
       make_profiler, profiler_params()},
  };
  return table;
}

std::unique_ptr<Predictor> make_predictor(std::string_view given, const PredictorConfig& config) {
  // "@PATH" relative to the directory of the file naming it; the paths inside that file relative to its own.
  const std::string text = base::spec_in_dir(given, config.files_dir);
  const std::string files_dir = base::spec_files_dir(text, config.files_dir);
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
  std::vector<std::string> names;
  for (const auto& entry : predictors()) {
    if (entry.name == spec.name) {
      const base::Params params(fmt::format("predictor {}", entry.name), entry.parameters, spec.params, files_dir);
      auto p = entry.make(PredictorConfig{config.seed, spec.params, files_dir}, params);
      if (correction != Correction::kNone) p = std::make_unique<CorrectedPredictor>(std::move(p), correction);
      // What results call it: the parameters that differ from their defaults, and the correction, so that two
      // configurations never print alike and one written out in full prints as the short form.
      PredictorSpec label{spec.name, {}};
      for (const auto& [k, v] : spec.params)
        if (!params.at_default(k)) label.params.emplace(k, v);
      if (correction != Correction::kNone) label.params.emplace("correction", std::string(correction_name(correction)));
      p->set_label(format_predictor_spec(label));
      return p;
    }
    known += known.empty() ? "" : ", ";
    known += entry.name;
    names.emplace_back(entry.name);
  }
  throw std::invalid_argument(fmt::format("unknown predictor '{}' (known: {}){}", base::excerpt(spec.name), known,
                                          base::did_you_mean(spec.name, names)));
}

}  // namespace schedlab::predict
