#include "schedlab/sim/simulate.h"

#include <chrono>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/predict/registry.h"
#include "schedlab/sim/engine.h"
#include "schedlab/sim/scheduler_registry.h"

namespace schedlab::sim {

SimResult simulate(const Workload& workload, const Scheduler& scheduler, const predict::Predictor& predictor,
                   const SimOptions& options) {
  if (options.bsld_tau <= 0) {
    throw std::invalid_argument(fmt::format("bounded-slowdown threshold must be positive, got {}", options.bsld_tau));
  }
  if (!(options.warmup_fraction >= 0.0 && options.warmup_fraction < 1.0)) {
    throw std::invalid_argument(fmt::format("warm-up fraction must be in [0, 1), got {}", options.warmup_fraction));
  }
  const auto begin = std::chrono::steady_clock::now();
  Engine engine(workload, scheduler.clone(), predictor.clone(), options);
  engine.run();
  SimResult result = engine.take_result();
  result.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return result;
}

SimResult simulate(const Workload& workload, std::string_view scheduler, std::string_view predictor,
                   const SimOptions& options) {
  const Policy policy = resolve_policy(scheduler, predictor);
  const auto s = make_scheduler(policy.scheduler, SchedulerConfig{options.seed, {}, policy.scheduler_files_dir});
  const auto p = predict::make_predictor(policy.predictor, predict::PredictorConfig{options.seed, policy.predictor_params});
  SimResult r = simulate(workload, *s, *p, options);
  r.scheduler = policy.name;
  return r;
}

}  // namespace schedlab::sim
