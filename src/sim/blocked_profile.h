// A private header (src/sim): the availability profile in blocks of steps — the representation for long
// profiles (sim/availability_profile.h has the contract and chooses between the two).
//
// Representation: the steps in order in blocks of at most kMax (64), each with a pending amount added to all
// its steps and the least and most processors free among them. A change over an interval updates the steps
// of the two blocks at its ends and only the pending amount and bounds of the blocks between; a search skips
// a block whose bounds show it cannot hold the step sought; inserting or merging a step moves at most a block
// of steps, and a block splits when full and joins a neighbour below a quarter (or takes steps from it), so
// that every block but a lone one keeps at least kMax / 4 steps. With many jobs running at once the profile
// has tens of thousands of steps, and each end of a job gives processors back from now to its expected end:
// the flat vector pays the whole profile for that (docs/performance.md).
//
// Costs, with n = number of steps and m <= n / 16 + 1 blocks (every block but a lone one holds >= kMax / 4):
//   free_at ............................... O(log n)
//   min_free, max_free, fits .............. O(log n + blocks covered + kMax)
//   earliest_fit and its variants ......... O(log n + blocks scanned + kMax × blocks entered), a block
//                                           entered when its bounds say the step sought may be in it
//   reserve, release, reserve_earliest .... O(log n + blocks covered + kMax) (and the search), plus
//                                           O(m) when a block splits or joins (the block order shifts)
//   advance ............................... O(m + kMax)
// The searches are const but recompute stale block bounds into mutable members.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/profile_step.h"

namespace schedlab::sim {

class BlockedProfile {
 public:
  using Time = int64_t;
  static constexpr Time kInfinity = kProfileInfinity;
  using Step = ProfileStep;
  using FreeRange = ProfileFreeRange;

  // The contract of each member is AvailabilityProfile's (sim/availability_profile.h).
  explicit BlockedProfile(int64_t capacity, Time origin = 0);
  // A profile holding these steps (valid: increasing times, merged, the last fully free).
  BlockedProfile(int64_t capacity, const std::vector<Step>& steps);
  // A copy holds only the blocks in use and their used steps.
  BlockedProfile(const BlockedProfile& other);
  BlockedProfile& operator=(const BlockedProfile& other);
  BlockedProfile(BlockedProfile&&) noexcept = default;
  BlockedProfile& operator=(BlockedProfile&&) noexcept = default;
  int64_t capacity() const { return capacity_; }
  Time origin() const { return block(0).s[0].time; }
  std::vector<Step> steps() const;
  size_t step_count() const { return step_count_; }
  int64_t free_at(Time t) const;
  int64_t min_free(Time start, Time end) const;
  int64_t max_free(Time start, Time end) const;
  bool fits(Time start, int64_t procs, Time duration) const;
  Time earliest_fit(Time from, int64_t procs, Time duration) const;
  Time reserve_earliest(Time from, int64_t procs, Time duration);
  Time earliest_fit_before(Time from, int64_t procs, Time duration, Time limit) const;
  Time earliest_fit_overlapping(Time from, Time lo, Time hi, int64_t procs, Time duration, Time limit) const;
  void reserve(Time start, Time end, int64_t procs);
  FreeRange release(Time start, Time end, int64_t procs);
  void advance(Time now);
  std::string check() const;

 private:
  static constexpr size_t kMax = 64;        // steps in a block at most
  static constexpr size_t kMin = kMax / 4;  // a block with fewer joins a neighbour (or takes steps from it)

  // A step as stored: `free` without the block's pending amount. No initializers: a block's unused slots are
  // never read, and a copy copies only the used ones.
  struct Slot {
    Time time;
    int64_t free;
  };
  struct Block {
    Block() {}  // (leaves the slots uninitialised)
    uint32_t size = 0;
    std::array<Slot, kMax> s;
  };
  // The blocks in time order, with what the searches and the changes over whole blocks need: a search for a
  // time, a scan skipping blocks and an addition to whole blocks read and write this array only, not a
  // kilobyte-sized block each.
  struct Entry {
    Time first = 0;        // the block's first step's time
    int64_t pending = 0;   // added to every slot's `free`
    // The least and most processors free among the block's steps (pending included), when not stale: a change
    // inside the block only marks them stale, and a search recomputes them when it wants to skip the block.
    mutable int64_t lo = 0, hi = 0;
    uint32_t id = 0;       // in pool_
    mutable bool stale = true;
  };
  // A step: the block's place in the order, the step's place in the block (one word: passed and returned in a
  // register). Always a step, or end_pos() ({m, 0}).
  class Pos {
   public:
    Pos() = default;
    Pos(size_t block, size_t step) : v_(block << kShift | step) {}
    size_t b() const { return v_ >> kShift; }
    size_t i() const { return v_ & ((size_t{1} << kShift) - 1); }

