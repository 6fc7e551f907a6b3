#include "schedlab/model/estimate_models.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/core.h>

#include "schedlab/base/count_text.h"
#include "schedlab/base/duration.h"
#include "schedlab/base/json_parse.h"
#include "schedlab/base/version.h"
#include "schedlab/trace/conventions.h"
#include "schedlab/base/nearest.h"

namespace schedlab::model {
namespace {

constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();

// An estimate in the SWF field's range; one above it is capped, and counted (a warning, not a silent clamp).
int32_t saturate(double v, GenerateReport& rep) {
  if (!(v <= static_cast<double>(kInt32Max))) {  // above the field (or NaN); exactly its largest value is no cap
    ++rep.capped;
    return kInt32Max;
  }
  return static_cast<int32_t>(std::max(1.0, v));
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

bool parse_double(const std::string& s, double& v) {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, v);
  return ec == std::errc() && ptr == end && std::isfinite(v);
}

void check_keys(const nlohmann::json& params, const std::string& model, const std::set<std::string>& allowed) {
  if (!params.is_object()) throw ModelError(fmt::format("{} model: parameters must be a JSON object", model));
  for (const auto& [key, value] : params.items()) {
    if (key == "model") {
      if (!value.is_string() || value.get<std::string>() != model)
        throw ModelError(fmt::format("parameters are for model \"{}\", not \"{}\"",
                                     value.is_string() ? value.get<std::string>() : value.dump(), model));
      continue;
    }
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw ModelError(fmt::format("{} model: unknown parameter \"{}\" (known: {})", model, key,
                                   list.empty() ? "none" : list));
    }
  }
}

double number(const nlohmann::json& params, const std::string& key, const std::string& model) {
  const auto& v = params.at(key);
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    double d = 0;
    if (parse_double(v.get<std::string>(), d)) return d;
  }
  throw ModelError(fmt::format("{} model: parameter {} must be a number (got {})", model, key, v.dump()));
}

int32_t duration(const nlohmann::json& params, const std::string& key, const std::string& model) {
  const auto& v = params.at(key);
  if (v.is_string()) return parse_duration(v.get<std::string>());
  const double d = number(params, key, model);
  if (!(d > 0 && d <= kInt32Max) || d != std::floor(d))
    throw ModelError(fmt::format("{} model: {} must be a whole number of seconds > 0 (got {})", model, key, v.dump()));
  return static_cast<int32_t>(d);
}

std::vector<int32_t> runtimes_of(const std::vector<swf::Record>& records, std::vector<size_t>& jobs,
                                 GenerateReport& rep) {
  std::vector<int32_t> rt;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].run_time < 0) {
      ++rep.unknown_runtime;
      continue;
    }
    jobs.push_back(i);
    rt.push_back(records[i].run_time);
  }
  rep.assigned = static_cast<int64_t>(jobs.size());
  return rt;
}

void apply_accurate([[maybe_unused]] const nlohmann::json& params, [[maybe_unused]] const base::Params& typed,
                   std::vector<swf::Record>& records, [[maybe_unused]] base::Rng& rng, GenerateReport& rep) {
  [[maybe_unused]] const std::string name = "accurate";
  std::vector<size_t> jobs;

  runtimes_of(records, jobs, rep);
  for (const size_t i : jobs) records[i].requested_time = std::max<int32_t>(records[i].run_time, 1);
}

void apply_f([[maybe_unused]] const nlohmann::json& params, [[maybe_unused]] const base::Params& typed,
                   std::vector<swf::Record>& records, [[maybe_unused]] base::Rng& rng, GenerateReport& rep) {
  [[maybe_unused]] const std::string name = "f";
  std::vector<size_t> jobs;

  if (!typed.given("f")) throw ModelError("f model: parameter f is required (e.g. f=3)");
  const double f = typed.get_double("f");
  rep.parameters = fmt::format("f={}", f);
  runtimes_of(records, jobs, rep);
  for (const size_t i : jobs) {
    const double r = records[i].run_time;
    records[i].requested_time = saturate(r + std::round(rng.uniform() * f * r), rep);
  }
}

