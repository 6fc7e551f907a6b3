// Free processors as a step function summed from a list of holds, for the obvious schedulers of the reference tests
// (tests/conservative_reference.h, tests/flex_reference.h): built afresh for each question from the holds, with no
// state of its own to keep right, so that it shares nothing with sim/availability_profile.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace schedlab::testing {

// Processors held on [start, end).
struct Hold {
  int64_t start = 0, end = 0, procs = 0;
};

class HoldSteps {
 public:
  // The free processors of a machine of `total` from `now` on, less the holds (the parts before `now` ignored).
  HoldSteps(int64_t total, int64_t now, const std::vector<Hold>& holds) {
    std::vector<std::pair<int64_t, int64_t>> deltas;
    for (const Hold& h : holds) {
      if (h.end <= now) continue;
      deltas.emplace_back(std::max(h.start, now), -h.procs);
      deltas.emplace_back(h.end, h.procs);
    }
    std::sort(deltas.begin(), deltas.end());
    steps_.push_back({now, total});
    for (const auto& [t, d] : deltas) {
      if (t == steps_.back().first) {
        steps_.back().second += d;
      } else {
        steps_.push_back({t, steps_.back().second + d});
      }
    }
  }
  // The fewest processors free at any time of [from, to): the step holding `from` and those starting before `to`.
  int64_t min_free(int64_t from, int64_t to) const {
    auto k = std::upper_bound(steps_.begin(), steps_.end(), from,
                              [](int64_t t, const std::pair<int64_t, int64_t>& s) { return t < s.first; });
    if (k != steps_.begin()) --k;
    int64_t least = std::numeric_limits<int64_t>::max();
    for (; k != steps_.end() && k->first < to; ++k) least = std::min(least, k->second);
    return least;
  }
  bool fits(int64_t start, int64_t procs, int64_t d) const { return min_free(start, start + d) >= procs; }
  // The earliest t >= from with `procs` processors free on [t, t + d): `from` or a time where processors come back.
  int64_t earliest_fit(int64_t from, int64_t procs, int64_t d) const {
    if (fits(from, procs, d)) return from;
    for (const auto& [t, free] : steps_)
      if (t > from && fits(t, procs, d)) return t;
    throw std::logic_error("reference scheduler: a job fits nowhere");
  }

 private:
  std::vector<std::pair<int64_t, int64_t>> steps_;  // (time, free from then on)
};

}  // namespace schedlab::testing
