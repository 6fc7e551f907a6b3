// Estimate models applied to a log: field 9 (requested time) of every job with a known runtime (>= 0) is
// replaced; jobs with an unknown runtime (< 0) keep their field 9 and are counted. Every model gives an
// estimate >= 1 s.
//
// Models (docs/estimate-models.md "Earlier models", song-estimates.md):
//   accurate  E = max(R, 1)
//   f         E = R + round(u f R), u uniform in [0, 1): E ~ U[R, (f+1)R]            (parameter f >= 0)
//   feit      E = max(R, min(round(R / u), max)), u uniform in (0, 1], max = 24 h    (parameter max)
//   x2        E = 2 x the job's own estimate (jobs without one: 2 R), saturating at 2^31 - 1
//   shfl      the log's own estimates randomly shuffled between its jobs with an estimate by the random-shuffle
//             algorithm; the constraint uses min(R, own estimate) (Decision: as if each job were killed at its
//             own estimate, which keeps the shuffle always feasible when logs have runtimes above estimates)
//   tsafrir   the modal model's bins for N = the jobs to assign, then the random-shuffle assignment
//   song      the runtime-conditioned model
// Uniforms come from base::Rng's raw 64-bit words (top 53 bits), never from <random> distributions.
//
// Parameters are a JSON object (from a model file written by `schedlab estimates fit`, and/or "k=v,k=v"
// text); unknown keys are errors.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/base/params.h"
#include "schedlab/base/random.h"
#include "schedlab/model/estimate_bins.h"
#include "schedlab/model/song.h"
#include "schedlab/model/tsafrir.h"
#include "schedlab/swf/record.h"

