#include "sim/fit_floor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

namespace schedlab::sim {
namespace {

TEST(FitFloor, ClassesTwoPerOctave) {
  const std::vector<int64_t> bounds = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};
  for (size_t c = 0; c < bounds.size(); ++c) {
    EXPECT_EQ(FitFloor::class_bound(static_cast<int>(c)), bounds[c]);
    EXPECT_EQ(FitFloor::floor_class(bounds[c]), static_cast<int>(c));
    EXPECT_EQ(FitFloor::ceil_class(bounds[c]), static_cast<int>(c));
  }
  EXPECT_EQ(FitFloor::floor_class(5), 3);  // 4 <= 5 < 6
  EXPECT_EQ(FitFloor::ceil_class(5), 4);   // 5 <= 6
  EXPECT_EQ(FitFloor::floor_class(47), 9);
  EXPECT_EQ(FitFloor::ceil_class(47), 10);
  // Every value lies between its classes' bounds, up to the largest int64.
  std::mt19937_64 rng(7);
  for (int k = 0; k < 100000; ++k) {
    const int64_t v = std::max<int64_t>(1, static_cast<int64_t>(rng() >> (rng() % 64)));
    const int f = FitFloor::floor_class(v);
    ASSERT_LE(FitFloor::class_bound(f), v) << v;
    if (f + 1 <= 124) {
      ASSERT_GT(FitFloor::class_bound(f + 1), v) << v;
    }
    const int c = FitFloor::ceil_class(v);
    ASSERT_TRUE(c == f || c == f + 1) << v;
    if (c <= 124) {
      ASSERT_GE(FitFloor::class_bound(c), v) << v;
    }
  }
  EXPECT_EQ(FitFloor::ceil_class(std::numeric_limits<int64_t>::max()), 125);
}

// Against the exact dominance bound (the latest fit of a job no larger and no longer): never above it, and equal
// when every size is a class bound; durations are exact.
TEST(FitFloor, NeverAboveTheExactBoundAndExactOnClassSizes) {
  std::mt19937 rng(11);
  for (const bool class_sizes : {false, true}) {
    for (int round = 0; round < 200; ++round) {
      FitFloor floor(1000);
      std::vector<std::tuple<int64_t, int64_t, int64_t>> fits;
      const auto size = [&] {
        const int64_t p = 1 + static_cast<int64_t>(rng() % 1000);
        return class_sizes ? FitFloor::class_bound(FitFloor::floor_class(p)) : p;
      };
      size_t above_none = 0;
      for (int k = 0; k < 300; ++k) {
        const int64_t p = size();
        const int64_t d = 1 + static_cast<int64_t>(rng() % 5000);
        int64_t exact = FitFloor::kNone;
        for (const auto& [fp, fd, ft] : fits)
          if (fp <= p && fd <= d) exact = std::max(exact, ft);
        const int64_t got = floor.floor(p, d);
        ASSERT_LE(got, exact) << "round " << round << " query " << k;
        if (class_sizes) {
          ASSERT_EQ(got, exact) << "round " << round << " query " << k;
        }
        above_none += got != FitFloor::kNone;
        const int64_t t = static_cast<int64_t>(rng() % 100000);
        floor.record(p, d, t);
        fits.emplace_back(p, d, t);
      }
      EXPECT_GT(above_none, 100u);
    }
  }
}

TEST(FitFloor, LaterFitOfAShorterJobReplacesLongerOnes) {
  FitFloor floor(16);
  floor.record(4, 100, 50);
  floor.record(4, 200, 40);  // implied by the shorter job's later fit: kept out
  EXPECT_EQ(floor.floor(4, 200), 50);
  floor.record(4, 10, 70);  // covers both
  EXPECT_EQ(floor.floor(4, 10), 70);
  EXPECT_EQ(floor.floor(4, 9), FitFloor::kNone);
  EXPECT_EQ(floor.floor(3, 100), FitFloor::kNone);  // a smaller job: no bound
  EXPECT_EQ(floor.floor(16, 1000), 70);
  floor.record(4, 10, 70);  // the same fit again changes nothing
  EXPECT_EQ(floor.floor(6, 10), 70);
  floor.record(32, 1, 999);  // larger than the machine: never read
  EXPECT_EQ(floor.floor(16, 1000), 70);
  floor.record(0, 5, 999);  // no processors, or no time: nothing kept, nothing bounded
  floor.record(4, 0, 999);
  EXPECT_EQ(floor.floor(16, 1000), 70);
  EXPECT_EQ(floor.floor(0, 1000), FitFloor::kNone);
  EXPECT_EQ(floor.floor(16, 0), FitFloor::kNone);
}

}  // namespace
}  // namespace schedlab::sim
