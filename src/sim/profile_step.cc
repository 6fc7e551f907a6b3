#include "sim/profile_step.h"

#include <stdexcept>
#include <string>

namespace schedlab::sim {

void throw_not_free(int64_t start, int64_t end, int64_t procs) {
  throw std::logic_error("AvailabilityProfile::reserve: " + std::to_string(procs) + " processors not free on [" +
                         std::to_string(start) + "," + std::to_string(end) + ")");
}

void throw_over_capacity(int64_t start, int64_t end, int64_t procs) {
  throw std::logic_error("AvailabilityProfile::release: " + std::to_string(procs) + " processors on [" +
                         std::to_string(start) + "," + std::to_string(end) + ") exceed the capacity");
}

}  // namespace schedlab::sim
