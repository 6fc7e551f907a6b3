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

// All the suspended jobs' ranges at once (sorted by first processor, overlapping each other): for each asked range
// that meets an owned one, the largest value among those it meets, as a walk over every owned range gives.
TEST(OwnedRanges, LargestOverlappingIsTheWalkOverEveryRange) {
  struct Asked {
    int32_t lo, hi;
    int index;
  };
  std::mt19937 rng(3);
  for (int round = 0; round < 300; ++round) {
    std::vector<std::pair<ProcRange, int64_t>> owned_list;
    OwnedRanges<int64_t> owned;
    for (int32_t lo = static_cast<int32_t>(rng() % 20); lo < 5000;) {
      const int32_t hi = lo + 1 + static_cast<int32_t>(rng() % 60);
      if (rng() % 3 != 0) {
        const int64_t value = static_cast<int64_t>(rng() % 1000) - 500;
        owned_list.push_back({{lo, hi}, value});
        owned.add(ProcSet{{lo, hi}}, value);
      }
      lo = hi + static_cast<int32_t>(rng() % 30);
    }
    std::shuffle(owned_list.begin(), owned_list.end(), rng);  // (the sort must not depend on the order added)
    owned.sort();
    std::vector<Asked> asked;
    for (int k = 0; k < static_cast<int>(rng() % 400); ++k) {
      const auto lo = static_cast<int32_t>(rng() % 5100);
      asked.push_back({lo, lo + 1 + static_cast<int32_t>(rng() % (rng() % 4 == 0 ? 2000 : 50)), k});
    }
    std::stable_sort(asked.begin(), asked.end(), [](const Asked& a, const Asked& b) { return a.lo < b.lo; });
    std::vector<std::pair<int, int64_t>> want, got;
    for (const Asked& a : asked) {
      bool met = false;
      int64_t largest = 0;
      for (const auto& [r, value] : owned_list) {
        if (r.lo < a.hi && a.lo < r.hi) {
          largest = met ? std::max(largest, value) : value;
          met = true;
        }
      }
      if (met) want.emplace_back(a.index, largest);
    }
    owned.largest_overlapping(asked, [&](const Asked& a, int64_t largest) { got.emplace_back(a.index, largest); });
    ASSERT_EQ(got, want) << "round " << round;
  }
}

// Many ranges (sorted by a radix sort from 256 on), numbered from 0 and from offsets that give the sort one to three
// passes: a look-up over every processor meets each range once, in order of processors.
TEST(OwnedRanges, ManyRangesComeInOrderOfProcessors) {
  std::mt19937 rng(7);
  for (const size_t n : {1, 10, 255, 256, 257, 300, 5000}) {
    for (const int32_t offset : {0, 70'000, 16'700'000, 2'000'000'000}) {
      std::vector<int32_t> cuts;
      int32_t at = offset;
      for (size_t k = 0; k <= n; ++k) {
        cuts.push_back(at);
        at += 1 + static_cast<int32_t>(rng() % (offset == 0 ? 5 : 300));  // from 0: one pass up to 2,048
      }
      std::vector<size_t> order(n);
      for (size_t k = 0; k < n; ++k) order[k] = k;
      std::shuffle(order.begin(), order.end(), rng);
      OwnedRanges<int32_t> owned;
      for (const size_t k : order) owned.add(ProcSet{{cuts[k], cuts[k + 1]}}, cuts[k]);  // holder = its first
      owned.sort();
      std::vector<int32_t> got;
      owned.any_overlapping(ProcSet{{offset, cuts.back()}}, [&](int32_t lo) {
        got.push_back(lo);
        return false;
      });
      cuts.pop_back();
      ASSERT_EQ(got, cuts) << n << " ranges from " << offset;
      // One processor in the middle of each range: the look-up finds it.
      for (size_t k = 0; k < n; k += 1 + n / 20) {
        int32_t holder = -1;
        owned.any_overlapping(ProcSet{{cuts[k], cuts[k] + 1}}, [&](int32_t lo) {
          holder = lo;
          return true;
        });
        ASSERT_EQ(holder, cuts[k]) << n << " ranges from " << offset << ", range " << k;
      }
    }
  }
}

}  // namespace
}  // namespace schedlab::sim
