#include "schedlab/model/estimate_fit.h"

#include <string>
#include <string_view>

#include <fmt/core.h>

#include "schedlab/model/tsafrir.h"

namespace schedlab::model {

const std::vector<std::string>& fittable_estimate_models() {
  static const std::vector<std::string> names = {"tsafrir", "song"};
  return names;
}

const std::vector<std::string>& song_fit_families() {
  static const std::vector<std::string> names = {"beta", "gamma"};
  return names;
}

namespace {

// The options of the model not named: given, they would change nothing, so they are refused.
void refuse_other_models_option(bool given, std::string_view option, std::string_view model) {
  if (given) throw ModelError(fmt::format("{} applies to the {} model only", option, model));
}

}  // namespace

void check_estimate_fit_options(const EstimateFitOptions& o, size_t logs) {
  if (o.model == "tsafrir") {
    if (logs != 1) throw ModelError(fmt::format("the tsafrir model is fitted to one log (got {})", logs));
    refuse_other_models_option(o.family.has_value(), "--family", "song");
    refuse_other_models_option(o.min_group_jobs.has_value(), "--min-group-jobs", "song");
    const int64_t top = o.top.value_or(kDefaultTsafrirTop);
    if (top < 0 || top >= kHeadSize) throw ModelError(fmt::format("--top must be in 0..{}", kHeadSize - 1));
    parse_tmax_choice(o.tmax.value_or("limit"), "--tmax");
  } else if (o.model == "song") {
    if (logs < 1) throw ModelError("the song model needs at least one log");
    refuse_other_models_option(o.top.has_value(), "--top", "tsafrir");
    refuse_other_models_option(o.tmax.has_value(), "--tmax", "tsafrir");
    const std::string family = o.family.value_or("beta");
    if (family != "beta" && family != "gamma")
      throw ModelError(fmt::format("--family must be beta or gamma (got {})", family));
    if (o.min_group_jobs && *o.min_group_jobs < 1)
      throw ModelError(fmt::format("--min-group-jobs must be at least 1 (got {})", *o.min_group_jobs));
  } else {
    throw ModelError(fmt::format("--model must be tsafrir or song (got {})", o.model));
  }
}

EstimateFit fit_estimate_model(const std::vector<const std::vector<swf::Record>*>& logs,
                               const std::vector<std::string>& sources, const EstimateFitOptions& o) {
  check_estimate_fit_options(o, logs.size());
  if (sources.size() != logs.size()) throw ModelError("fit_estimate_model: one source name per log");
  EstimateFit fit;
  if (o.model == "tsafrir") {
    try {
      fit.tsafrir = fit_tsafrir(*logs.front(), static_cast<int>(o.top.value_or(kDefaultTsafrirTop)),
                                parse_tmax_choice(o.tmax.value_or("limit"), "--tmax"));
    } catch (const LogDataError& e) {  // a log without estimates: say which
      throw LogDataError(fmt::format("{}: {}", sources.front(), e.what()));
    }
    fit.file = to_json(*fit.tsafrir);
    fit.file["info"]["source"] = sources.front();
    return fit;
  }
  SongFitOptions so;
  so.family = o.family.value_or("beta") == "gamma" ? SongFamily::kGamma : SongFamily::kBeta;
  so.min_group_jobs = o.min_group_jobs.value_or(so.min_group_jobs);
  try {
    fit.song = fit_song(logs, so);
  } catch (const LogDataError& e) {  // too few jobs with estimates: say in which logs, pooled
    std::string names;
    for (const auto& s : sources) names += (names.empty() ? "" : ", ") + s;
    throw LogDataError(fmt::format("{}: {}", names, e.what()));
  }
  fit.song->sources = sources;
  fit.file = song_to_json(*fit.song);
  return fit;
}

}  // namespace schedlab::model