void apply_feit([[maybe_unused]] const nlohmann::json& params, [[maybe_unused]] const base::Params& typed,
                   std::vector<swf::Record>& records, [[maybe_unused]] base::Rng& rng, GenerateReport& rep) {
  [[maybe_unused]] const std::string name = "feit";
  std::vector<size_t> jobs;

  const auto max = static_cast<int32_t>(typed.get_duration("max"));
  rep.parameters = fmt::format("max={}", max);
  runtimes_of(records, jobs, rep);
  for (const size_t i : jobs) {
    const double r = records[i].run_time;
    const double u = 1.0 - rng.uniform();  // (0, 1]
    records[i].requested_time = saturate(std::max(r, std::min(std::round(r / u), static_cast<double>(max))), rep);
  }
}

void apply_x2([[maybe_unused]] const nlohmann::json& params, [[maybe_unused]] const base::Params& typed,
                   std::vector<swf::Record>& records, [[maybe_unused]] base::Rng& rng, GenerateReport& rep) {
  [[maybe_unused]] const std::string name = "x2";
  std::vector<size_t> jobs;

  runtimes_of(records, jobs, rep);
  for (const size_t i : jobs) {
    const double base = trace::has_estimate(records[i]) ? records[i].requested_time : records[i].run_time;
    records[i].requested_time = saturate(2.0 * base, rep);
  }
}

void apply_shfl([[maybe_unused]] const nlohmann::json& params, [[maybe_unused]] const base::Params& typed,
                   std::vector<swf::Record>& records, [[maybe_unused]] base::Rng& rng, GenerateReport& rep) {
  [[maybe_unused]] const std::string name = "shfl";
  std::vector<size_t> jobs;

  std::vector<int32_t> rt, est;
  for (size_t i = 0; i < records.size(); ++i) {
    if (!trace::has_estimate(records[i])) {
      ++rep.unknown_runtime;
      continue;
    }
    jobs.push_back(i);
    est.push_back(records[i].requested_time);
    rt.push_back(std::min(std::max<int32_t>(records[i].run_time, 0), records[i].requested_time));
  }
  rep.assigned = static_cast<int64_t>(jobs.size());
  if (jobs.empty()) throw LogDataError("shfl model: the log has no estimates to shuffle");
  if (rep.unknown_runtime > 0)
    rep.warnings.push_back(
        fmt::format("shfl: {} without an estimate kept unchanged", base::counted(rep.unknown_runtime, "job")));
  const auto out = random_shuffle_assign(rt, std::move(est), rng);
  for (size_t k = 0; k < jobs.size(); ++k) records[jobs[k]].requested_time = out[k];
}

void apply_tsafrir([[maybe_unused]] const nlohmann::json& params, [[maybe_unused]] const base::Params& typed,
                   std::vector<swf::Record>& records, [[maybe_unused]] base::Rng& rng, GenerateReport& rep) {
  [[maybe_unused]] const std::string name = "tsafrir";
  std::vector<size_t> jobs;
  const EstimateBins b = estimate_bins(records);
  std::vector<int32_t> rt = runtimes_of(records, jobs, rep);
  if (jobs.empty()) throw LogDataError("tsafrir model: no job with a known runtime to assign estimates to");
  nlohmann::json p = params;
  if (!p.contains("tmax") && !p.contains("tmax_share") && b.jobs > 0)  // vanilla fit from the log itself: its limit
    p["tmax_share"] = 100.0 * b.limit_share;
  const TsafrirParams tp = tsafrir_params_from_json(p, static_cast<int64_t>(jobs.size()), b.limit);
  const auto bins = tsafrir_bins(tp, rng);
  std::vector<int32_t> est;
  est.reserve(jobs.size());
  for (const auto& bin : bins) est.insert(est.end(), static_cast<size_t>(bin.jobs), bin.time);
  for (auto& r : rt)
    if (r > tp.t_max) {
      r = tp.t_max;
      ++rep.truncated_runtimes;
    }
  if (rep.truncated_runtimes > 0)
    rep.warnings.push_back(fmt::format("tsafrir: {} above T_max = {} s {} treated as T_max",
                                       base::counted(rep.truncated_runtimes, "runtime"), tp.t_max,
                                       rep.truncated_runtimes == 1 ? "was" : "were"));
  rep.raised_to_tmax = raise_to_cover(rt, est, tp.t_max);
  if (rep.raised_to_tmax > 0) {
    const auto at_tmax = std::count(est.begin(), est.end(), tp.t_max);
    const auto percent = [&](int64_t n) { return 100.0 * static_cast<double>(n) / static_cast<double>(est.size()); };
    rep.warnings.push_back(fmt::format(
        "tsafrir: {} raised to T_max = {} s so that every job's estimate covers its runtime (the model "
        "gave fewer estimates of at least the longest runtimes than jobs): T_max's share {:.3g}% -> {:.3g}%",
        base::counted(rep.raised_to_tmax, "estimate"), tp.t_max, percent(at_tmax - rep.raised_to_tmax),
        percent(at_tmax)));
  }
  std::string ub;
  for (const auto& u : tp.user_bins) ub += fmt::format("{}{}:{:.4g}", ub.empty() ? "" : "/", u.time, u.share);
  rep.parameters = fmt::format("N={} K={} tmax={}{}{}{}", tp.n, bins.size(), tp.t_max,
                               tp.t_max_share ? fmt::format(" tmax_share={:.4g}", *tp.t_max_share) : "",
                               ub.empty() ? "" : " bins=" + ub,
                               tp.coefficients == TsafrirCoefficientSet::kReference ? " coefficients=ref" : "");
  const auto out = random_shuffle_assign(
      rt, std::move(est), rng,
      "give a larger tmax, or a larger tmax_share so that more long estimates exist");
  for (size_t k = 0; k < jobs.size(); ++k) records[jobs[k]].requested_time = out[k];
}

