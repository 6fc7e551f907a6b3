// One thread-count rule for every parallel computation.
#include "schedlab/base/threads.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

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

TEST(ParallelFor, EveryItemOnceOnAnyNumberOfThreads) {
  for (const unsigned threads : {1u, 2u, 7u}) {
    std::vector<std::atomic<int>> seen(1000);
    std::atomic<unsigned> highest_worker{0};
    parallel_for(threads, seen.size(), [&](size_t i, unsigned worker) {
      ++seen[i];
      unsigned h = highest_worker.load();
      while (worker > h && !highest_worker.compare_exchange_weak(h, worker)) {
      }
    });
    for (const auto& s : seen) EXPECT_EQ(s.load(), 1) << threads;
    EXPECT_LT(highest_worker.load(), threads);
  }
  parallel_for(4, 0, [](size_t, unsigned) { ADD_FAILURE() << "no item to run"; });
}

TEST(ParallelFor, AnItemsErrorReachesTheCallerAndStopsTheRest) {
  // Thrown inside a thread it ended the process (std::terminate); now the caller gets it after the threads stop.
  // Each other item takes 1 ms, so running them all would take a second: the other threads cannot outrun the
  // failure (with empty items they did, on a loaded machine).
  for (const unsigned threads : {1u, 3u}) {
    std::atomic<int> ran{0};
    try {
      parallel_for(threads, 3000, [&](size_t i, unsigned) {
        ++ran;
        if (i == 10) throw std::runtime_error("item 10 failed");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      });
      FAIL() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "item 10 failed");
    }
    EXPECT_LT(ran.load(), 3000) << threads;  // the items after the error were not begun
    if (threads == 1) {
      EXPECT_EQ(ran.load(), 11);
    }
  }
}

}  // namespace
}  // namespace schedlab::base
