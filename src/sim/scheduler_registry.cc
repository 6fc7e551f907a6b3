// THE table of scheduling policies. To add one: write its file, then add one line here.
#include "schedlab/sim/scheduler_registry.h"

#include <stdexcept>
#include <map>
#include <string>
#include <utility>

#include <fmt/core.h>

#include "schedlab/predict/registry.h"
#include "schedlab/sim/conservative.h"
#include "schedlab/sim/easy.h"
#include "schedlab/sim/easy_preemptive.h"
#include "schedlab/sim/fcfs.h"
#include "schedlab/sim/kill_at_prediction.h"
#include "schedlab/sim/lerwf.h"
#include "schedlab/sim/lewf.h"

namespace schedlab::sim {

template <typename T, auto... Args>
static std::unique_ptr<Scheduler> make(const SchedulerConfig& /*config*/) {
  return std::make_unique<T>(Args...);
}

// The resume delay parameter of the preemptive schedulers (seconds >= 0, default 0).
static int64_t resume_delay(std::string_view scheduler, const SchedulerConfig& config) {
  const auto it = config.params.find("resume_delay");
  if (it == config.params.end()) return 0;
  size_t used = 0;
  long long v = -1;
  try {
    v = std::stoll(it->second, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != it->second.size() || v < 0) {
    throw std::invalid_argument(
        fmt::format("scheduler {}: resume_delay must be a whole number of seconds >= 0, got '{}'", scheduler, it->second));
  }
  return v;
}

template <bool Fill>
static std::unique_ptr<Scheduler> make_lerwf(const SchedulerConfig& config) {
  return std::make_unique<LerwfScheduler>(Fill, resume_delay(Fill ? "lerwf-fill" : "lerwf", config));
}

static std::unique_ptr<Scheduler> make_easy_preemptive(const SchedulerConfig& config) {
  return std::make_unique<EasyPreemptiveScheduler>(resume_delay("easy-preemptive", config));
}

static std::unique_ptr<Scheduler> make_easy_kill(const SchedulerConfig& config) {
  return std::make_unique<KillAtPrediction>("easy-kill", make_conservative_scheduler(config));
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
       make_conservative_scheduler, "compress=once|fixpoint (once), check=0|1 (0)"},
      {"lewf", "least estimated work (predicted runtime) first; stop at the first job that does not fit",
       make<LewfScheduler, false>},
      {"lewf-fill", "least estimated work first, starting every job that fits", make<LewfScheduler, true>},
      {"lerwf", "least estimated remaining work first over all jobs, preemptive (resume in place); stops at the "
       "first misfit", make_lerwf<false>, "resume_delay=SECONDS (0)"},
      {"lerwf-fill", "least estimated remaining work first, preemptive, skipping misfits", make_lerwf<true>,
       "resume_delay=SECONDS (0)"},
      {"easy-kill", "Gibbons's EASY: conservative backfilling, jobs killed when they outlive their prediction",
       make_easy_kill, "check=0|1 (0)"},
      {"easy-preemptive", "backfilling; a job outliving its prediction is suspended, re-queued, resumed in place",
       make_easy_preemptive, "resume_delay=SECONDS (0)"},
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

Policy resolve_policy(std::string_view scheduler, std::string_view predictor, std::string_view correction) {
  Policy out;
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

// Whether a registry parameter list ("key=VALUES (default), other=...") names `key`.
static bool lists_parameter(std::string_view list, const std::string& key) {
  for (size_t at = list.find(key + "="); at != std::string_view::npos; at = list.find(key + "=", at + 1)) {
    if (at == 0 || list[at - 1] == ' ' || list[at - 1] == ',') return true;
  }
  return false;
}

// NAME[:KEY=VALUE[;KEY=VALUE...]] (the predictor spec syntax, predict/spec.h).
static std::pair<std::string, std::map<std::string, std::string>> parse_scheduler_spec(std::string_view text) {
  const auto colon = text.find(':');
  std::pair<std::string, std::map<std::string, std::string>> out{std::string(text.substr(0, colon)), {}};
  if (colon == std::string_view::npos) return out;
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    const auto semi = rest.find(';');
    const std::string_view item = rest.substr(0, semi);
    rest = semi == std::string_view::npos ? std::string_view{} : rest.substr(semi + 1);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size()) {
      throw std::invalid_argument(fmt::format("scheduler '{}': malformed parameter '{}' (KEY=VALUE)", text, item));
    }
    if (!out.second.emplace(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1))).second) {
      throw std::invalid_argument(fmt::format("scheduler '{}': parameter '{}' given twice", text, item.substr(0, eq)));
    }
  }
  return out;
}

std::unique_ptr<Scheduler> make_scheduler(std::string_view spec, const SchedulerConfig& base) {
  auto [parsed_name, params] = parse_scheduler_spec(spec);
  const std::string_view name = parsed_name;
  SchedulerConfig config = base;
  for (auto& [k, v] : params) config.params[k] = v;
  std::string known;
  for (const auto& entry : schedulers()) {
    if (entry.name == name) {
      // Every parameter must be one the scheduler lists (entry.params: "key=..." items).
      for (const auto& [k, v] : config.params) {
        if (!lists_parameter(entry.params, k)) {
          throw std::invalid_argument(fmt::format("scheduler {} has no parameter '{}'{}", name, k,
                                                  entry.params.empty() ? "" : fmt::format(" (its parameters: {})", entry.params)));
        }
      }
      return entry.make(config);
    }
    known += known.empty() ? "" : ", ";
    known += entry.name;
  }
  for (const auto& p : presets()) known += fmt::format(", {} (preset)", p.name);
  throw std::invalid_argument(fmt::format("unknown scheduler '{}' (known: {})", name, known));
}

}  // namespace schedlab::sim