void apply_song([[maybe_unused]] const nlohmann::json& params, [[maybe_unused]] const base::Params& typed,
                   std::vector<swf::Record>& records, [[maybe_unused]] base::Rng& rng, GenerateReport& rep) {
  [[maybe_unused]] const std::string name = "song";
  std::vector<size_t> jobs;

  SongModel m;
  if (params.contains("regression")) {
    nlohmann::json doc = params;
    doc["model"] = "song";
    for (const char* k : {"a1", "b1", "a2", "b2"})
      if (params.contains(k)) doc["regression"][k] = number(params, k, name);
    if (doc.contains("cap")) doc["cap"] = duration(doc, "cap", name);
    if (doc.contains("align_prob")) doc["align_prob"] = number(doc, "align_prob", name);
    m = song_from_json(doc);
  } else {
    SongFitOptions fo;
    if (params.contains("family")) {
      const std::string f = params.at("family").is_string() ? params.at("family").get<std::string>() : "";
      if (f == "beta") fo.family = SongFamily::kBeta;
      else if (f == "gamma") fo.family = SongFamily::kGamma;
      else throw ModelError("song model: family must be beta or gamma");
    }
    if (params.contains("min_group_jobs")) fo.min_group_jobs = static_cast<int64_t>(number(params, "min_group_jobs", name));
    m = fit_song({&records}, fo);  // self-trained
    for (const char* k : {"a1", "b1", "a2", "b2"})
      if (params.contains(k)) throw ModelError(fmt::format("song model: {} needs a full regression (a model file)", k));
    if (params.contains("cap")) m.cap = duration(params, "cap", name);
    if (params.contains("align_prob")) m.align_prob = number(params, "align_prob", name);
    if (!(m.align_prob >= 0 && m.align_prob <= 1)) throw ModelError("song model: align_prob must be in [0, 1]");
  }
  rep.parameters = fmt::format("family={} a1={:.6g} b1={:.6g} a2={:.6g} b2={:.6g} cap={} align_prob={}",
                               m.family == SongFamily::kBeta ? "beta" : "gamma", m.a1, m.b1, m.a2, m.b2, m.cap,
                               m.align_prob);
  runtimes_of(records, jobs, rep);
  for (const size_t i : jobs) records[i].requested_time = song_estimate(m, records[i].run_time, rng);
}

// A JSON parameter value as the text base::Params checks: strings as they are, numbers in their shortest
// form (3.0 -> "3"), booleans as 1/0; nullopt for lists and objects (read by the model from the JSON).
std::optional<std::string> scalar_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return std::string(v.get<bool>() ? "1" : "0");
  if (v.is_number_integer()) return v.dump();
  if (v.is_number()) {
    const double d = v.get<double>();
    if (d == std::floor(d) && std::fabs(d) < 1e15) return fmt::format("{}", static_cast<int64_t>(d));
    return fmt::format("{}", d);
  }
  return std::nullopt;
}

}  // namespace

