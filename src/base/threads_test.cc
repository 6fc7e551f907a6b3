// One thread-count rule for every parallel computation.
#include "schedlab/base/threads.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

namespace schedlab::base {
namespace {

TEST(WorkerThreads, GivenCountCappedByTheWork) {
  EXPECT_EQ(worker_threads(3, 100), 3u);
  EXPECT_EQ(worker_threads(8, 5), 5u);
  EXPECT_EQ(worker_threads(1, 0), 1u);  // no work still means one (idle) thread, never zero
  EXPECT_EQ(worker_threads(4, 0), 1u);
}

TEST(WorkerThreads, ZeroMeansEveryCore) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_EQ(worker_threads(0, 1'000'000), cores);
  EXPECT_EQ(worker_threads(0, 1), 1u);
}

TEST(WorkerThreads, NegativeIsAnErrorNamingTheValue) {
  try {
    worker_threads(-1, 10);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "threads must be >= 0 (0 = every core), not -1");
  }
}

}  // namespace
}  // namespace schedlab::base