   private:
    static constexpr unsigned kShift = 9;  // steps 0..kMax (insert_at's place after the last)
    size_t v_ = 0;
  };

  // Block b's bounds made valid (const: the bounds are a cache).
  const Entry& fresh(size_t b) const { return order_[b].stale ? refresh(b) : order_[b]; }
  const Entry& refresh(size_t b) const;
  const Block& block(size_t b) const { return pool_[order_[b].id]; }
  Block& block(size_t b) { return pool_[order_[b].id]; }
  // Copies block b's first time into the order (after a change at the block's front).
  void sync_first(size_t b) { order_[b].first = block(b).s[0].time; }
  Pos end_pos() const { return Pos{order_.size(), 0}; }
  bool at_end(Pos p) const { return p.b() == order_.size(); }
  Pos next(Pos p) const { return p.i() + 1 < block(p.b()).size ? Pos{p.b(), p.i() + 1} : Pos{p.b() + 1, 0}; }
  Time time_at(Pos p) const { return block(p.b()).s[p.i()].time; }
  int64_t value_at(Pos p) const { return block(p.b()).s[p.i()].free + order_[p.b()].pending; }
  // The step containing t (t >= origin()).
  Pos locate(Time t) const;
  // The same for a t at or after step p: no search over the blocks when t falls in p's block.
  Pos locate_from(Pos p, Time t) const;
  // The last step of block b with time <= t (t >= the block's first time).
  Pos in_block(size_t b, Time t) const;
  // earliest_fit, also giving the step containing the answer (for duration > 0).
  Time earliest_fit_at(Time from, int64_t procs, Time duration, Pos& at) const;
  // The fewest and most processors free from step p (which contains the start) to end (after the start);
  // also the step containing the end when end_at is given (the walk passes it). Only the fewest unless kMost.
  template <bool kMost>
  FreeRange bounds(Pos p, Time end, Pos* end_at = nullptr) const;
  // Adds delta to every step in [start, end) (the caller checked the bounds), splitting steps at start
  // and end and merging equal neighbours at both; `at` and `end_at` are the steps containing start and end
  // (end_at unused when end is kInfinity).
  void add(Time start, Time end, int64_t delta, Pos at, Pos end_at);
  // Makes a step start exactly at t, given the step containing it; returns it.
  Pos split_at(Time t, Pos at);
  // Inserts a step at p (before the step there; p may be the end of a block, not end()); returns where it
  // went.
  Pos insert_at(Pos p, Step step);
  // Removes step p if it has its predecessor's value.
  void merge_with_previous(Pos p);
  void erase_at(Pos p);
  // Keeps the block at order b at least kMin steps when there are others (joining or taking steps).
  void rebalance(size_t b);
  // Moves every step of block b and b + 1 into b, or halves them when they do not fit in one.
  void join(size_t b);
  uint32_t new_block();
  void drop_block(size_t b);
  // The first step at k or after with free >= procs (next_at_least) or < procs (next_below) and time
  // < until; end() if there is none before `until` (later steps are not looked at).
  Pos next_at_least(Pos k, int64_t procs, Time until) const;
  Pos next_below(Pos k, int64_t procs, Time until) const;
  // The last step before k with free < procs; end() if none.
  Pos prev_below(Pos k, int64_t procs) const;
  // Replaces everything by these steps (valid: increasing, merged).
  void load(const std::vector<Step>& steps);

  int64_t capacity_;
  std::vector<Block> pool_;      // blocks, in no order
  std::vector<uint32_t> free_;   // unused blocks of pool_
  std::vector<Entry> order_;
  size_t step_count_ = 0;
  // Counts the changes that move steps between blocks (split, join, drop): a Pos found before stays valid
  // across in-block inserts and erases after it, but not across those.
  uint64_t layout_changes_ = 0;
};

}  // namespace schedlab::sim
