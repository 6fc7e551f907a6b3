// THE table of scheduling policies. To add one: write its file, then add one line here.
#include "schedlab/sim/scheduler_registry.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <map>
#include <string>
#include <utility>

#include <fmt/core.h>

#include "schedlab/base/params.h"
#include "schedlab/predict/registry.h"
#include "sim/conservative.h"
#include "sim/flex.h"
#include "sim/maui.h"
#include "sim/pbas.h"
#include "sim/wbas.h"
#include "schedlab/sim/easy.h"
#include "schedlab/sim/easy_preemptive.h"
#include "schedlab/sim/fcfs.h"
#include "schedlab/sim/kill_at_prediction.h"
#include "sim/lerwf.h"
#include "schedlab/sim/lewf.h"
#include "schedlab/base/nearest.h"

namespace schedlab::sim {

template <typename T, auto... Args>
static std::unique_ptr<Scheduler> make(const SchedulerConfig& /*config*/, const base::Params& /*params*/) {
  return std::make_unique<T>(Args...);
}

// Parameters shared by several schedulers.
static base::ParamDecl resume_delay_param() {
  return {.name = "resume_delay", .type = base::ParamType::kInt, .default_value = "0",
          .help = "seconds a suspended job waits before it may resume", .min = 0, .metavar = "SECONDS"};
}
static base::ParamDecl check_param() {
  return {.name = "check", .type = base::ParamType::kBool, .default_value = "0",
          .help = "verify the availability profile and the reservations after every event (slow)"};
}

static ConservativeScheduler::Options conservative_options(const base::Params& p) {
  ConservativeScheduler::Options options;
  options.self_check = p.get_bool("check");
  if (p.has("compress")) options.fixpoint = p.get_string("compress") == "fixpoint";
  return options;
}

static std::unique_ptr<Scheduler> make_conservative(const SchedulerConfig&, const base::Params& p) {
  return std::make_unique<ConservativeScheduler>(conservative_options(p));
}

template <bool Fill>
static std::unique_ptr<Scheduler> make_lerwf(const SchedulerConfig&, const base::Params& p) {
  return std::make_unique<LerwfScheduler>(Fill, p.get_int("resume_delay"));
}

static std::unique_ptr<Scheduler> make_easy_preemptive(const SchedulerConfig&, const base::Params& p) {
  return std::make_unique<EasyPreemptiveScheduler>(p.get_int("resume_delay"));
}

static std::unique_ptr<Scheduler> make_easy_kill(const SchedulerConfig&, const base::Params& p) {
  return std::make_unique<KillAtPrediction>("easy-kill", std::make_unique<ConservativeScheduler>(conservative_options(p)));
}

static std::unique_ptr<Scheduler> make_maui(const SchedulerConfig&, const base::Params& p) {
  MauiScheduler::Options o;
  o.depth = static_cast<int>(p.get_int("depth"));
  o.priority = p.get_string("priority") == "xfactor" ? MauiScheduler::Options::Priority::kXfactor
                                                     : MauiScheduler::Options::Priority::kFcfs;
  const std::string backfill = p.get_string("backfill");
  o.backfill = backfill == "bestfit"    ? MauiScheduler::Options::Backfill::kBestFit
               : backfill == "shortest" ? MauiScheduler::Options::Backfill::kShortest
                                        : MauiScheduler::Options::Backfill::kFirstFit;
  o.fixed_reservations = p.get_string("reservation") == "fixed";
  o.backfill_new_only_at_arrival = p.get_string("arrivals") == "new";
  return std::make_unique<MauiScheduler>(o);
}

static std::unique_ptr<Scheduler> make_flex(const SchedulerConfig&, const base::Params& p) {
  FlexScheduler::Options o;
  o.slack_factor = p.get_double("slack_factor");
  o.slack = p.get_string("slack") == "avgwait" ? FlexScheduler::Options::Slack::kAverageWait
                                               : FlexScheduler::Options::Slack::kEstimate;
  const std::string cost = p.get_string("cost");
  o.cost = cost == "wait"   ? FlexScheduler::Options::Cost::kWait
           : cost == "bsld" ? FlexScheduler::Options::Cost::kBoundedSlowdown
                            : FlexScheduler::Options::Cost::kWork;
  return std::make_unique<FlexScheduler>(o);
}

// A candidate of an adaptive scheduler, the error naming the parameter it came from.
static std::unique_ptr<Scheduler> make_candidate(std::string_view adaptive, std::string_view param,
                                                 const std::string& spec, const SchedulerConfig& config) {
  try {
    SchedulerConfig inner;
    inner.seed = config.seed;
    inner.files_dir = config.files_dir;  // a candidate's "@PATH" is read from the directory of the spec naming it
    return make_scheduler(spec, inner);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("scheduler {}: parameter {}: {}", adaptive, param, e.what()));
  }
}