int32_t parse_duration(const std::string& text) {
  if (trim(text).empty()) throw ModelError("empty duration");
  const auto seconds = base::parse_duration(text);
  if (!seconds) throw ModelError(fmt::format("not a duration: \"{}\" (seconds, or a number with s/m/h/d/w)", text));
  if (!(*seconds >= 1 && *seconds <= kInt32Max)) throw ModelError(fmt::format("duration out of range: \"{}\"", text));
  return static_cast<int32_t>(*seconds);
}

nlohmann::ordered_json to_json(const GenerateReport& rep) {
  nlohmann::ordered_json j;
  j["parameters"] = rep.parameters;
  j["assigned"] = rep.assigned;
  j["unchanged"] = rep.unknown_runtime;
  j["truncated_runtimes"] = rep.truncated_runtimes;
  j["raised_to_tmax"] = rep.raised_to_tmax;
  j["capped"] = rep.capped;
  j["warnings"] = rep.warnings;
  return j;
}

nlohmann::json parse_params_text(const std::string& text) {
  nlohmann::json j = nlohmann::json::object();
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item = trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw ModelError(fmt::format("malformed parameter \"{}\": expected key=value", item));
    const std::string key = trim(item.substr(0, eq)), value = trim(item.substr(eq + 1));
    if (value.empty()) throw ModelError(fmt::format("parameter \"{}\" has no value", key));
    double d = 0;
    if (parse_double(value, d)) j[key] = d;
    else j[key] = value;
  }
  return j;
}

std::pair<std::string, std::string> split_model_spec(const std::string& spec) {
  const auto colon = spec.find(':');
  if (colon == std::string::npos) return {spec, ""};
  return {spec.substr(0, colon), spec.substr(colon + 1)};
}

nlohmann::json load_params(const std::vector<std::string>& items) {
  nlohmann::json params = nlohmann::json::object();
  for (const auto& item : items) {
    nlohmann::json part;
    const size_t first = item.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && item[first] == '{') {  // a JSON object given inline (a fitted model's)
      try {
        part = base::parse_json(item);
      } catch (const std::exception& e) {  // malformed, or nested too deep
        throw ModelError(fmt::format("parameters given as JSON: malformed: {}", e.what()));
      }
      if (!part.is_object()) throw ModelError("parameters given as JSON must be one object");
    } else if (item.find('=') != std::string::npos) {
      part = parse_params_text(item);
    } else {
      std::ifstream f(item, std::ios::binary);
      if (!f) throw ModelError(fmt::format("{}: cannot open the parameter file", item));
      std::stringstream ss;
      ss << f.rdbuf();
      try {
        part = base::parse_json(ss.str());
      } catch (const nlohmann::json::exception& e) {
        throw ModelError(fmt::format("{}: malformed parameter file (not JSON): {}", item, e.what()));
      } catch (const std::invalid_argument& e) {  // nested too deep
        throw ModelError(fmt::format("{}: malformed parameter file: {}", item, e.what()));
      }
      if (!part.is_object()) throw ModelError(fmt::format("{}: the parameter file must hold a JSON object", item));
    }
    for (auto it = part.begin(); it != part.end(); ++it) params[it.key()] = it.value();
  }
  return params;
}


TmaxChoice parse_tmax_choice(const std::string& text, const std::string& what) {
  TmaxChoice c;
  if (text == "limit") return c;
  if (text == "max") {
    c.rule = TmaxChoice::Rule::kLargest;
    return c;
  }
  try {
    c.seconds = parse_duration(text);
  } catch (const ModelError& e) {
    throw ModelError(fmt::format("{}: expected limit, max or a duration such as 18h (got \"{}\"): {}", what, text,
                                 e.what()));
  }
  c.rule = TmaxChoice::Rule::kGiven;
  return c;
}

std::string to_string(const TmaxChoice& c) {
  switch (c.rule) {
    case TmaxChoice::Rule::kLimit:
      return "limit";
    case TmaxChoice::Rule::kLargest:
      return "max";
    case TmaxChoice::Rule::kGiven:
      return std::to_string(c.seconds);
  }
  return "";
}

