#include "sim/availability_profile.h"

#include <algorithm>
#include <stdexcept>

namespace schedlab::sim {

namespace {

std::variant<FlatProfile, BlockedProfile> make(int64_t capacity, AvailabilityProfile::Time origin,
                                               AvailabilityProfile::Layout layout) {
  if (layout == AvailabilityProfile::Layout::kBlocked) return BlockedProfile(capacity, origin);
  return FlatProfile(capacity, origin);
}

}  // namespace

AvailabilityProfile::AvailabilityProfile(int64_t capacity, Time origin, Layout layout)
    : layout_(layout), impl_(make(capacity, origin, layout)) {}

void AvailabilityProfile::assign(Time origin, std::vector<std::pair<Time, int64_t>> busy_until) {
  const int64_t capacity = this->capacity();
  std::sort(busy_until.begin(), busy_until.end());
  int64_t busy = 0;
  for (const auto& [until, procs] : busy_until) {
    if (procs < 0) throw std::invalid_argument("AvailabilityProfile::assign: negative processors");
    if (until > origin) busy += procs;
  }
  if (busy > capacity) {
    throw std::logic_error("AvailabilityProfile::assign: " + std::to_string(busy) + " processors busy on a machine of " +
                           std::to_string(capacity));
  }
  std::vector<Step> steps;
  steps.push_back(Step{origin, capacity - busy});
  for (const auto& [until, procs] : busy_until) {
    if (until <= origin || procs == 0) continue;
    if (steps.back().time == until) {
      steps.back().free += procs;
    } else {
      steps.push_back(Step{until, steps.back().free + procs});
    }
  }
  if (layout_ == Layout::kBlocked || (layout_ == Layout::kAuto && steps.size() > kToBlocked)) {
    impl_ = BlockedProfile(capacity, steps);
  } else {
    impl_ = FlatProfile(capacity, std::move(steps));
  }
}

std::string AvailabilityProfile::to_string() const {
  std::string out;
  for (const Step& s : steps()) {
    if (!out.empty()) out += ' ';
    out += '[' + std::to_string(s.time) + ',' + std::to_string(s.free) + ')';
  }
  return out;
}

void AvailabilityProfile::check_fit(int64_t procs, Time duration) const {
  if (procs < 0 || procs > capacity()) {
    throw std::invalid_argument("AvailabilityProfile::earliest_fit: " + std::to_string(procs) +
                                " processors on a machine of " + std::to_string(capacity()));
  }
  if (duration < 0) throw std::invalid_argument("AvailabilityProfile::earliest_fit: negative duration");
}

void AvailabilityProfile::switch_layout() {
  const int64_t capacity = this->capacity();
  std::vector<Step> steps = this->steps();
  if (blocked()) {
    impl_ = FlatProfile(capacity, std::move(steps));
  } else {
    impl_ = BlockedProfile(capacity, steps);
  }
}

}  // namespace schedlab::sim
