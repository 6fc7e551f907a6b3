#include "sim/fit_order.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

namespace schedlab::sim {
namespace {

struct FitKey {
  int64_t rank = 0;
  int32_t id = 0;
  int32_t procs = 0;
  bool held = false;
  friend bool operator<(const FitKey& a, const FitKey& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.id < b.id;
  }
};

// The plain walk the search replaces: from `from` on, the first key that fits.
const FitKey* walk_fit(const std::set<FitKey>& keys, const FitKey& from, int32_t free, bool held_fit) {
  for (auto it = keys.lower_bound(from); it != keys.end(); ++it)
    if (it->procs <= free || (it->held && held_fit)) return &*it;
  return nullptr;
}

// Random inserts and erases (many equal ranks, ids apart), and after each a search from random places: the same
// key as the walk, the same order as an ordered set.
TEST(FitOrder, SearchIsTheWalkOverTheOrder) {
  std::mt19937 rng(7);
  FitOrder<FitKey> order;
  std::set<FitKey> keys;
  std::vector<FitKey> present;
  for (int step = 0; step < 20000; ++step) {
    if (present.empty() || rng() % 3 != 0) {
      const FitKey k{static_cast<int64_t>(rng() % 500), step, static_cast<int32_t>(rng() % 1000), rng() % 8 == 0};
      order.insert(k);
      keys.insert(k);
      present.push_back(k);
    } else {
      const size_t i = rng() % present.size();
      order.erase(FitKey{present[i].rank, present[i].id});  // found by order alone
      keys.erase(present[i]);
      present[i] = present.back();
      present.pop_back();
    }
    ASSERT_EQ(order.size(), keys.size());
    for (int q = 0; q < 3; ++q) {
      const FitKey from{static_cast<int64_t>(rng() % 520) - 10, static_cast<int32_t>(rng() % 20000)};
      const auto free = static_cast<int32_t>(rng() % 3 == 0 ? rng() % 1000 : rng() % 20);  // often only a few fit
      const bool held_fit = rng() % 2 == 0;
      const FitKey* want = walk_fit(keys, from, free, held_fit);
      const auto got = order.first_fit(from, free, held_fit);
      if (want == nullptr) {
        ASSERT_TRUE(got == order.end()) << "step " << step;
      } else {
        ASSERT_TRUE(got != order.end()) << "step " << step;
        ASSERT_EQ(got->id, want->id) << "step " << step;
      }
    }
  }
  std::vector<int32_t> in_order, want_order;
  for (const FitKey& k : order) in_order.push_back(k.id);
  for (const FitKey& k : keys) want_order.push_back(k.id);
  EXPECT_EQ(in_order, want_order);
  order.clear();
  EXPECT_EQ(order.size(), 0u);
  EXPECT_TRUE(order.first_fit(FitKey{}, 1000, true) == order.end());
}

// Hand cases: a search from a key's own place finds it; a zero budget finds only jobs needing none (or held ones).
TEST(FitOrder, HandCases) {
  FitOrder<FitKey> order;
  order.insert({10, 1, 8, false});
  order.insert({10, 2, 0, false});
  order.insert({20, 3, 4, true});
  order.insert({30, 4, 2, false});
  EXPECT_EQ(order.first_fit({10, 1}, 8, false)->id, 1);
  EXPECT_EQ(order.first_fit({10, 1}, 7, false)->id, 2);
  EXPECT_EQ(order.first_fit({10, 3}, 0, false) == order.end(), true);
  EXPECT_EQ(order.first_fit({10, 3}, 0, true)->id, 3);
  EXPECT_EQ(order.first_fit({10, 3}, 3, false)->id, 4);
  EXPECT_EQ(order.first_fit({20, 3}, 4, false)->id, 3);
  EXPECT_EQ(order.first_fit({31, 0}, 1000, true) == order.end(), true);
}

}  // namespace
}  // namespace schedlab::sim
