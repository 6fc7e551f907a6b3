// FitNow (src/sim/fit_now.h) against the profile it was built from: after any sequence of starts, every job's fit
// now is the profile's own answer.
#include "sim/fit_now.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

namespace schedlab::sim {
namespace {

TEST(FitNowTest, HandProfile) {
  // 10 processors from t = 100: 4 busy until 150, 3 more reserved on [120, 200).
  AvailabilityProfile profile(10, 100);
  profile.assign(100, {{150, 4}});
  profile.reserve(120, 200, 3);
  FitNow now;
  now.assign(profile);  // free 6 on [100, 120), 3 on [120, 150), 7 on [150, 200), 10 after: minima 6, 3
  EXPECT_EQ(now.free(), 6);
  EXPECT_EQ(now.second_free(), 3);
  EXPECT_EQ(now.first_drop(), 20);
  EXPECT_TRUE(now.fits(6, 20));
  EXPECT_FALSE(now.fits(6, 21));
  EXPECT_TRUE(now.fits(3, 1000));
  now.take(2, 30);  // 4 on [100, 120), 1 on [120, 130); 5 on [130, 150) is not a drop below 1
  EXPECT_EQ(now.free(), 4);
  EXPECT_TRUE(now.fits(4, 20));
  EXPECT_FALSE(now.fits(2, 21));
  EXPECT_TRUE(now.fits(1, 5000));
  EXPECT_THROW(now.take(2, 25), std::logic_error);
}

TEST(FitNowTest, RandomProfilesAgreeWithTheProfileAfterEveryStart) {
  std::mt19937 rng(99);
  for (int round = 0; round < 300; ++round) {
    const int64_t capacity = 1 + rng() % 64, now = rng() % 1000;
    std::vector<std::pair<int64_t, int64_t>> busy;
    int64_t used = 0;
    while (used < capacity && rng() % 8 != 0) {
      const int64_t p = 1 + rng() % std::min<int64_t>(capacity - used, 8);
      busy.emplace_back(now + 1 + rng() % 500, p);
      used += p;
    }
    AvailabilityProfile profile(capacity, now);
    profile.assign(now, busy);
    for (int r = 0; r < 6; ++r) {  // future reservations, as maui's depth places them
      const int64_t p = 1 + rng() % capacity, d = 1 + rng() % 300;
      const int64_t t = profile.earliest_fit(now + 1 + rng() % 200, p, d);
      profile.reserve(t, t + d, p);
    }
    FitNow fit;
    fit.assign(profile);
    for (int job = 0; job < 40; ++job) {
      const int64_t p = 1 + rng() % capacity, d = 1 + rng() % 700;
      const bool want = profile.fits(now, p, d);
      ASSERT_EQ(fit.fits(p, d), want) << "round " << round << ", job " << job;
      ASSERT_EQ(fit.free(), profile.free_at(now));
      if (want) {
        EXPECT_TRUE(p <= fit.free() && (p <= fit.second_free() || d <= fit.first_drop()));
        fit.take(p, d);
        profile.reserve(now, now + d, p);
      }
    }
  }
}

}  // namespace
}  // namespace schedlab::sim
