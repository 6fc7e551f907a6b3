// The scheduler registry: every scheduling policy, by name. The table lives in ONE file,
// src/sim/scheduler_registry.cc (no static self-registration — static libraries drop those): adding a
// policy = one new file + one line in that table.
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

struct SchedulerEntry {
  std::string_view name;
  std::string_view description;  // one line
  std::function<std::unique_ptr<Scheduler>(const SchedulerConfig&)> make;
};

// All registered schedulers, in the order they are listed to users.
const std::vector<SchedulerEntry>& schedulers();

// Makes the scheduler called `name`; throws std::invalid_argument listing the known names if unknown.
std::unique_ptr<Scheduler> make_scheduler(std::string_view name, const SchedulerConfig& config = {});

}  // namespace schedlab::sim
