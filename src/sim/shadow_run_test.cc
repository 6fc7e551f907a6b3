#include "sim/shadow_run.h"

#include <gtest/gtest.h>

namespace schedlab::sim {
namespace {

// The window's means, hand-computed. A job that neither waits nor runs has slowdown 1 (it counted 0, a slowdown
// no schedule can have, which pulled PBAS's slowdown of a window down); bounded slowdown 1 as always.
TEST(WindowMeter, MeansOfAHandComputedWindow) {
  WindowMeter m;
  m.reset(0, 0);
  m.started(0, 0, 0, 1);     // wait 0, length 0: slowdown 1 (0 / 1 before the floor), bsld 1
  m.started(0, 20, 20, 1);   // wait 20, length 20: response 40, slowdown 2, bsld 2
  const WaitQueue none;
  const auto length = [](const WaitingJob&) { return int64_t{0}; };
  EXPECT_DOUBLE_EQ(m.value(AdaptiveMetric::kWait, 50, 4, none, length), 10.0);
  EXPECT_DOUBLE_EQ(m.value(AdaptiveMetric::kResponse, 50, 4, none, length), 20.0);
  EXPECT_DOUBLE_EQ(m.value(AdaptiveMetric::kSlowdown, 50, 4, none, length), 1.5);
  EXPECT_DOUBLE_EQ(m.value(AdaptiveMetric::kBoundedSlowdown, 50, 4, none, length), 1.5);
}

}  // namespace
}  // namespace schedlab::sim