// The candidates list: "a,b", "a+b" or "[a:k=v],[b]" (base::parse_spec_list). '+' separates only in a list
// without ',' or brackets, and only where it leaves no empty name: "easy+,easy++" and "easy++" are names (the
// presets), which make_scheduler then refuses by name, not an "empty item" in a list 'easy,,easy,,'.
static std::vector<std::string> candidate_list(const std::string& text) {
  if (text.find_first_of("[,") == std::string::npos && text.find('+') != std::string::npos &&
      text.find("++") == std::string::npos && text.front() != '+' && text.back() != '+') {
    std::string commas = text;
    std::replace(commas.begin(), commas.end(), '+', ',');
    return base::parse_spec_list(commas, "scheduler");
  }
  return base::parse_spec_list(text, "scheduler");
}

static std::unique_ptr<Scheduler> make_pbas(const SchedulerConfig& config, const base::Params& p) {
  PbasScheduler::Options o;
  try {
    o.candidates = candidate_list(p.get_string("candidates"));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("scheduler pbas: parameter candidates: {}", e.what()));
  }
  // The same candidate twice runs twice in the background and can never win over itself.
  for (size_t i = 1; i < o.candidates.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (o.candidates[i] == o.candidates[j])
        throw std::invalid_argument(fmt::format("scheduler pbas: parameter candidates: '{}' is given twice",
                                                o.candidates[i]));
  o.interval = p.get_duration("interval");
  const std::string metric = p.get_string("metric");
  o.metric = metric == "wait"       ? AdaptiveMetric::kWait
             : metric == "response" ? AdaptiveMetric::kResponse
             : metric == "slowdown" ? AdaptiveMetric::kSlowdown
             : metric == "bsld"     ? AdaptiveMetric::kBoundedSlowdown
                                    : AdaptiveMetric::kUtilization;
  o.log_runtimes = p.get_string("runtimes") == "log";
  std::vector<std::unique_ptr<Scheduler>> candidates;
  for (const std::string& spec : o.candidates) candidates.push_back(make_candidate("pbas", "candidates", spec, config));
  return std::make_unique<PbasScheduler>(std::move(o), std::move(candidates));
}

static std::unique_ptr<Scheduler> make_wbas(const SchedulerConfig& config, const base::Params& p) {
  WbasScheduler::Options o;
  o.high = p.get_string("high");
  o.low = p.get_string("low");
  o.maf = p.get_double("maf");
  o.interval = p.get_duration("interval");
  if (!(o.maf > 0)) throw std::invalid_argument(fmt::format("scheduler wbas: parameter maf must be > 0 (got {})", o.maf));
  return std::make_unique<WbasScheduler>(o, make_candidate("wbas", "high", o.high, config),
                                         make_candidate("wbas", "low", o.low, config));
}

