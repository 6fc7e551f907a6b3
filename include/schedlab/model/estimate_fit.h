// `estimates fit` by name: an estimate model fitted to one or more logs, as the model file it writes (the
// parameters `estimates generate --params FILE` reads). One home for the CLI and the Python module.
//
// - "tsafrir" (fit_tsafrir): exactly one log; `tmax` "limit" (the log's limit, model/estimate_bins.h), "max" (its
//   largest estimate) or a duration; `top` most popular values below T_max (0..kHeadSize-1); the file names the
//   log in info.source.
// - "song" (fit_song): the logs' jobs pooled; `family` "beta" or "gamma" (LANL-like logs), groups of fewer than
//   `min_group_jobs` jobs are not fitted; the file names the logs in its sources.
// An option left unset takes its default (top 2, tmax "limit", family "beta", min_group_jobs 10); an option of the
// other model is refused rather than silently unused (--tmax given with song would change nothing).
// Bad options (an unknown model, two logs for tsafrir, a family, top out of range, a tmax, another model's option)
// throw ModelError naming the option, before any fitting.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/model/estimate_models.h"
#include "schedlab/model/song.h"
#include "schedlab/swf/record.h"

namespace schedlab::model {

// The tsafrir fit's default number of popular values kept as user bins below T_max.
inline constexpr int64_t kDefaultTsafrirTop = 2;

struct EstimateFitOptions {
  std::string model = "tsafrir";
  std::optional<int64_t> top;             // tsafrir (2)
  std::optional<std::string> tmax;        // tsafrir ("limit")
  std::optional<std::string> family;      // song ("beta")
  std::optional<int64_t> min_group_jobs;  // song (10)
};

struct EstimateFit {
  std::optional<TsafrirFit> tsafrir;  // the fit of the model named
  std::optional<SongModel> song;
  nlohmann::ordered_json file;        // the model file
};

// The models `fit_estimate_model` fits ("tsafrir", "song") and the song model's families ("beta", "gamma").
const std::vector<std::string>& fittable_estimate_models();
const std::vector<std::string>& song_fit_families();

// Throws ModelError on a bad option (as above) without looking at any log.
void check_estimate_fit_options(const EstimateFitOptions& options, size_t logs);

// `logs` and their names `sources` (as many).
EstimateFit fit_estimate_model(const std::vector<const std::vector<swf::Record>*>& logs,
                               const std::vector<std::string>& sources, const EstimateFitOptions& options);

}  // namespace schedlab::model