namespace schedlab::model {

struct GenerateReport {
  std::string model;
  int64_t assigned = 0;             // jobs given a new estimate
  int64_t unknown_runtime = 0;      // jobs left unchanged (runtime < 0)
  int64_t truncated_runtimes = 0;   // tsafrir: runtimes above T_max treated as T_max
  int64_t raised_to_tmax = 0;       // tsafrir: estimates raised to T_max so that every runtime is covered
  int64_t capped = 0;               // estimates above 2^31 - 1 s set to it (with a warning)
  std::string parameters;           // one-line description of the parameters used (for the header note)
  std::vector<std::string> warnings;
};

// {"parameters", "assigned", "unchanged", "truncated_runtimes", "raised_to_tmax", "capped", "warnings"}
nlohmann::ordered_json to_json(const GenerateReport& report);

// Parses "k=v,k=v" into a JSON object. Values: numbers become numbers; everything else stays a string — a
// duration with a unit ("18h", "5m", "1.5h") too, read in seconds by the model whose parameter declares a
// duration. Throws ModelError.
nlohmann::json parse_params_text(const std::string& text);
// Parameters from several items merged left to right (a later key wins): each is "k=v,k=v" text
// (parse_params_text), a JSON object given inline (text starting with '{', e.g. a fitted model held in memory)
// or, without '=', the path of a file holding one JSON object (a fitted model of `estimates fit`). Throws
// ModelError naming the file when it cannot be read or is not a JSON object.
nlohmann::json load_params(const std::vector<std::string>& items);
// A model named as a sweep spec names it, "NAME" or "NAME:k=v,k=v": its name and its parameter text ("" without
// ':'), for load_params ahead of any further items (`estimates generate --model f:f=3`, as in a sweep).
std::pair<std::string, std::string> split_model_spec(const std::string& spec);
// A duration "3600", "60m", "18h", "1d", "90s" in seconds (base/duration.h), 1 s to 2^31 - 1 s. Throws
// ModelError.
int32_t parse_duration(const std::string& text);

// The estimate models, by name, each with its parameters declared (base/params.h): a parameter the model
// does not declare, or a value of the wrong type or out of range, is a ModelError naming it. Parameters
// that are lists or objects (a fitted model's bins, regression, ...) are read by the model itself.
struct EstimateModelEntry {
  std::string_view name;
  std::string_view description;
  std::vector<base::ParamDecl> params;
  void (*apply)(const nlohmann::json& params, const base::Params& typed, std::vector<swf::Record>& records,
                base::Rng& rng, GenerateReport& rep);
  bool random = true;  // its estimates depend on the seed (accurate and x2: the same for every seed)
};
const std::vector<EstimateModelEntry>& estimate_models();
// The model names accepted by apply_estimate_model, in table order.
const std::vector<std::string>& estimate_model_names();
// Whether model `name`'s estimates depend on the seed: its entry's `random`; "real" (the log's own estimates, not
// a model) does not. An unknown name is a ModelError.
bool estimate_model_is_random(const std::string& name);

// The checks apply_estimate_model makes before it touches a record: the model's name, every parameter declared,
// scalar values of the declared type and range. Throws ModelError naming the model and the parameter (for a
// spec or the command line to refuse before any log is read). List or object values are checked when applied.
void check_estimate_model(const std::string& name, const nlohmann::json& params);

// Applies model `name` with parameters `params` (a JSON object, possibly empty) to `records` in place.
// Models needing training (tsafrir without tmax, song without regression) train on `records` themselves.
// A LogDataError (the log cannot serve the model: no estimate to train on, say) starts with "SOURCE: " when
// `source` (the log's path) is given; an error of the parameters names no log.
GenerateReport apply_estimate_model(const std::string& name, const nlohmann::json& params,
                                    std::vector<swf::Record>& records, uint64_t seed, const std::string& source = {});
// The header note of a log whose estimates a model replaced (`estimates generate`, Python's generate_estimates):
// "field 9 (requested time) replaced by schedlab VERSION estimates generate --model NAME --seed S (PARAMETERS)".
std::string estimate_model_note(const GenerateReport& report, uint64_t seed);

// Which estimate a fit takes as T_max: the log's limit (kLimit, the default: the largest estimate at least 1 in
// 2,000 jobs used, model/estimate_bins.h), its largest estimate (kLargest: the paper's reading of a clean log,
// "max"), or a given value.
struct TmaxChoice {
  enum class Rule { kLimit, kLargest, kGiven } rule = Rule::kLimit;
  int32_t seconds = 0;  // kGiven
};
// "limit", "max" or a duration ("18h", "64800"); throws ModelError naming `what` (e.g. "--tmax").
TmaxChoice parse_tmax_choice(const std::string& text, const std::string& what);
std::string to_string(const TmaxChoice& choice);  // "limit", "max" or the seconds

// The tsafrir model fitted to a log: N, T_max (by `choice`), T_max's share, the `top` (0..kHeadSize-1) most popular
// other values below T_max. Throws ModelError when the log has no estimates or `top` is out of range.
struct TsafrirFit {
  int32_t t_max = 0;
  double t_max_share = 0;  // percent of the jobs with an estimate
  TmaxChoice t_max_choice;
  int32_t largest = 0;       // the log's largest estimate
  int64_t above_t_max = 0;   // jobs whose estimate is above T_max (their runtimes may be too: generate warns)
  struct Bin {
    int32_t time = 0;
    double share = 0;  // percent
  };
  std::vector<Bin> bins;  // by popularity
  int64_t jobs = 0, without_estimate = 0, distinct = 0, t_max_popularity_rank = 0;
  int64_t k_model = 0;  // the model's number of bins for N jobs (tsafrir_k)
};
TsafrirFit fit_tsafrir(const std::vector<swf::Record>& records, int top, const TmaxChoice& choice = {});
// The fit as the JSON parameter document that apply_estimate_model reads.
nlohmann::ordered_json to_json(const TsafrirFit& fit);

// The parameters of the tsafrir model from a JSON document, for `n` jobs. `fallback_tmax` (0 = none) is used
// when the document gives no tmax.
TsafrirParams tsafrir_params_from_json(const nlohmann::json& params, int64_t n, int32_t fallback_tmax);

}  // namespace schedlab::model
