// THE table of scheduling policies. To add one: write its file, then add one line here.
#include "schedlab/sim/scheduler_registry.h"

#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "schedlab/sim/conservative.h"
#include "schedlab/sim/easy.h"
#include "schedlab/sim/fcfs.h"
#include "schedlab/sim/lewf.h"

namespace schedlab::sim {

template <typename T, auto... Args>
static std::unique_ptr<Scheduler> make(const SchedulerConfig& /*config*/) {
  return std::make_unique<T>(Args...);
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
       make_conservative_scheduler},
      {"lewf", "least estimated work (predicted runtime) first; stop at the first job that does not fit",
       make<LewfScheduler, false>},
      {"lewf-fill", "least estimated work first, starting every job that fits", make<LewfScheduler, true>},
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

std::unique_ptr<Scheduler> make_scheduler(std::string_view name, const SchedulerConfig& config) {
  std::string known;
  for (const auto& entry : schedulers()) {
    if (entry.name == name) return entry.make(config);
    known += known.empty() ? "" : ", ";
    known += entry.name;
  }
  for (const auto& p : presets()) known += fmt::format(", {} (preset)", p.name);
  throw std::invalid_argument(fmt::format("unknown scheduler '{}' (known: {})", name, known));
}

}  // namespace schedlab::sim