const std::vector<SchedulerEntry>& schedulers() {
  static const std::vector<SchedulerEntry> table = {
      {"fcfs", "first come first served; stop at the first job that does not fit", make<FcfsScheduler, false>},
      {"fcfs-fill", "first fit over the queue in arrival order, no reservation", make<FcfsScheduler, true>},
      {"easy", "EASY backfilling: one reservation for the head, backfill in arrival order",
       make<EasyScheduler, EasyScheduler::Order::kQueue>},
      {"easy-sjbf", "EASY with backfill candidates shortest predicted first (reservation for the oldest job)",
       make<EasyScheduler, EasyScheduler::Order::kShortestFirst>},
      {"conservative", "conservative backfilling: every waiting job holds a reservation, none may be delayed",
       make_conservative,
       {{.name = "compress", .type = base::ParamType::kChoice, .default_value = "once",
         .help = "after a job ends early, move every reservation earlier once, or repeat until nothing moves",
         .choices = {"once", "fixpoint"}},
        check_param()}},
      {"maui", "Maui as the Talby thesis configured it: EASY-like, with Maui's configurable rules", make_maui,
       {{.name = "depth", .type = base::ParamType::kInt, .default_value = "1",
         .help = "jobs holding a reservation (Maui's RESERVATIONDEPTH)", .min = 1, .metavar = "N"},
        {.name = "priority", .type = base::ParamType::kChoice, .default_value = "fcfs",
         .help = "the order jobs are considered in: arrival, or highest expansion factor first",
         .choices = {"fcfs", "xfactor"}},
        {.name = "backfill", .type = base::ParamType::kChoice, .default_value = "firstfit",
         .help = "the order jobs after the last reservation are tried in", .choices = {"firstfit", "bestfit", "shortest"}},
        {.name = "reservation", .type = base::ParamType::kChoice, .default_value = "dynamic",
         .help = "recompute reservations at every event, or keep a job's first reservation time while it fits",
         .choices = {"dynamic", "fixed"}},
        {.name = "arrivals", .type = base::ParamType::kChoice, .default_value = "all",
         .help = "at an instant where jobs only arrived, backfill every waiting job or only the new ones",
         .choices = {"all", "new"}}}},
      {"flex", "slack-based backfilling (Talby & Feitelson 1999): the cheapest queue order whose jobs all keep "
       "their slack", make_flex,
       {{.name = "slack_factor", .type = base::ParamType::kDouble, .default_value = "1",
         .help = "a job's slack = this × its slack base", .min = 0, .metavar = "F"},
        {.name = "slack", .type = base::ParamType::kChoice, .default_value = "avgwait",
         .help = "slack base: the mean wait of the jobs started so far (Talby & Feitelson 1999) or the job's "
                 "prediction (at least 60 s)",
         .choices = {"estimate", "avgwait"}},
        {.name = "cost", .type = base::ParamType::kChoice, .default_value = "work",
         .help = "schedule cost: sum of processors × delay, of delay, or of bounded slowdown",
         .choices = {"work", "wait", "bsld"}}}},
      {"pbas", "performance-based adaptive scheduling (Talby §7.3): the candidate that did best in the last "
       "interval drives the next", make_pbas,
       {{.name = "candidates", .type = base::ParamType::kSpec, .default_value = "flex,maui",
         .help = "the candidate schedulers: specs separated by ',' or '+', a spec with parameters in brackets",
         .metavar = "SPECS"},
        {.name = "interval", .type = base::ParamType::kDuration, .default_value = "7d",
         .help = "time between switch points, also the history window", .min = 1},
        {.name = "metric", .type = base::ParamType::kChoice, .default_value = "utilization",
         .help = "how candidates are compared over the last interval",
         .choices = {"wait", "response", "slowdown", "bsld", "utilization"}},
        {.name = "runtimes", .type = base::ParamType::kChoice, .default_value = "log",
         .help = "how long jobs run in the background candidates' runs: the log's runtimes or the predictions",
         .choices = {"log", "predicted"}}}},
      {"wbas", "workload-based adaptive scheduling (Talby §7.4): high when recent jobs are wider than the "
       "long-term average, else low", make_wbas,
       {{.name = "high", .type = base::ParamType::kSpec, .default_value = "flex",
         .help = "the scheduler for windows of wide jobs", .metavar = "SPEC"},
        {.name = "low", .type = base::ParamType::kSpec, .default_value = "maui",
         .help = "the scheduler otherwise", .metavar = "SPEC"},
        {.name = "maf", .type = base::ParamType::kDouble, .default_value = "5000",
         .help = "moving average factor: avg += (processors - avg) / maf at every arrival", .min = 0, .metavar = "F"},
        {.name = "interval", .type = base::ParamType::kDuration, .default_value = "1d",
         .help = "time between switch points", .min = 1}}},
      {"lewf", "least estimated work (predicted runtime) first; stop at the first job that does not fit",
       make<LewfScheduler, false>},
      {"lewf-fill", "least estimated work first, starting every job that fits", make<LewfScheduler, true>},
      {"lerwf", "least estimated remaining work first over all jobs, preemptive (resume in place); stops at the "
       "first misfit", make_lerwf<false>, {resume_delay_param()}},
      {"lerwf-fill", "least estimated remaining work first, preemptive, skipping misfits", make_lerwf<true>,
       {resume_delay_param()}},
      {"easy-kill", "Gibbons's EASY: conservative backfilling, jobs killed when they outlive their prediction",
       make_easy_kill, {check_param()}},
      {"easy-preemptive", "backfilling; a job outliving its prediction is suspended, re-queued, resumed in place",
       make_easy_preemptive, {resume_delay_param()}},
  };
  return table;
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> table = {
      {"easy-pcor", "easy", "estimate:correction=tsafrir", "EASY, user estimates with prediction correction"},
      {"easy+", "easy", "user-last2:correction=tsafrir", "EASY, user-last2 predictions with correction"},
      {"easy++", "easy-sjbf", "user-last2:correction=tsafrir", "EASY-SJBF, user-last2 predictions with correction"},
      {"perfect++", "easy-sjbf", "perfect", "EASY-SJBF with exact runtimes"},
  };
  return table;
}

