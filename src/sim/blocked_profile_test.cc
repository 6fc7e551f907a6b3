// BlockedProfile's own layout paths (sim/blocked_profile.h); its answers against the vector profile and brute
// force are in availability_profile_test.cc, which runs every test on both layouts.
#include "sim/blocked_profile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace schedlab::sim {
namespace {

using BlockedStep = BlockedProfile::Step;

// A block that falls under a quarter full joins its neighbour; when the two hold more than one block can, they
// share the steps, and when the neighbour on the left is the fuller one it gives its last steps to the right.
// load() fills blocks to three quarters (96 steps: two of 48); reservations inside the first block grow it to 62,
// then merges in the second shrink it below 16: 62 + 15 steps are shared 38 / 39. No random sequence of the
// layout tests reached this case (a coverage build showed it).
TEST(BlockedProfile, AnUnderfullLastBlockTakesStepsFromAFullerLeftNeighbour) {
  constexpr int64_t kCap = 100;
  std::vector<BlockedStep> steps;
  std::vector<int64_t> free(960, 0);  // brute force, one value per second
  for (int64_t i = 0; i < 96; ++i) {
    steps.push_back(BlockedStep{10 * i, i % 2 == 0 ? 90 : kCap});
    for (int64_t t = 10 * i; t < 10 * i + 10; ++t) free[static_cast<size_t>(t)] = steps.back().free;
  }
  BlockedProfile p(kCap, steps);
  const auto hold = [&](int64_t s, int64_t e, int64_t procs) {
    p.reserve(s, e, procs);
    for (int64_t t = s; t < e; ++t) free[static_cast<size_t>(t)] -= procs;
  };
  const auto expected = [&] {
    std::vector<BlockedStep> out;
    for (int64_t t = 0; t < 960; ++t)
      if (out.empty() || out.back().free != free[static_cast<size_t>(t)])
        out.push_back(BlockedStep{t, free[static_cast<size_t>(t)]});
    return out;
  };
  for (int64_t i = 0; i < 7; ++i) hold(10 * i + 2, 10 * i + 3, 1);  // first block: 48 -> 62 steps
  ASSERT_EQ(p.check(), "");
  ASSERT_EQ(p.steps(), expected());
  for (int64_t i = 49; i <= 93; i += 2) {  // second block: each 100-free run filled to 90 merges two steps away
    hold(10 * i, 10 * i + 10, 10);
    ASSERT_EQ(p.check(), "") << i;
    ASSERT_EQ(p.steps(), expected()) << i;
    ASSERT_EQ(p.min_free(0, 960), 89);
    for (const int64_t procs : {91, 95, 100}) {  // the earliest 5 s with that many free, by brute force
      int64_t fit = 960;                            // at the end, free forever
      for (int64_t t = 0; t < 955 && fit == 960; ++t) {
        bool ok = true;
        for (int64_t u = t; u < t + 5; ++u) ok = ok && free[static_cast<size_t>(u)] >= procs;
        if (ok) fit = t;
      }
      ASSERT_EQ(p.earliest_fit(0, procs, 5), std::min<int64_t>(fit, 950)) << i << " " << procs;
    }
  }
  EXPECT_EQ(p.step_count(), 62u + 2u);
}

}  // namespace
}  // namespace schedlab::sim