TsafrirFit fit_tsafrir(const std::vector<swf::Record>& records, int top, const TmaxChoice& choice) {
  const EstimateBins b = estimate_bins(records);
  if (b.jobs == 0) throw LogDataError("tsafrir fit: the log has no estimates (no job has field 9 > 0)");
  if (top < 0 || top >= kHeadSize) throw ModelError(fmt::format("--top must be in 0..{}", kHeadSize - 1));
  TsafrirFit f;
  f.t_max_choice = choice;
  f.largest = b.t_max;
  switch (choice.rule) {
    case TmaxChoice::Rule::kLimit:
      f.t_max = b.limit;
      break;
    case TmaxChoice::Rule::kLargest:
      f.t_max = b.t_max;
      break;
    case TmaxChoice::Rule::kGiven:
      f.t_max = choice.seconds;
      break;
  }
  for (const auto& m : b.modes) {
    if (m.value == f.t_max) f.t_max_share = 100.0 * m.share;
    if (m.value > f.t_max) f.above_t_max += m.jobs;
  }
  for (const auto& m : b.modes) {  // by popularity
    if (static_cast<int>(f.bins.size()) >= top) break;
    if (m.value >= f.t_max) continue;  // a user bin is below T_max
    f.bins.push_back({m.value, 100.0 * m.share});
  }
  f.jobs = b.jobs;
  f.without_estimate = b.without_estimate;
  f.distinct = b.distinct;
  f.k_model = tsafrir_k(b.jobs);
  for (const auto& m : b.modes)
    if (m.value == f.t_max) f.t_max_popularity_rank = m.popularity_rank;
  return f;
}

nlohmann::ordered_json to_json(const TsafrirFit& f) {
  nlohmann::ordered_json j;
  j["model"] = "tsafrir";
  j["tmax"] = f.t_max;
  j["tmax_share"] = f.t_max_share;
  auto bins = nlohmann::ordered_json::array();
  for (const auto& b : f.bins) bins.push_back({{"time", b.time}, {"share", b.share}});
  j["bins"] = bins;
  j["coefficients"] = "paper";
  j["info"] = {{"jobs", f.jobs},
               {"without_estimate", f.without_estimate},
               {"distinct", f.distinct},
               {"k_model", f.k_model},
               {"tmax_popularity_rank", f.t_max_popularity_rank},
               {"tmax_rule", to_string(f.t_max_choice)},
               {"largest_estimate", f.largest},
               {"above_tmax", f.above_t_max}};
  return j;
}

TsafrirParams tsafrir_params_from_json(const nlohmann::json& params, int64_t n, int32_t fallback_tmax) {
  const std::string m = "tsafrir";
  check_keys(params, m, {"tmax", "tmax_share", "bins", "top", "coefficients", "k", "info"});
  TsafrirParams p;
  p.n = n;
  if (params.contains("tmax")) p.t_max = duration(params, "tmax", m);
  else if (fallback_tmax > 0) p.t_max = fallback_tmax;
  else
    throw LogDataError(
        "tsafrir model: no tmax given and the log has no estimates to take it from (give it: tmax=18h, or a model "
        "file from another log's 'estimates fit')");
  if (params.contains("tmax_share")) {
    const double s = number(params, "tmax_share", m);
    if (!(s >= 0 && s <= 100)) throw ModelError("tsafrir model: tmax_share must be a percentage in 0..100");
    p.t_max_share = s;
  }
  if (params.contains("bins")) {
    const auto& b = params.at("bins");
    if (b.is_string()) {  // "300:25/900:16"
      const std::string s = b.get<std::string>();
      size_t start = 0;
      while (start < s.size()) {
        const size_t slash = s.find('/', start);
        const std::string item = s.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        start = slash == std::string::npos ? s.size() : slash + 1;
        const size_t colon = item.find(':');
        double share = 0;
        if (colon == std::string::npos || !parse_double(trim(item.substr(colon + 1)), share))
          throw ModelError(fmt::format("tsafrir model: malformed bin \"{}\" (expected TIME:PERCENT, e.g. 5m:25)", item));
        p.user_bins.push_back({parse_duration(item.substr(0, colon)), share});
      }
    } else if (b.is_array()) {
      for (const auto& e : b) {
        if (!e.is_object() || !e.contains("time") || !e.contains("share"))
          throw ModelError("tsafrir model: each bin must be an object with \"time\" and \"share\"");
        p.user_bins.push_back({duration(e, "time", m), number(e, "share", m)});
      }
    } else {
      throw ModelError("tsafrir model: bins must be a list of {time, share} or \"T:P/T:P\"");
    }
  }
  if (params.contains("top")) {
    const double t = number(params, "top", m);
    if (!(t >= 0) || t != std::floor(t)) throw ModelError("tsafrir model: top must be a whole number >= 0");
    if (static_cast<size_t>(t) < p.user_bins.size()) p.user_bins.resize(static_cast<size_t>(t));
  }
  if (params.contains("coefficients")) {
    const auto& c = params.at("coefficients");
    const std::string s = c.is_string() ? c.get<std::string>() : c.dump();
    if (s == "paper") p.coefficients = TsafrirCoefficientSet::kPaper;
    else if (s == "ref" || s == "reference") p.coefficients = TsafrirCoefficientSet::kReference;
    else throw ModelError(fmt::format("tsafrir model: coefficients must be paper or ref (got {})", s));
  }
  if (params.contains("k")) {
    const double k = number(params, "k", m);
    if (!(k >= 1) || k != std::floor(k)) throw ModelError("tsafrir model: k must be a whole number >= 1");
    p.k = static_cast<int64_t>(k);
  }
  return p;
}