const Preset* find_preset(std::string_view name) {
  for (const auto& p : presets()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

Policy resolve_policy(std::string_view given_text, std::string_view predictor, std::string_view correction,
                      std::string_view files_dir) {
  Policy out;
  const std::string given = base::spec_in_dir(given_text, files_dir);
  out.scheduler_files_dir = base::spec_files_dir(given, files_dir);
  const std::string from_file =
      given.starts_with('@') ? base::format_spec(base::parse_spec(given, "scheduler")) : std::string();
  const std::string_view scheduler = from_file.empty() ? given : std::string_view(from_file);
  out.name = std::string(scheduler);
  if (const Preset* preset = find_preset(scheduler)) {
    if (!predictor.empty() || !correction.empty()) {
      throw std::invalid_argument(fmt::format(
          "scheduler preset '{}' sets its own predictor ({}); give no predictor or correction with it, or use "
          "scheduler '{}' with them",
          preset->name, preset->predictor, preset->scheduler));
    }
    out.scheduler = std::string(preset->scheduler);
    out.predictor = std::string(preset->predictor);
    return out;
  }
  out.scheduler = std::string(scheduler);
  out.predictor = predictor.empty() ? std::string(predict::kDefaultPredictor) : std::string(predictor);
  if (!correction.empty()) out.predictor_params.emplace("correction", std::string(correction));
  return out;
}

std::unique_ptr<Scheduler> make_scheduler(std::string_view given, const SchedulerConfig& base_config) {
  const std::string spec = base::spec_in_dir(given, base_config.files_dir);
  // Specs nest (adaptive schedulers' candidates), and a candidate may be a spec file: a file that names itself,
  // directly or through others, would recurse forever. The files being made are tracked on this thread, and so
  // is the depth: each level parses the whole text inside it again, so 20,000 nested levels (460 KB) took
  // minutes before failing; real policies nest two or three deep.
  thread_local std::vector<std::string> files;
  thread_local int depth = 0;
  if (depth >= kMaxSchedulerNesting)
    throw std::invalid_argument(fmt::format("scheduler specs nested more than {} deep", kMaxSchedulerNesting));
  struct Deeper {
    Deeper() { ++depth; }
    ~Deeper() { --depth; }
  } deeper;
  const bool file = spec.starts_with('@');
  if (file) {
    const std::string path = std::filesystem::path(spec.substr(1)).lexically_normal().string();
    if (std::find(files.begin(), files.end(), path) != files.end()) {
      std::string chain;
      for (const auto& f : files) chain += f + " -> ";
      throw std::invalid_argument(fmt::format("scheduler spec file {} includes itself ({}{})", path, chain, path));
    }
    files.push_back(path);
  }
  struct Pop {
    bool active;
    ~Pop() {
      if (active) files.pop_back();
    }
  } pop{file};
  const base::Spec parsed = base::parse_spec(spec, "scheduler");
  SchedulerConfig config = base_config;
  for (const auto& [k, v] : parsed.params) config.params[k] = v;
  config.files_dir = base::spec_files_dir(spec, base_config.files_dir);
  std::string known;
  std::vector<std::string> names;
  for (const auto& entry : schedulers()) {
    names.emplace_back(entry.name);
    if (entry.name == parsed.name) {
      const base::Params params(fmt::format("scheduler {}", entry.name), entry.params, config.params,
                                config.files_dir);
      return entry.make(config, params);
    }
    known += known.empty() ? "" : ", ";
    known += entry.name;
  }
  // A preset is a scheduler with its own predictor: a policy (resolve_policy) but not a scheduler that can be
  // made here, e.g. as an adaptive scheduler's candidate, whose predictor serves all its candidates.
  if (const Preset* preset = find_preset(parsed.name))
    throw std::invalid_argument(fmt::format(
        "'{}' is a preset (scheduler {} with predictor {}), not a scheduler: here use '{}' and give the predictor "
        "to the whole run (--predictor)",
        preset->name, preset->scheduler, preset->predictor, preset->scheduler));
  for (const auto& p : presets()) {
    known += fmt::format(", {} (preset)", p.name);
    names.emplace_back(p.name);
  }
  throw std::invalid_argument(fmt::format("unknown scheduler '{}' (known: {}){}", base::excerpt(parsed.name), known,
                                          base::did_you_mean(parsed.name, names)));
}

}  // namespace schedlab::sim
