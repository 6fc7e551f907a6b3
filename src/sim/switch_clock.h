// A private header (src/sim): when an adaptive scheduler's switch points fall, and how long each candidate
// drove the machine (pbas, wbas). Switch points are every `interval` from the first call, each taken at the
// first call at or after its time; the next one is then the first multiple of `interval` after that call.
#pragma once

#include <cstdint>
#include <utility>

#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class SwitchClock {
 public:
  enum class Call { kFirst, kSwitchPoint, kOther };
  SwitchClock(int64_t interval, AdaptiveStats stats) : interval_(interval), stats_(std::move(stats)) {}

  bool started() const { return started_; }
  // Classifies the scheduler call at `now` (and moves the next switch point past it when one is due).
  Call at(int64_t now) {
    last_call_ = now;
    if (!started_) {
      started_ = true;
      next_ = now + interval_;
      active_since_ = now;
      return Call::kFirst;
    }
    if (now < next_) return Call::kOther;
    next_ += ((now - next_) / interval_ + 1) * interval_;
    return Call::kSwitchPoint;
  }
  // The choice made at a switch point at `now`: `chosen` replaces `active` (the same: no switch).
  void chose(size_t active, size_t chosen, int64_t now) {
    ++stats_.switch_points;
    ++stats_.candidates[chosen].chosen;
    if (chosen == active) return;
    ++stats_.switches;
    stats_.candidates[active].active_seconds += now - active_since_;
    active_since_ = now;
  }
  // The report, the active candidate's time counted up to the last call.
  const AdaptiveStats* report(size_t active) const {
    report_ = stats_;
    report_.candidates[active].active_seconds += last_call_ - active_since_;
    return &report_;
  }

 private:
  int64_t interval_;
  AdaptiveStats stats_;
  bool started_ = false;
  int64_t next_ = 0, active_since_ = 0, last_call_ = 0;
  mutable AdaptiveStats report_;
};

}  // namespace schedlab::sim
