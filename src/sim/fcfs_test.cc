// Hand-computed FCFS and FCFS-fill schedules.
#include "schedlab/sim/fcfs.h"

#include <gtest/gtest.h>

#include "sim/sim_test_helpers.h"

namespace schedlab::sim {
namespace {
using testing::J;
using V = std::vector<int64_t>;

TEST(FcfsTest, StopsAtTheFirstJobThatDoesNotFit) {
  // J3 (2 procs) would fit at t=2 but waits behind J2 under fcfs; fcfs-fill starts it.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 10, 2, 10}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "fcfs")), (V{0, 100, 100}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "fcfs-fill")), (V{0, 100, 2}));
}

TEST(FcfsTest, FillHasNoReservationAndCanDelayTheHead) {
  // fcfs-fill starts J3 (4 procs, 200 s) at t=2 and J2 (8) waits until J3 ends at 202.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 200, 4, 200}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "fcfs")), (V{0, 100, 150}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "fcfs-fill")), (V{0, 202, 2}));
}

TEST(FcfsTest, FillScansTheWholeQueueInOneCall) {
  // At t=100 the queue is J2 (8), J3 (6), J4 (3), J5 (1). First fit: J2 starts, 2 processors are left,
  // J3 and J4 do not fit, J5 does. fcfs stops at J3 and starts J3, J4, J5 together at 150.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 50, 6, 50},
                                        J{4, 3, 50, 3, 50}, J{5, 4, 50, 1, 50}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "fcfs-fill")), (V{0, 100, 150, 150, 100}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "fcfs")), (V{0, 100, 150, 150, 150}));
}

TEST(FcfsTest, TerminationsBeforeArrivalsAndTiesByJobId) {
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{3, 100, 10, 10, 10}, J{2, 100, 10, 10, 10}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "fcfs")), (V{0, 100, 110}));
}

TEST(FcfsTest, ZeroRuntimeJobs) {
  const auto w = testing::workload(10, {J{1, 0, 0, 10, 10}, J{2, 0, 5, 10, 10}, J{3, 0, 0, 10, 10}});
  const auto r = testing::run(w, "fcfs");
  EXPECT_EQ(testing::starts(w, r), (V{0, 0, 5}));
  EXPECT_EQ(r.jobs[0].end, 0);
}

TEST(FcfsTest, KillAtEstimate) {
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 50}, J{2, 1, 10, 10, 10}}, true);
  const auto r = testing::run(w, "fcfs");
  EXPECT_EQ(testing::starts(w, r), (V{0, 50}));
  EXPECT_EQ(r.jobs[0].end, 50);
}

TEST(FcfsTest, IgnoresPredictions) {
  // Wildly wrong estimates change nothing for fcfs.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 5}, J{2, 1, 50, 8, 5000}, J{3, 2, 10, 2, 1}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "fcfs", "estimate")),
            testing::starts(w, testing::run(w, "fcfs", "perfect")));
}

}  // namespace
}  // namespace schedlab::sim
