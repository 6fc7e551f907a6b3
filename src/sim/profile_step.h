// A private header (src/sim): the value types the availability profile and its two representations share.
#pragma once

#include <cstdint>
#include <limits>

namespace schedlab::sim {

struct ProfileStep {
  int64_t time = 0;  // the step starts here
  int64_t free = 0;  // processors free from `time` until the next step's time
  friend bool operator==(const ProfileStep&, const ProfileStep&) = default;
};

// The fewest and the most processors free over an interval.
struct ProfileFreeRange {
  int64_t least = 0, most = 0;
};

inline constexpr int64_t kProfileInfinity = std::numeric_limits<int64_t>::max();

// The errors of reserve() and release() (std::logic_error), the same from either representation.
[[noreturn]] void throw_not_free(int64_t start, int64_t end, int64_t procs);
[[noreturn]] void throw_over_capacity(int64_t start, int64_t end, int64_t procs);

}  // namespace schedlab::sim
