// THE table of scheduling policies. To add one: write its file, then add one line here.
#include "schedlab/sim/scheduler_registry.h"

#include <stdexcept>
#include <map>
#include <string>
#include <utility>

#include <fmt/core.h>

#include "schedlab/predict/registry.h"
#include "sim/conservative.h"
#include "schedlab/sim/easy.h"
#include "schedlab/sim/easy_preemptive.h"
#include "schedlab/sim/fcfs.h"
#include "schedlab/sim/kill_at_prediction.h"
#include "schedlab/sim/lerwf.h"
#include "schedlab/sim/lewf.h"

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

Policy resolve_policy(std::string_view given, std::string_view predictor, std::string_view correction) {
  Policy out;
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

std::unique_ptr<Scheduler> make_scheduler(std::string_view spec, const SchedulerConfig& base_config) {
  const base::Spec parsed = base::parse_spec(spec, "scheduler");
  SchedulerConfig config = base_config;
  for (const auto& [k, v] : parsed.params) config.params[k] = v;
  std::string known;
  for (const auto& entry : schedulers()) {
    if (entry.name == parsed.name) {
      const base::Params params(fmt::format("scheduler {}", entry.name), entry.params, config.params);
      return entry.make(config, params);
    }
    known += known.empty() ? "" : ", ";
    known += entry.name;
  }
  for (const auto& p : presets()) known += fmt::format(", {} (preset)", p.name);
  throw std::invalid_argument(fmt::format("unknown scheduler '{}' (known: {})", parsed.name, known));
}

}  // namespace schedlab::sim
