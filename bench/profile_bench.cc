// The availability profile (conservative backfilling's schedule) as it grows: what a job's move costs (its
// hold given back and taken again: two range checks and four step changes) and what a search costs (the
// earliest fit of a random job from a random time), against the number of reservations in it (about two
// steps each). A saturated queue holds thousands of reservations; these are the per-job costs of each
// compression pass. Each with the profile in one vector (layout 0) and in blocks (layout 1): the automatic
// choice switches to blocks above 4,096 steps (sim/availability_profile.h). And a running job's early end with
// R one-processor jobs running (BM_ProfileEarlyEnd: its processor given back from now to its expected end, and
// taken again), the change each termination makes to conservative's profile when many jobs run at once.
// Run: ./build/schedlab_bench --benchmark_filter=Profile
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "sim/availability_profile.h"

namespace {

using schedlab::sim::AvailabilityProfile;
using Layout = AvailabilityProfile::Layout;

Layout layout_of(const benchmark::State& state) { return state.range(1) == 0 ? Layout::kFlat : Layout::kBlocked; }

struct Hold {
  int64_t start, end, procs;
};

constexpr int64_t kCapacity = 1024;

// `holds` reservations of 1 to 256 processors for 1 s to 1 h, each at its earliest fit from a random time,
// on a machine of 1,024 processors.
AvailabilityProfile make_profile(int64_t holds, Layout layout, std::vector<Hold>& out) {
  std::mt19937_64 rng(42);
  AvailabilityProfile p(kCapacity, 0, layout);
  for (int64_t i = 0; i < holds; ++i) {
    const auto procs = static_cast<int64_t>(1 + rng() % 256);
    const auto d = static_cast<int64_t>(1 + rng() % 3600);
    const auto from = static_cast<int64_t>(rng() % static_cast<uint64_t>(holds * 60));
    const int64_t t = p.earliest_fit(from, procs, d);
    p.reserve(t, t + d, procs);
    out.push_back({t, t + d, procs});
  }
  return p;
}

void BM_ProfileMove(benchmark::State& state) {
  std::vector<Hold> holds;
  AvailabilityProfile p = make_profile(state.range(0), layout_of(state), holds);
  std::mt19937_64 rng(7);
  for (auto _ : state) {
    const Hold& h = holds[rng() % holds.size()];
    p.release(h.start, h.end, h.procs);
    p.reserve(h.start, h.end, h.procs);
  }
  state.counters["steps"] = static_cast<double>(p.steps().size());
  state.SetItemsProcessed(state.iterations());
}

void BM_ProfileEarliestFit(benchmark::State& state) {
  std::vector<Hold> holds;
  const AvailabilityProfile p = make_profile(state.range(0), layout_of(state), holds);
  std::mt19937_64 rng(7);
  const int64_t horizon = holds.back().end;
  for (auto _ : state) {
    const auto procs = static_cast<int64_t>(1 + rng() % 256);
    const auto d = static_cast<int64_t>(1 + rng() % 3600);
    const auto from = static_cast<int64_t>(rng() % static_cast<uint64_t>(horizon));
    benchmark::DoNotOptimize(p.earliest_fit(from, procs, d));
  }
  state.counters["steps"] = static_cast<double>(p.steps().size());
  state.SetItemsProcessed(state.iterations());
}

// R one-processor jobs running from now (time 0) until distinct expected ends over the next day, on a machine
// with exactly that many processors, so that the profile has a step per job.
void BM_ProfileEarlyEnd(benchmark::State& state) {
  const int64_t running = state.range(0);
  std::mt19937_64 rng(42);
  std::vector<std::pair<int64_t, int64_t>> busy;
  for (int64_t i = 0; i < running; ++i) busy.emplace_back(1 + static_cast<int64_t>(rng() % 86400) * running + i, 1);
  AvailabilityProfile p(running, 0, layout_of(state));
  p.assign(0, busy);
  for (auto _ : state) {
    const int64_t end = busy[rng() % busy.size()].first;
    p.release(0, end, 1);
    p.reserve(0, end, 1);
  }
  state.counters["steps"] = static_cast<double>(p.step_count());
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_ProfileMove)->ArgsProduct({{1000, 10000, 100000}, {0, 1}});
BENCHMARK(BM_ProfileEarliestFit)->ArgsProduct({{1000, 10000, 100000}, {0, 1}});
BENCHMARK(BM_ProfileEarlyEnd)->ArgsProduct({{1000, 10000, 50000}, {0, 1}});
