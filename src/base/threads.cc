#include "schedlab/base/threads.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>

namespace schedlab::base {

void check_threads(long long requested) {
  if (requested < 0)
    throw std::invalid_argument("threads must be >= 0 (0 = every core), not " + std::to_string(requested));
}

unsigned worker_threads(long long requested, size_t work_items) {
  check_threads(requested);
  // hardware_concurrency() may be 0 when the machine does not say.
  const unsigned long long wanted =
      requested > 0 ? static_cast<unsigned long long>(requested) : std::thread::hardware_concurrency();
  const unsigned long long capped = std::min<unsigned long long>(wanted, work_items);
  return static_cast<unsigned>(std::max<unsigned long long>(capped, 1));
}

}  // namespace schedlab::base
