// schedlab estimates bins|fit|generate|compare: user runtime-estimate models (model/estimate_*.h, tsafrir.h,
// song.h).
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/text_util.h"
#include "cli/read_input.h"
#include "schedlab/base/count_text.h"
#include "schedlab/base/duration.h"
#include "schedlab/base/json_text.h"
#include "schedlab/model/estimate_bins.h"
#include "schedlab/model/estimate_fit.h"
#include "schedlab/model/estimate_models.h"
#include "schedlab/model/song.h"
#include "schedlab/model/tsafrir.h"
#include "schedlab/swf/csv.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"

namespace schedlab::cli {
namespace {

swf::Log read(const std::string& path, bool skip_invalid) {
  swf::ReadOptions o;
  o.skip_invalid = skip_invalid;
  return read_input_log(path, o);
}

std::string hms(int64_t seconds) { return base::format_duration(seconds); }

// "2,000": the limit's rule, one job in that many (model/estimate_bins.h).
std::string one_in() { return group_thousands(static_cast<int64_t>(std::lround(1 / model::kLimitMinShare))); }

std::string share_of(int64_t n, int64_t total) {
  return fmt::format("{:.2f}%", 100.0 * static_cast<double>(n) / static_cast<double>(total));
}

std::string bins_text(const model::EstimateBins& b, size_t top) {
  std::string out = fmt::format("jobs with an estimate (field 9 > 0): {} of {} ({} without)\n",
                                group_thousands(b.jobs), counted_grouped(b.records, "record"),
                                group_thousands(b.without_estimate));
  out += fmt::format("distinct estimates (bins, K): {}\n", b.distinct);
  if (b.jobs == 0) return out;
  out += fmt::format("T_max: {} ({} s), {:.1f}% of jobs, popularity rank {}\n", hms(b.t_max), b.t_max,
                     100 * b.t_max_share, b.t_max_popularity_rank);
  if (b.above_limit > 0)
    out += fmt::format("limit: {} ({} s), {:.1f}% of jobs, popularity rank {}: the largest estimate at least 1 in "
                       "{} jobs used; {} ({}) above it\n",
                       hms(b.limit), b.limit, 100 * b.limit_share, b.limit_popularity_rank, one_in(),
                       counted_grouped(b.above_limit, "job"), share_of(b.above_limit, b.jobs));
  out += "\nmost popular bins needed to cover a share of the jobs:\n  jobs covered";
  for (const double f : b.fractions) out += fmt::format(" {:>5}", fmt::format("{:g}%", 100 * f));
  out += "\n  bins needed ";
  for (const int64_t c : b.cover) out += fmt::format(" {:>5}", c);
  out += fmt::format("\n\ntop {} modes:\n  {:>4} {:>9} {:>8} {:>8} {:>7} {:>7} {:>9}\n", std::min(top, b.modes.size()),
                     "rank", "estimate", "seconds", "jobs", "share", "cum", "time rank");
  for (size_t i = 0; i < b.modes.size() && i < top; ++i) {
    const auto& m = b.modes[i];
    out += fmt::format("  {:>4} {:>9} {:>8} {:>8} {:>6.1f}% {:>6.1f}% {:>9}\n", m.popularity_rank, hms(m.value),
                       m.value, m.jobs, 100 * m.share, 100 * m.cumulative_share, m.time_rank);
  }
  return out;
}

struct BinsOptions {
  std::string path, max_estimate;
  int64_t top = 20;
  bool json = false, skip_invalid = false;
};

void run_bins(const BinsOptions& o) {
  if (o.top < 0) throw std::invalid_argument("--top must be >= 0");
  swf::Log log = read(o.path, o.skip_invalid);
  const int64_t dropped =  // e.g. KTH4H: the KTH jobs with an estimate <= 4 h
      o.max_estimate.empty() ? 0 : model::drop_estimates_above(log.records, model::parse_duration(o.max_estimate));
  const model::EstimateBins b = model::estimate_bins(log.records);
  if (o.json) {
    nlohmann::ordered_json j;
    j["command"] = "estimates bins";
    j["path"] = o.path;
    if (!o.max_estimate.empty()) j["dropped_above_max_estimate"] = dropped;
    const nlohmann::ordered_json body = model::to_json(b, static_cast<size_t>(o.top));
    for (auto it = body.begin(); it != body.end(); ++it) j[it.key()] = it.value();
    fmt::print("{}\n", base::json_text(j, 2));
    return;
  }
  fmt::print("estimate bins of {}{}\n{}", o.path,
             o.max_estimate.empty() ? ""
                                    : fmt::format(" (only estimates <= {}: {} above left out)", o.max_estimate,
                                                  counted_grouped(dropped, "job")),
             bins_text(b, static_cast<size_t>(o.top)));
}

struct FitOptions {
  std::vector<std::string> paths;
  std::string model = "tsafrir", output = "-";
  // Unset unless given: the other model's options are refused, not silently unused.
  std::optional<std::string> family, tmax;
  std::optional<int64_t> top, min_group_jobs;
  bool skip_invalid = false;
};

void run_fit(const FitOptions& o) {
  swf::check_output_is_not_input(o.output, o.paths);
  model::EstimateFitOptions fo;
  fo.model = o.model;
  fo.top = o.top;
  fo.tmax = o.tmax;
  fo.family = o.family;
  fo.min_group_jobs = o.min_group_jobs;
  model::check_estimate_fit_options(fo, o.paths.size());  // before any log is read
  std::vector<swf::Log> logs;
  for (const auto& p : o.paths) logs.push_back(read(p, o.skip_invalid));
  std::vector<const std::vector<swf::Record>*> ptrs;
  for (const auto& l : logs) ptrs.push_back(&l.records);
  const model::EstimateFit fit = model::fit_estimate_model(ptrs, o.paths, fo);
  std::string summary;
  if (fit.tsafrir) {
    const model::TsafrirFit& t = *fit.tsafrir;
    summary = fmt::format("tsafrir model of {}: N {} with an estimate, T_max {} ({:.1f}% of jobs), {} more {}",
                          o.paths[0], counted(t.jobs, "job"), hms(t.t_max), t.t_max_share, t.bins.size(),
                          t.bins.size() == 1 ? "bin" : "bins");
    for (const auto& b : t.bins) summary += fmt::format(" ({}, {:.1f}%)", hms(b.time), b.share);
    summary += "\n";
    if (t.above_t_max > 0)
      summary += fmt::format("  {} ({}) {} above T_max, up to {}{}\n", counted_grouped(t.above_t_max, "job"),
                             share_of(t.above_t_max, t.jobs),
                             t.above_t_max == 1 ? "has an estimate" : "have estimates", hms(t.largest),
                             t.t_max_choice.rule == model::TmaxChoice::Rule::kLimit
                                 ? fmt::format(": T_max is the log's limit, the largest estimate at least 1 in {} jobs "
                                               "used (--tmax max takes the largest)",
                                               one_in())
                                 : "");
  } else {
    const model::SongModel& m = *fit.song;
    const bool beta = m.family == model::SongFamily::kBeta;
    summary = fmt::format("song model ({}) of {} training jobs ({} dropped with accuracy > {}), cap {}\n"
                          "  regression: a1 {:.4f} b1 {:.4f} a2 {:.4f} b2 {:.4f}\n  {:>5} {:>7} {:>8} {:>9} {:>9}\n",
                          beta ? "beta" : "gamma", m.training_jobs, m.dropped_over, m.accuracy_max, hms(m.cap), m.a1,
                          m.b1, m.a2, m.b2, "group", "jobs", "mean ln", beta ? "p" : "shape", beta ? "q" : "scale");
    for (const auto& g : m.groups)
      summary += g.fitted ? fmt::format("  {:>5} {:>7} {:>8.3f} {:>9.4f} {:>9.4f}\n", g.group, g.jobs, g.x, g.p, g.q)
                          : fmt::format("  {:>5} {:>7} {:>8.3f} {:>9} {:>9}\n", g.group, g.jobs, g.x, "-", "-");
  }
  swf::write_text_file(o.output, base::json_text(fit.file, 2) + "\n");
  if (o.output != "-") fmt::print("{}wrote {}\n", summary, o.output);
}

struct GenerateOptions {
  std::string path, model, output;
  std::vector<std::string> params;
  uint64_t seed = 1;
  bool json = false, skip_invalid = false;
};

void run_generate(const GenerateOptions& opt) {
  // --model NAME:k=v,k=v as a sweep names a model (it was "unknown estimate model"); --params merge after it.
  GenerateOptions o = opt;
  std::string text;
  std::tie(o.model, text) = model::split_model_spec(opt.model);
  if (!text.empty()) o.params.insert(o.params.begin(), text);
  const nlohmann::json params = model::load_params(o.params);
  model::check_estimate_model(o.model, params);  // before the log is read
  std::vector<std::string> inputs = o.params;  // a parameter may be a fitted-model file
  inputs.push_back(o.path);
  swf::check_output_is_not_input(o.output, inputs);
  swf::Log log = read(o.path, o.skip_invalid);
  const model::GenerateReport rep = model::apply_estimate_model(o.model, params, log.records, o.seed, log.path);
  log.header.add_note(model::estimate_model_note(rep, o.seed));
  swf::write_swf_or_csv(o.output, log.header, log.records);
  for (const auto& w : rep.warnings) fmt::print(stderr, "schedlab: warning: {}\n", w);
  if (o.json) {
    nlohmann::ordered_json j;
    j["command"] = "estimates generate";
    j["path"] = o.path;
    j["output"] = o.output;
    j["model"] = o.model;
    j["seed"] = o.seed;
    j.update(model::to_json(rep));
    fmt::print(o.output == "-" ? stderr : stdout, "{}\n", base::json_text(j, 2));
  } else if (o.output != "-") {
    fmt::print("{}: {} model, seed {}: {} written, {} unchanged{}\n", o.output, o.model, o.seed,
               base::counted_grouped(rep.assigned, "estimate"), base::counted_grouped(rep.unknown_runtime, "job"),
               rep.parameters.empty() ? "" : "; " + rep.parameters);
  }
}

struct CompareOptions {
  std::string real, model;
  bool json = false, skip_invalid = false;
};

void run_estimates_compare(const CompareOptions& o) {
  const swf::Log real = read(o.real, o.skip_invalid);
  const swf::Log mod = read(o.model, o.skip_invalid);
  const model::EstimateComparison c = model::compare_estimates(real.records, mod.records, o.real, o.model);
  if (o.json) {
    nlohmann::ordered_json j;
    j["command"] = "estimates compare";
    j["real"] = o.real;
    j["model"] = o.model;
    j.update(model::to_json(c));
    fmt::print("{}\n", base::json_text(j, 2));
    return;
  }
  std::string out = fmt::format("real:  {}\nmodel: {}\n", o.real, o.model);
  out += c.paired ? fmt::format("paired by job: {} with an estimate in both logs\n", counted_grouped(c.real_jobs, "job"))
                  : fmt::format("unpaired: {} real and {} model jobs with an estimate\n", group_thousands(c.real_jobs),
                                group_thousands(c.model_jobs));
  out += fmt::format("KS statistic of the estimates: {:.4f}\n", c.ks);
  out += fmt::format("squashed area (size x estimate): real {:.6g}, model {:.6g}, d_SA {}\n", c.sa_real, c.sa_model,
                     std::isnan(c.d_sa) ? "n/a (no real job with an estimate has a size)"
                                        : fmt::format("{:+.1f}%", 100 * c.d_sa));
  out += fmt::format("distinct estimates: real {}, model {}\nT_max: real {} ({:.1f}%), model {} ({:.1f}%)\n",
                     group_thousands(c.real.distinct), group_thousands(c.model.distinct), hms(c.real.t_max),
                     100 * c.real.t_max_share,
                     hms(c.model.t_max), 100 * c.model.t_max_share);
  out += "\nbins needed to cover:\n  jobs covered";
  for (const double f : c.real.fractions) out += fmt::format(" {:>5}", fmt::format("{:g}%", 100 * f));
  out += "\n  real        ";
  for (const int64_t v : c.real.cover) out += fmt::format(" {:>5}", v);
  out += "\n  model       ";
  for (const int64_t v : c.model.cover) out += fmt::format(" {:>5}", v);
  out += fmt::format("\n\n  {:>4} {:>9} {:>7}   {:>9} {:>7}\n", "rank", "real", "share", "model", "share");
  for (size_t i = 0; i < 20 && (i < c.real.modes.size() || i < c.model.modes.size()); ++i) {
    const auto cell = [&](const model::EstimateBins& b) {
      return i < b.modes.size() ? fmt::format("{:>9} {:>6.1f}%", hms(b.modes[i].value), 100 * b.modes[i].share)
                                : fmt::format("{:>9} {:>7}", "", "");
    };
    out += fmt::format("  {:>4} {}   {}\n", i + 1, cell(c.real), cell(c.model));
  }
  fmt::print("{}", out);
}

}  // namespace

void add_estimates_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "estimates", "User runtime estimates: modal structure (bins), model fitting, generation and comparison");
  cmd->require_subcommand(1);

  auto bo = std::make_shared<BinsOptions>();
  CLI::App* bins = cmd->add_subcommand(
      "bins", "Modal structure of the estimates (jobs with field 9 > 0): distinct values, how many of the most "
              "popular cover 10..100% of the jobs, and the top modes");
  bins->add_option("TRACE", bo->path, kLogInputHelp)->required();
  bins->add_option("--top", bo->top, "number of modes listed")->capture_default_str();
  bins->add_option("--max-estimate", bo->max_estimate,
                   "leave out jobs whose estimate exceeds this duration (e.g. 4h for the paper's KTH4H)");
  bins->add_flag("--json", bo->json, "print one JSON document");
  bins->add_flag("--skip-invalid", bo->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  bins->callback([bo] { run_bins(*bo); });

  auto fo = std::make_shared<FitOptions>();
  CLI::App* fit = cmd->add_subcommand(
      "fit", "Fit an estimate model to a log: tsafrir (N, T_max, its share, the --top most popular other values) "
             "or song (per-runtime-group Beta fits and the two regressions; several logs are pooled)");
  fit->add_option("TRACE", fo->paths, "the log(s) (SWF, or CSV for a .csv or .csv.gz name)")->required();
  fit->add_option("--model", fo->model, "tsafrir or song")->capture_default_str();
  fit->add_option("--tmax", fo->tmax,
                  fmt::format("tsafrir: T_max, the maximal allowed estimate: limit (the largest estimate at least 1 "
                              "in {} jobs used; the default), max (the largest estimate) or a duration (18h)",
                              one_in()));
  fit->add_option("--top", fo->top,
                  fmt::format("tsafrir: most popular values below T_max kept as user bins (default {})",
                              model::kDefaultTsafrirTop));
  fit->add_option("--family", fo->family, "song: beta (the default), or gamma for LANL-like logs");
  fit->add_option("--min-group-jobs", fo->min_group_jobs,
                  fmt::format("song: smallest runtime group that is fitted (default {})",
                              model::SongFitOptions{}.min_group_jobs));
  fit->add_option("-o,--output", fo->output, "model file (JSON; - = standard output)")->capture_default_str();
  fit->add_flag("--skip-invalid", fo->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  fit->callback([fo] { run_fit(*fo); });

  auto go = std::make_shared<GenerateOptions>();
  CLI::App* gen = cmd->add_subcommand(
      "generate", "Write the log with field 9 replaced by a model's estimates (tsafrir, song, accurate, f, feit, "
                  "x2, shfl); jobs with an unknown runtime keep theirs");
  gen->add_option("TRACE", go->path, kLogInputHelp)->required();
  gen->add_option("--model", go->model,
                  "tsafrir, song, accurate, f, feit, x2 or shfl; NAME:k=v,k=v gives parameters too, as in a sweep spec")
      ->required();
  gen->add_option("--params", go->params,
                  "a model file from 'estimates fit' or k=v,k=v (e.g. tmax=18h,tmax_share=23.8,bins=5m:25/15m:10; "
                  "f=3; max=24h) or a JSON object ('{\"f\": 3}'); repeatable, later values win");
  gen->add_option("--seed", go->seed, "random seed")->capture_default_str();
  gen->add_option("-o,--output", go->output, kLogOutputHelp)->required();
  gen->add_flag("--json", go->json, "print a JSON report");
  gen->add_flag("--skip-invalid", go->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  gen->callback([go] { run_generate(*go); });

  auto co = std::make_shared<CompareOptions>();
  CLI::App* cmp = cmd->add_subcommand(
      "compare", "Compare two logs' estimates: KS statistic, squashed-area difference d_SA, coverage side by side");
  cmp->add_option("REAL", co->real, "the reference log")->required();
  cmp->add_option("MODEL", co->model, "the log with model estimates")->required();
  cmp->add_flag("--json", co->json, "print one JSON document");
  cmp->add_flag("--skip-invalid", co->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  cmp->callback([co] { run_estimates_compare(*co); });
}

}  // namespace schedlab::cli
