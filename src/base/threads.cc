#include "schedlab/base/threads.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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

void parallel_for(unsigned threads, size_t items, const std::function<void(size_t, unsigned)>& work) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first;
  std::mutex mu;
  const auto fail = [&] {
    std::lock_guard<std::mutex> lock(mu);
    if (!first) first = std::current_exception();
    failed = true;
  };
  const auto loop = [&](unsigned worker) {
    for (size_t i = next++; i < items && !failed.load(); i = next++) {
      try {
        work(i, worker);
      } catch (...) {
        fail();
      }
    }
  };
  std::vector<std::thread> pool;
  try {
    for (unsigned w = 1; w < threads && w < items; ++w) pool.emplace_back(loop, w);
  } catch (...) {  // a thread could not be started: the ones that were finish what they took
    fail();
  }
  loop(0);
  for (auto& t : pool) t.join();
  if (first) std::rethrow_exception(first);
}

}  // namespace schedlab::base