const std::vector<EstimateModelEntry>& estimate_models() {
  using base::ParamType;
  const auto json_key = [](const char* name, const char* help) {
    return base::ParamDecl{.name = name, .type = ParamType::kString, .help = help, .metavar = "JSON"};
  };
  static const std::vector<EstimateModelEntry> table = {
      {"tsafrir", "the modal model of Tsafrir, Etsion & Feitelson 2005 (fitted to the log unless tmax is given)",
       {{.name = "tmax",
         .type = ParamType::kDuration,
         .help = "the maximal allowed estimate T_max (default: the log's limit, the largest estimate at least 1 in "
                 "2,000 jobs used)",
         .min = 1,
         .max = 2147483647},
        {.name = "tmax_share", .type = ParamType::kDouble, .help = "percent of the jobs at T_max", .min = 0, .max = 100},
        {.name = "bins", .type = ParamType::kString, .help = "the user's own popular values, percent each",
         .metavar = "T:P/T:P"},
        {.name = "top", .type = ParamType::kInt, .help = "keep only the first N of bins", .min = 0},
        {.name = "coefficients", .type = ParamType::kChoice, .help = "the paper's coefficients or the reference ones",
         .choices = {"paper", "ref", "reference"}},
        {.name = "k", .type = ParamType::kInt, .help = "the number of bins (default: the model's for N jobs)", .min = 1},
        json_key("info", "information written by `estimates fit` (ignored)")},
       apply_tsafrir},
      {"song", "the runtime-conditioned model of Song, Ernemann & Yahyapour (self-trained unless a regression is given)",
       {{.name = "family", .type = ParamType::kChoice, .help = "the distribution per runtime group",
         .choices = {"beta", "gamma"}},
        json_key("regression", "a fitted regression {a1, b1, a2, b2} (from `estimates fit --model song`)"),
        {.name = "a1", .type = ParamType::kDouble, .help = "regression coefficient (with a model file)"},
        {.name = "b1", .type = ParamType::kDouble, .help = "regression coefficient (with a model file)"},
        {.name = "a2", .type = ParamType::kDouble, .help = "regression coefficient (with a model file)"},
        {.name = "b2", .type = ParamType::kDouble, .help = "regression coefficient (with a model file)"},
        {.name = "cap", .type = ParamType::kDuration, .help = "the largest estimate", .min = 1, .max = 2147483647},
        {.name = "align_prob", .type = ParamType::kDouble, .help = "probability of rounding to a popular value",
         .min = 0, .max = 1},
        {.name = "min_group_jobs", .type = ParamType::kInt, .help = "fewest jobs for a group of its own", .min = 1},
        json_key("accuracy_max", "written by `estimates fit`"), json_key("sources", "written by `estimates fit`"),
        json_key("training_jobs", "written by `estimates fit`"),
        json_key("dropped_accuracy_over_max", "written by `estimates fit`"),
        json_key("without_estimate_or_runtime", "written by `estimates fit`"),
        json_key("regression_form", "written by `estimates fit`"), json_key("groups", "written by `estimates fit`")},
       apply_song},
      {"accurate", "estimate = runtime (perfect estimates)", {}, apply_accurate, false},
      {"f", "estimate = runtime x (1 + f u), u uniform in [0, 1] (Mu'alem & Feitelson)",
       {{.name = "f", .type = ParamType::kDouble, .help = "the overestimation factor (required)", .min = 0}}, apply_f},
      {"feit", "estimate = min(runtime / u, max), at least the runtime (Feitelson)",
       {{.name = "max", .type = ParamType::kDuration, .default_value = "86400", .help = "the largest estimate",
         .min = 1, .max = 2147483647}},
       apply_feit},
      {"x2", "estimate = twice the logged estimate (the runtime when there is none)", {}, apply_x2, false},
      {"shfl", "the log's own estimates, shuffled among the jobs (random shuffle assignment)", {}, apply_shfl},
  };
  return table;
}

