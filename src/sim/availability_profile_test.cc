#include "sim/availability_profile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace schedlab::sim {
namespace {

using Step = AvailabilityProfile::Step;
using Steps = std::vector<Step>;
using Layout = AvailabilityProfile::Layout;

// Every test runs on both representations, and on the automatic choice (sim/availability_profile.h).
class AvailabilityProfileLayouts : public ::testing::TestWithParam<Layout> {
 protected:
  AvailabilityProfile make(int64_t capacity, int64_t origin = 0) const {
    return AvailabilityProfile(capacity, origin, GetParam());
  }
};

TEST_P(AvailabilityProfileLayouts, StartsFullyFree) {
  AvailabilityProfile p = make(10, 5);
  EXPECT_EQ(p.steps(), (Steps{{5, 10}}));
  EXPECT_EQ(p.free_at(5), 10);
  EXPECT_EQ(p.free_at(1'000'000), 10);
  EXPECT_THROW(p.free_at(4), std::out_of_range);
  EXPECT_THROW(make(0), std::invalid_argument);
}

TEST_P(AvailabilityProfileLayouts, ReserveSplitsAndReleaseMerges) {
  AvailabilityProfile p = make(10);
  p.reserve(10, 20, 4);
  EXPECT_EQ(p.steps(), (Steps{{0, 10}, {10, 6}, {20, 10}}));
  p.reserve(15, 30, 6);  // overlaps the first: 0 free on [15,20)
  EXPECT_EQ(p.steps(), (Steps{{0, 10}, {10, 6}, {15, 0}, {20, 4}, {30, 10}}));
  p.release(10, 20, 4);
  EXPECT_EQ(p.steps(), (Steps{{0, 10}, {15, 4}, {30, 10}}));
  p.release(15, 30, 6);
  EXPECT_EQ(p.steps(), (Steps{{0, 10}}));
  EXPECT_EQ(p.check(), "");
}

TEST_P(AvailabilityProfileLayouts, AdjacentReservationsWithSameValueMerge) {
  AvailabilityProfile p = make(8);
  p.reserve(0, 10, 3);
  p.reserve(10, 20, 3);  // [0,20) at 5: one step, not two
  EXPECT_EQ(p.steps(), (Steps{{0, 5}, {20, 8}}));
  p.release(0, 10, 3);
  EXPECT_EQ(p.steps(), (Steps{{0, 8}, {10, 5}, {20, 8}}));
  EXPECT_EQ(p.check(), "");
}

TEST_P(AvailabilityProfileLayouts, ReserveRefusesOvercommitAndLeavesProfileUnchanged) {
  AvailabilityProfile p = make(10);
  p.reserve(0, 100, 7);
  const Steps before = p.steps();
  EXPECT_THROW(p.reserve(50, 150, 4), std::logic_error);  // only 3 free on [50,100)
  EXPECT_EQ(p.steps(), before);
  EXPECT_THROW(p.release(90, 110, 4), std::logic_error);  // 10 free on [100,110): 14 > capacity
  EXPECT_EQ(p.steps(), before);
  p.reserve(100, 150, 10);  // half-open: [0,100) and [100,150) do not overlap
  EXPECT_EQ(p.steps(), (Steps{{0, 3}, {100, 0}, {150, 10}}));
}

// free: [0,10) 2, [10,20) 6, [20,25) 1, [25,40) 5, [40,inf) 10 on a machine of 10.
AvailabilityProfile HandComputedProfile(Layout layout) {
  AvailabilityProfile p(10, 0, layout);
  p.reserve(0, 10, 8);
  p.reserve(10, 20, 4);
  p.reserve(20, 25, 9);
  p.reserve(25, 40, 5);
  return p;
}

TEST_P(AvailabilityProfileLayouts, EarliestFitHandComputed) {
  // free: [0,10) 2, [10,20) 6, [20,25) 1, [25,40) 5, [40,inf) 10
  AvailabilityProfile p = HandComputedProfile(GetParam());
  ASSERT_EQ(p.steps(), (Steps{{0, 2}, {10, 6}, {20, 1}, {25, 5}, {40, 10}}));
  EXPECT_EQ(p.earliest_fit(0, 2, 1000), 25);  // [20,25) has only 1 free
  EXPECT_EQ(p.earliest_fit(0, 2, 20), 0);     // [0,20) has >= 2
  EXPECT_EQ(p.earliest_fit(0, 2, 21), 25);    // [0,21) hits the 1-wide hole at 20
  EXPECT_EQ(p.earliest_fit(0, 6, 10), 10);    // [10,20) exactly
  EXPECT_EQ(p.earliest_fit(0, 6, 11), 40);    // nothing before 40 holds 6 for 11 s
  EXPECT_EQ(p.earliest_fit(0, 5, 10), 10);    // [10,20) has 6
  EXPECT_EQ(p.earliest_fit(0, 5, 15), 25);    // [25,40) has 5 for 15 s
  EXPECT_EQ(p.earliest_fit(0, 5, 16), 25);    // [25,inf) has >= 5
  EXPECT_EQ(p.earliest_fit(0, 1, 1'000'000), 0);
  EXPECT_EQ(p.earliest_fit(12, 6, 8), 12);    // from inside a step
  EXPECT_EQ(p.earliest_fit(12, 6, 9), 40);
  EXPECT_EQ(p.earliest_fit(0, 10, 1), 40);
  EXPECT_EQ(p.earliest_fit(0, 0, 5), 0);
  EXPECT_EQ(p.earliest_fit(3, 10, 0), 3);     // zero duration fits at once
  EXPECT_THROW(p.earliest_fit(0, 11, 1), std::invalid_argument);
  EXPECT_TRUE(p.fits(10, 6, 10));
  EXPECT_FALSE(p.fits(10, 6, 11));
  EXPECT_EQ(p.min_free(5, 30), 1);
}

TEST_P(AvailabilityProfileLayouts, EarliestFitBeforeOwnHold) {
  // free: [0,10) 2, [10,20) 6, [20,25) 1, [25,40) 5 (a job of 5 holds [25,40)), [40,inf) 10
  AvailabilityProfile p = HandComputedProfile(GetParam());
  // The job holding 5 on [25,40) (duration 15): [10,20) has 6 but the window [10,25) hits the 1 at 20.
  EXPECT_EQ(p.earliest_fit_before(0, 5, 15, 25), 25);
  // A 5-wide job of duration 10 holding [25,35)... as if: [10,20) fits entirely.
  EXPECT_EQ(p.earliest_fit_before(0, 5, 10, 25), 10);
  // Up to the limit its own hold takes over: 1 processor, 30 s, holding [20,50): [0,20) suffices.
  EXPECT_EQ(p.earliest_fit_before(0, 1, 30, 20), 0);
  EXPECT_EQ(p.earliest_fit_before(30, 1, 30, 20), 20);  // from past the limit
}

TEST_P(AvailabilityProfileLayouts, ReservationAtEarliestFitAlwaysSucceeds) {
  AvailabilityProfile p = make(10);
  p.reserve(0, 10, 8);
  p.reserve(10, 20, 4);
  auto t = p.earliest_fit(0, 6, 10);
  EXPECT_EQ(t, 10);
  p.reserve(t, t + 10, 6);
  EXPECT_EQ(p.steps(), (Steps{{0, 2}, {10, 0}, {20, 10}}));
}

TEST_P(AvailabilityProfileLayouts, ReserveEarliestSearchesAndReservesInOneCall) {
  // free: [0,10) 2, [10,20) 6, [20,25) 1, [25,40) 5, [40,inf) 10
  AvailabilityProfile p = HandComputedProfile(GetParam());
  EXPECT_EQ(p.reserve_earliest(0, 6, 10), 10);  // [10,20) exactly: the step it starts in, to the next
  EXPECT_EQ(p.steps(), (Steps{{0, 2}, {10, 0}, {20, 1}, {25, 5}, {40, 10}}));
  EXPECT_EQ(p.reserve_earliest(0, 5, 16), 25);  // across the step at 40: [25,40) 5 -> 0, [40,41) 10 -> 5
  EXPECT_EQ(p.steps(), (Steps{{0, 2}, {10, 0}, {20, 1}, {25, 0}, {40, 5}, {41, 10}}));
  EXPECT_EQ(p.reserve_earliest(3, 2, 4), 3);  // from inside the first step: it is split on both sides
  EXPECT_EQ(p.steps(), (Steps{{0, 2}, {3, 0}, {7, 2}, {10, 0}, {20, 1}, {25, 0}, {40, 5}, {41, 10}}));
  EXPECT_EQ(p.reserve_earliest(0, 3, 0), 0);  // zero duration: nothing held
  EXPECT_EQ(p.steps().size(), 8u);
  EXPECT_THROW(p.reserve_earliest(0, 11, 1), std::invalid_argument);
  EXPECT_EQ(p.check(), "");
}

TEST_P(AvailabilityProfileLayouts, AdvanceForgetsThePast) {
  AvailabilityProfile p = make(10);
  p.reserve(0, 10, 8);
  p.reserve(10, 20, 4);
  p.advance(5);
  EXPECT_EQ(p.steps(), (Steps{{5, 2}, {10, 6}, {20, 10}}));
  p.advance(10);
  EXPECT_EQ(p.steps(), (Steps{{10, 6}, {20, 10}}));
  p.advance(30);
  EXPECT_EQ(p.steps(), (Steps{{30, 10}}));
  EXPECT_THROW(p.free_at(29), std::out_of_range);
  EXPECT_EQ(p.check(), "");
}

TEST_P(AvailabilityProfileLayouts, AssignBuildsFromBusyIntervals) {
  AvailabilityProfile p = make(10);
  p.reserve(0, 5, 1);
  p.assign(100, {{150, 3}, {120, 2}, {150, 1}, {90, 4}, {200, 0}});  // (90,4) ended before the origin
  EXPECT_EQ(p.steps(), (Steps{{100, 4}, {120, 6}, {150, 10}}));
  EXPECT_EQ(p.check(), "");
  const Steps before = p.steps();
  EXPECT_THROW(p.assign(0, {{10, 6}, {20, 5}}), std::logic_error);
  EXPECT_EQ(p.steps(), before);
  p.assign(7, {});
  EXPECT_EQ(p.steps(), (Steps{{7, 10}}));
}

// Long profiles (hundreds of steps) go through the block-skipping scans: compare with a linear search.
TEST_P(AvailabilityProfileLayouts, LongProfilesMatchLinearSearch) {
  constexpr int64_t kCap = 64;
  constexpr int64_t kHorizon = 3000;
  std::mt19937 rng(777);
  AvailabilityProfile p = make(kCap);
  std::vector<int64_t> brute(kHorizon + 200, kCap);
  auto linear_fit = [&](int64_t from, int64_t procs, int64_t dur) {
    for (int64_t t = from;; ++t) {
      bool ok = true;
      for (int64_t u = t; u < t + dur && ok; ++u) {
        if (u < static_cast<int64_t>(brute.size()) && brute[static_cast<size_t>(u)] < procs) ok = false;
      }
      if (ok) return t;
    }
  };
  for (int op = 0; op < 3000; ++op) {
    const int64_t procs = 1 + static_cast<int64_t>(rng() % kCap);
    const int64_t dur = 1 + static_cast<int64_t>(rng() % 40);
    const int64_t from = static_cast<int64_t>(rng() % kHorizon);
    const int64_t t = p.earliest_fit(from, procs, dur);
    ASSERT_EQ(t, linear_fit(from, procs, dur)) << "op " << op << " steps " << p.steps().size();
    if (t + dur <= kHorizon) {
      p.reserve(t, t + dur, procs);
      for (int64_t u = t; u < t + dur; ++u) brute[static_cast<size_t>(u)] -= procs;
    }
  }
  EXPECT_GT(p.steps().size(), 200u);
  EXPECT_EQ(p.check(), "");
}

// A reference model: free processors per second over a window, and the queries computed from it.
struct ProfileReference {
  int64_t origin = 0;
  int64_t capacity = 0;
  std::vector<int64_t> free;  // free[t - origin]; beyond the end: capacity
  int64_t at(int64_t t) const {
    const int64_t i = t - origin;
    return i < static_cast<int64_t>(free.size()) ? free[static_cast<size_t>(i)] : capacity;
  }
  std::vector<Step> steps() const {
    std::vector<Step> out{{origin, at(origin)}};
    for (int64_t t = origin + 1; t <= origin + static_cast<int64_t>(free.size()); ++t) {
      if (at(t) != out.back().free) out.push_back({t, at(t)});
    }
    return out;
  }
  // The start of the first maximal run of seconds with procs free in [from, limit) (cut at from) that
  // overlaps [lo, hi) and lasts d seconds or reaches the limit, else limit.
  int64_t fit_in_run_overlapping(int64_t from, int64_t lo, int64_t hi, int64_t procs, int64_t d, int64_t limit) const {
    for (int64_t t = from; t < limit;) {
      if (at(t) < procs) {
        ++t;
        continue;
      }
      int64_t end = t;
      while (end < limit && at(end) >= procs) ++end;
      if ((end - t >= d || end == limit) && t < hi && end > lo) return t;
      t = end;
    }
    return limit;
  }
  // The earliest t in [from, limit) with procs free on [t, min(t + d, limit)), else limit.
  int64_t fit_before(int64_t from, int64_t procs, int64_t d, int64_t limit) const {
    for (int64_t t = from; t < limit; ++t) {
      bool ok = true;
      for (int64_t u = t; u < std::min(t + d, limit) && ok; ++u) ok = at(u) >= procs;
      if (ok) return t;
    }
    return limit;
  }
};

// Random operations against the per-second reference: `ops` operations, growing for the first `grow`
// then mostly shrinking; every query checked after each operation, the representation against check().
void RandomOpsMatchReference(Layout layout, uint32_t seed, int64_t cap, int64_t horizon, int ops, int grow,
                             size_t min_steps) {
  const int64_t kCap = cap, kHorizon = horizon;
  std::mt19937 rng(seed);
  AvailabilityProfile p(kCap, 0, layout);
  ProfileReference ref{0, kCap, std::vector<int64_t>(kHorizon + 400, kCap)};
  struct Held {
    int64_t s, e, procs;
  };
  std::vector<Held> held;
  auto rnd = [&](int64_t n) { return static_cast<int64_t>(rng() % static_cast<uint64_t>(n)); };
  size_t most_steps = 0;
  for (int op = 0; op < ops; ++op) {
    // First the profile grows, then it mostly shrinks.
    int kind = static_cast<int>(rng() % 10);
    if (op >= grow && rng() % 10 < 7) kind = 5;
    if (kind < 5) {  // reserve at the earliest fit (searched and reserved in one call, or in two)
      const int64_t procs = 1 + rnd(kCap);
      const int64_t dur = 1 + rnd(60);
      const int64_t from = ref.origin + rnd(kHorizon / 2);
      const int64_t expect = ref.fit_before(from, procs, dur, std::numeric_limits<int64_t>::max());
      const bool inside = expect + dur - ref.origin <= kHorizon;
      const bool in_one_call = inside && rng() % 2 == 0;
      const int64_t t = in_one_call ? p.reserve_earliest(from, procs, dur) : p.earliest_fit(from, procs, dur);
      ASSERT_EQ(t, expect) << "op " << op;
      if (inside) {
        if (!in_one_call) p.reserve(t, t + dur, procs);
        for (int64_t u = t; u < t + dur; ++u) ref.free[static_cast<size_t>(u - ref.origin)] -= procs;
        held.push_back({t, t + dur, procs});
      }
    } else if (kind < 8 && !held.empty()) {  // release a hold (possibly only its tail, as a shortened job)
      const size_t i = static_cast<size_t>(rnd(static_cast<int64_t>(held.size())));
      Held h = held[i];
      held.erase(held.begin() + static_cast<std::ptrdiff_t>(i));
      const int64_t from = std::max({h.s, ref.origin, h.s + rnd(h.e - h.s)});
      p.release(from, h.e, h.procs);
      for (int64_t u = from; u < h.e; ++u) ref.free[static_cast<size_t>(u - ref.origin)] += h.procs;
    } else if (kind == 8) {  // time passes (sometimes past whole blocks)
      const int64_t now = ref.origin + rnd(op % 5 == 0 ? 400 : 30);
      p.advance(now);
      ref.free.erase(ref.free.begin(), ref.free.begin() + (now - ref.origin));
      ref.free.resize(ref.free.size() + static_cast<size_t>(now - ref.origin), kCap);
      ref.origin = now;
      for (Held& h : held) h.s = std::max(h.s, now);
      std::erase_if(held, [](const Held& h) { return h.e <= h.s; });
    } else if (!held.empty()) {  // a hold's own earlier fit, and the queries over ranges
      const Held h = held[static_cast<size_t>(rnd(static_cast<int64_t>(held.size())))];
      const int64_t from = ref.origin + rnd(std::max<int64_t>(1, h.s - ref.origin + 5));
      if (h.s > ref.origin) {
        ProfileReference without = ref;
        for (int64_t u = h.s; u < h.e; ++u) without.free[static_cast<size_t>(u - ref.origin)] += h.procs;
        ASSERT_EQ(p.earliest_fit_before(from, h.procs, h.e - h.s, h.s),
                  from >= h.s ? h.s : without.fit_before(from, h.procs, h.e - h.s, h.s))
            << "op " << op;
        // Only the windows whose run overlaps a span: against the runs of the reference.
        const int64_t lo = ref.origin + rnd(std::max<int64_t>(1, h.s - ref.origin + 5));
        const int64_t hi = lo + 1 + rnd(400);
        ASSERT_EQ(p.earliest_fit_overlapping(from, lo, hi, h.procs, h.e - h.s, h.s),
                  from >= h.s ? h.s : without.fit_in_run_overlapping(from, lo, hi, h.procs, h.e - h.s, h.s))
            << "op " << op << " from " << from << " span [" << lo << "," << hi << ")";
        // With the span covering everything before the limit it is earliest_fit_before.
        ASSERT_EQ(p.earliest_fit_overlapping(from, ref.origin, h.s, h.procs, h.e - h.s, h.s),
                  p.earliest_fit_before(from, h.procs, h.e - h.s, h.s))
            << "op " << op;
      }
      const int64_t a = ref.origin + rnd(kHorizon), b = a + 1 + rnd(300);
      int64_t lo = kCap, hi = 0;
      for (int64_t u = a; u < b; ++u) {
        lo = std::min(lo, ref.at(u));
        hi = std::max(hi, ref.at(u));
      }
      ASSERT_EQ(p.min_free(a, b), lo) << "op " << op;
      ASSERT_EQ(p.max_free(a, b), hi) << "op " << op;
      // Successive increasing intervals.
      for (int64_t x = a; x < a + 300; x += 1 + rnd(40)) {
        const int64_t y = x + 1 + rnd(30);
        int64_t most = 0, least = kCap;
        for (int64_t v = x; v < y; ++v) {
          most = std::max(most, ref.at(v));
          least = std::min(least, ref.at(v));
        }
        ASSERT_EQ(p.max_free(x, y), most) << "op " << op;
        ASSERT_EQ(p.min_free(x, y), least) << "op " << op;
      }
    }
    ASSERT_EQ(p.check(), "") << "op " << op;
    ASSERT_EQ(p.steps(), ref.steps()) << "op " << op;
    most_steps = std::max(most_steps, p.steps().size());
  }
  EXPECT_GT(most_steps, min_steps);
}

// Hundreds of steps: beyond kLinearBelow (256), so the scans skip blocks of steps through their maxima and
// minima, and stop at the window's end or the limit.
TEST_P(AvailabilityProfileLayouts, ManyStepsMatchReference) { RandomOpsMatchReference(GetParam(), 2024, 40, 12000, 5000, 3000, 600); }

// Over 1,500 steps on a small machine (runs of enough processors are short and many): scans that cross
// dozens of blocks, and a profile that shrinks back by thousands of steps.
TEST_P(AvailabilityProfileLayouts, ThousandsOfStepsMatchReference) {
  RandomOpsMatchReference(GetParam(), 7, 12, 40000, 14000, 10000, 1500);
}

// A long profile (1200 steps, long reservations across many blocks of the scans) grows and shrinks back
// to one step: reservations between existing steps, then every hold released in random order.
TEST_P(AvailabilityProfileLayouts, LongProfileGrowsAndShrinks) {
  constexpr int64_t kCap = 100;
  std::mt19937 rng(99);
  AvailabilityProfile p = make(kCap);
  ProfileReference ref{0, kCap, std::vector<int64_t>(4000, kCap)};
  struct Held {
    int64_t s, e, procs;
  };
  std::vector<Held> held;
  auto reserve = [&](int64_t s, int64_t e, int64_t procs) {
    p.reserve(s, e, procs);
    for (int64_t u = s; u < e; ++u) ref.free[static_cast<size_t>(u)] -= procs;
    held.push_back({s, e, procs});
  };
  for (int64_t k = 0; k < 600; ++k) reserve(4 * k, 4 * k + 1 + k % 3, 1 + k % 5);  // 1200 steps
  for (int64_t k = 0; k < 10; ++k) reserve(200 * k + 7, 200 * k + 1500, 3);       // across many blocks
  ASSERT_EQ(p.steps(), ref.steps());
  ASSERT_GT(p.steps().size(), 1000u);
  for (int k = 0; k < 600; ++k) {
    const std::vector<Step> steps = p.steps();
    size_t i = rng() % steps.size(), j = rng() % steps.size();
    if (i == j) continue;
    if (i > j) std::swap(i, j);
    const int64_t s0 = steps[i].time, e0 = steps[j].time;
    const int64_t procs = 1 + static_cast<int64_t>(rng() % 3);
    if (p.min_free(s0, e0) < procs) continue;
    p.reserve(s0, e0, procs);
    for (int64_t u = s0; u < e0; ++u) ref.free[static_cast<size_t>(u)] -= procs;
    ASSERT_EQ(p.check(), "");
    ASSERT_EQ(p.steps(), ref.steps()) << k;
    p.release(s0, e0, procs);
    for (int64_t u = s0; u < e0; ++u) ref.free[static_cast<size_t>(u)] += procs;
    ASSERT_EQ(p.steps(), ref.steps()) << k;
  }
  std::shuffle(held.begin(), held.end(), rng);
  for (const Held& h : held) {
    p.release(h.s, h.e, h.procs);
    for (int64_t u = h.s; u < h.e; ++u) ref.free[static_cast<size_t>(u)] += h.procs;
    ASSERT_EQ(p.check(), "");
    ASSERT_EQ(p.steps(), ref.steps());
    ASSERT_EQ(p.min_free(0, 4000), *std::min_element(ref.free.begin(), ref.free.end()));
  }
  EXPECT_EQ(p.steps(), (Steps{{0, kCap}}));
}

// Random reserve/release sequences compared with a brute-force per-second array.
TEST_P(AvailabilityProfileLayouts, MatchesBruteForceOnRandomOperations) {
  constexpr int kHorizon = 200;
  constexpr int64_t kCap = 16;
  std::mt19937 rng(12345);
  for (int round = 0; round < 50; ++round) {
    AvailabilityProfile p = make(kCap);
    std::vector<int64_t> brute(kHorizon + 60, kCap);
    struct Held { int64_t s, e, procs; };
    std::vector<Held> held;
    for (int op = 0; op < 80; ++op) {
      if (!held.empty() && rng() % 3 == 0) {
        size_t i = rng() % held.size();
        Held h = held[i];
        held.erase(held.begin() + static_cast<std::ptrdiff_t>(i));
        p.release(h.s, h.e, h.procs);
        for (int64_t t = h.s; t < h.e; ++t) brute[static_cast<size_t>(t)] += h.procs;
      } else {
        int64_t procs = 1 + static_cast<int64_t>(rng() % kCap);
        int64_t dur = 1 + static_cast<int64_t>(rng() % 30);
        int64_t from = static_cast<int64_t>(rng() % 100);
        int64_t t = p.earliest_fit(from, procs, dur);
        // brute force earliest fit
        int64_t expect = from;
        while (true) {
          bool ok = true;
          for (int64_t u = expect; u < expect + dur; ++u) {
            if (u < static_cast<int64_t>(brute.size()) && brute[static_cast<size_t>(u)] < procs) ok = false;
          }
          if (ok) break;
          ++expect;
        }
        ASSERT_EQ(t, expect) << p.to_string() << " procs=" << procs << " dur=" << dur << " from=" << from;
        if (t + dur > kHorizon) continue;
        p.reserve(t, t + dur, procs);
        for (int64_t u = t; u < t + dur; ++u) brute[static_cast<size_t>(u)] -= procs;
        held.push_back({t, t + dur, procs});
      }
      ASSERT_EQ(p.check(), "") << p.to_string();
      // earliest_fit_before for a held interval == earliest fit once that interval is released.
      if (!held.empty()) {
        const Held h = held[rng() % held.size()];
        const int64_t from = static_cast<int64_t>(rng() % 60);
        const int64_t before = p.earliest_fit_before(from, h.procs, h.e - h.s, h.s);
        AvailabilityProfile q = p;
        q.release(h.s, h.e, h.procs);
        const int64_t expect = from >= h.s ? h.s : std::min(h.s, q.earliest_fit(from, h.procs, h.e - h.s));
        ASSERT_EQ(before, expect) << p.to_string() << " hold [" << h.s << "," << h.e << ") x" << h.procs
                                  << " from " << from;
      }
      for (int64_t u = 0; u < kHorizon; ++u) ASSERT_EQ(p.free_at(u), brute[static_cast<size_t>(u)]);
    }
  }
}

// A hold to the end of time (a saturated end: start + duration past the largest time) on both forms, with
// enough steps before it for several blocks.
TEST_P(AvailabilityProfileLayouts, HoldsToInfinity) {
  constexpr int64_t kInf = AvailabilityProfile::kInfinity;
  AvailabilityProfile p = make(10);
  for (int64_t k = 0; k < 200; ++k) p.reserve(10 * k, 10 * k + 5, 1 + k % 3);
  const Steps before = p.steps();
  p.reserve(3000, kInf, 3);
  EXPECT_EQ(p.check(), "");
  EXPECT_EQ(p.free_at(kInf - 1), 7);
  EXPECT_EQ(p.min_free(2000, kInf), 7);
  EXPECT_EQ(p.max_free(2000, kInf), 10);
  EXPECT_EQ(p.steps().back(), (Step{3000, 7}));
  const auto range = p.release(3000, kInf, 3);
  EXPECT_EQ(range.least, 7);
  EXPECT_EQ(range.most, 7);
  EXPECT_EQ(p.steps(), before);
  // A job that would hold processors forever: after the last 3-processor hold ([1970, 1975)); the last hold,
  // [1990, 1995) of 2, leaves it 0 there and 2 after.
  EXPECT_EQ(p.reserve_earliest(0, 8, kInf - 100), 1975);
  EXPECT_EQ(p.check(), "");
  EXPECT_EQ(p.free_at(1992), 0);
  EXPECT_EQ(p.steps().back(), (Step{1995, 2}));
  EXPECT_THROW(p.earliest_fit(0, 3, 1'000'000), std::logic_error);  // every reservation is meant to be finite
}

// The automatic choice switches to blocks past a few thousand steps and back when the profile shrinks, and
// answers exactly as the vector alone does throughout (the same random operations on both).
TEST(AvailabilityProfile, AutomaticLayoutSwitchesBothWaysAndAnswersAsTheVector) {
  constexpr int64_t kCap = 1000;
  std::mt19937 rng(99);
  auto rnd = [&](int64_t n) { return static_cast<int64_t>(rng() % static_cast<uint64_t>(n)); };
  AvailabilityProfile autop(kCap, 0, Layout::kAuto);
  AvailabilityProfile flat(kCap, 0, Layout::kFlat);
  struct Held {
    int64_t s, e, procs;
  };
  std::vector<Held> held;
  int64_t now = 0;
  bool was_blocked = false, back_to_flat = false;
  for (int op = 0; op < 10000; ++op) {
    if (op < 4000 || (op < 7000 && rnd(4) == 0) || held.empty()) {
      const int64_t procs = 1 + rnd(40), d = 1 + rnd(5000), from = now + rnd(1'000'000);
      const int64_t t = autop.reserve_earliest(from, procs, d);
      ASSERT_EQ(flat.reserve_earliest(from, procs, d), t) << "op " << op;
      held.push_back({t, t + d, procs});
    } else {
      const size_t i = static_cast<size_t>(rnd(static_cast<int64_t>(held.size())));
      const Held h = held[i];
      held[i] = held.back();
      held.pop_back();
      const int64_t lo = std::max(h.s, now);
      if (lo < h.e) {
        const auto a = autop.release(lo, h.e, h.procs);
        const auto f = flat.release(lo, h.e, h.procs);
        ASSERT_EQ(a.least, f.least) << "op " << op;
        ASSERT_EQ(a.most, f.most) << "op " << op;
      }
      if (rnd(50) == 0) {
        now += rnd(2000);
        autop.advance(now);
        flat.advance(now);
      }
    }
    was_blocked = was_blocked || autop.blocked();
    back_to_flat = back_to_flat || (was_blocked && !autop.blocked());
    const int64_t from = now + rnd(1'000'000), procs = 1 + rnd(kCap), d = 1 + rnd(20000);
    ASSERT_EQ(autop.earliest_fit(from, procs, d), flat.earliest_fit(from, procs, d)) << "op " << op;
    ASSERT_EQ(autop.free_at(from), flat.free_at(from)) << "op " << op;
    ASSERT_EQ(autop.min_free(from, from + d), flat.min_free(from, from + d)) << "op " << op;
    ASSERT_EQ(autop.max_free(from, from + d), flat.max_free(from, from + d)) << "op " << op;
    const int64_t limit = from + rnd(50000);
    ASSERT_EQ(autop.earliest_fit_before(from, procs, d, limit), flat.earliest_fit_before(from, procs, d, limit))
        << "op " << op;
    const int64_t span = from + rnd(20000), span_end = span + 1 + rnd(5000);
    ASSERT_EQ(autop.earliest_fit_overlapping(from, span, span_end, procs, d, limit),
              flat.earliest_fit_overlapping(from, span, span_end, procs, d, limit))
        << "op " << op;
    if (op % 250 == 0 || op == 9999) {
      ASSERT_EQ(autop.check(), "") << "op " << op;
      ASSERT_EQ(autop.steps(), flat.steps()) << "op " << op;
      const AvailabilityProfile copy = autop;  // a copy answers the same
      ASSERT_EQ(copy.steps(), flat.steps()) << "op " << op;
      ASSERT_EQ(copy.blocked(), autop.blocked());
    }
  }
  EXPECT_TRUE(was_blocked) << "never more than the threshold of steps";
  EXPECT_TRUE(back_to_flat) << "never shrank back below the lower threshold";
}

INSTANTIATE_TEST_SUITE_P(Layouts, AvailabilityProfileLayouts,
                         ::testing::Values(Layout::kFlat, Layout::kBlocked, Layout::kAuto),
                         [](const ::testing::TestParamInfo<Layout>& param) {
                           switch (param.param) {
                             case Layout::kFlat: return "Flat";
                             case Layout::kBlocked: return "Blocked";
                             default: return "Auto";
                           }
                         });

}  // namespace
}  // namespace schedlab::sim
