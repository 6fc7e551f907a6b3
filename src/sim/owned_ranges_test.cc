#include "sim/owned_ranges.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace schedlab::sim {
namespace {

// Random disjoint ranges of 40 holders on 1,000 processors; every look-up gives, in order, the holder of each range
// that shares a processor with the set asked about, once per range, as a plain walk over every range does.
TEST(OwnedRanges, LookUpsAreTheWalkOverEveryRange) {
  std::mt19937 rng(99);
  for (int round = 0; round < 300; ++round) {
    // Cut [0, 1000) at random points; each piece goes to a random holder or to no one (free).
    std::vector<int32_t> cuts = {0, 1000};
    for (int k = 0; k < 1 + static_cast<int>(rng() % 200); ++k) cuts.push_back(1 + static_cast<int32_t>(rng() % 999));
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::vector<ProcSet> sets(40);
    for (size_t k = 0; k + 1 < cuts.size(); ++k) {
      const size_t holder = rng() % 50;
      if (holder >= sets.size()) continue;
      ProcSet& s = sets[holder];
      if (!s.empty() && s.back().hi == cuts[k]) s.back().hi = cuts[k + 1];  // keep the set non-adjacent
      else s.push_back({cuts[k], cuts[k + 1]});
    }
    OwnedRanges<int> owned;
    for (int h = 39; h >= 0; --h) owned.add(sets[static_cast<size_t>(h)], h);  // added out of order
    owned.sort();
    for (int q = 0; q < 20; ++q) {
      ProcSet ask;
      for (int32_t lo = static_cast<int32_t>(rng() % 60); lo < 1000; lo += 1 + static_cast<int32_t>(rng() % 120)) {
        const int32_t hi = std::min<int32_t>(1000, lo + 1 + static_cast<int32_t>(rng() % 40));
        ask.push_back({lo, hi});
        lo = hi;
      }
      // The walk: every range of every holder meeting a range of `ask`, once, in order of processors.
      std::vector<std::pair<int32_t, int>> want;
      for (size_t h = 0; h < sets.size(); ++h)
        for (const ProcRange& r : sets[h])
          if (std::any_of(ask.begin(), ask.end(), [&](const ProcRange& a) { return r.lo < a.hi && a.lo < r.hi; }))
            want.emplace_back(r.lo, static_cast<int>(h));
      std::sort(want.begin(), want.end());
      std::vector<int> want_holders;
      for (const auto& [lo, h] : want) want_holders.push_back(h);
      std::vector<int> got;
      EXPECT_FALSE(owned.any_overlapping(ask, [&](int h) {
        got.push_back(h);
        return false;
      }));
      ASSERT_EQ(got, want_holders) << "round " << round << " query " << q;
      // Stopping: true at the first holder met, and no further call.
      int calls = 0;
      EXPECT_EQ(owned.any_overlapping(ask, [&](int) { return ++calls > 0; }), !want_holders.empty());
      EXPECT_EQ(calls, want_holders.empty() ? 0 : 1);
    }
  }
}

}  // namespace
}  // namespace schedlab::sim