const std::vector<std::string>& estimate_model_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& e : estimate_models()) out.emplace_back(e.name);
    return out;
  }();
  return names;
}

bool estimate_model_is_random(const std::string& name) {
  if (name == "real") return false;
  for (const auto& e : estimate_models())
    if (e.name == name) return e.random;
  throw ModelError(
      fmt::format("unknown estimate model \"{}\"{}", name, base::did_you_mean(name, estimate_model_names())));
}

namespace {

// A model's entry and its typed scalar parameters, every key checked against the declarations.
struct CheckedModel {
  const EstimateModelEntry* entry;
  base::Params typed;
};

CheckedModel check_model(const std::string& name, const nlohmann::json& params) {
  const EstimateModelEntry* entry = nullptr;
  for (const auto& e : estimate_models())
    if (e.name == name) entry = &e;
  if (entry == nullptr) {
    std::string list;
    for (const auto& n : estimate_model_names()) list += (list.empty() ? "" : ", ") + n;
    throw ModelError(fmt::format("unknown estimate model \"{}\" (known: {}){}", name, list,
                                 base::did_you_mean(name, estimate_model_names())));
  }
  if (!params.is_object()) throw ModelError(fmt::format("{} model: parameters must be a JSON object", name));
  std::map<std::string, std::string> scalars;
  for (const auto& [key, value] : params.items()) {
    if (key == "model") {
      if (!value.is_string() || value.get<std::string>() != name)
        throw ModelError(fmt::format("parameters are for model \"{}\", not \"{}\"",
                                     value.is_string() ? value.get<std::string>() : value.dump(), name));
      continue;
    }
    bool declared = false;
    for (const auto& d : entry->params) declared = declared || d.name == key;
    if (!declared) {
      std::string list;
      for (const auto& d : entry->params) list += (list.empty() ? "" : ", ") + d.name;
      throw ModelError(fmt::format("{} model: unknown parameter \"{}\" (known: {})", name, key,
                                   list.empty() ? "none" : list));
    }
    if (const auto text = scalar_text(value)) scalars[key] = *text;
  }
  try {
    return {entry, base::Params(fmt::format("{} model", name), entry->params, scalars)};
  } catch (const std::invalid_argument& e) {
    throw ModelError(e.what());
  }
}

}  // namespace

void check_estimate_model(const std::string& name, const nlohmann::json& params) {
  (void)check_model(name, params.is_null() ? nlohmann::json::object() : params);
}

GenerateReport apply_estimate_model(const std::string& name, const nlohmann::json& params_in,
                                    std::vector<swf::Record>& records, uint64_t seed, const std::string& source) {
  const nlohmann::json params = params_in.is_null() ? nlohmann::json::object() : params_in;
  const CheckedModel m = check_model(name, params);
  GenerateReport rep;
  rep.model = name;
  base::Rng rng(seed);
  try {
    m.entry->apply(params, m.typed, records, rng, rep);
  } catch (const LogDataError& e) {  // the log's own: no estimates to train on, none to shuffle, too few jobs
    if (source.empty()) throw;
    throw LogDataError(fmt::format("{}: {}", source, e.what()));
  }
  if (rep.capped > 0)
    rep.warnings.push_back(fmt::format("{} above 2^31 - 1 s (the SWF field's largest value) {} capped at it",
                                       base::counted(rep.capped, "estimate"), rep.capped == 1 ? "was" : "were"));
  return rep;
}

std::string estimate_model_note(const GenerateReport& report, uint64_t seed) {
  return fmt::format("field 9 (requested time) replaced by schedlab {} estimates generate --model {} --seed {}{}",
                     base::kVersion, report.model, seed,
                     report.parameters.empty() ? "" : " (" + report.parameters + ")") +
         (report.raised_to_tmax > 0
              ? fmt::format("; {} raised to T_max to cover {} runtime{}",
                            base::counted(report.raised_to_tmax, "estimate"),
                            report.raised_to_tmax == 1 ? "its job's" : "their jobs'",
                            report.raised_to_tmax == 1 ? "" : "s")
              : "");
}

}  // namespace schedlab::model
