// The availability profile (conservative backfilling's schedule) as it grows: what a job's move costs (its
// hold given back and taken again: two range checks and four step changes) and what a search costs (the
// earliest fit of a random job from a random time), against the number of reservations in it (about two
// steps each). A saturated queue holds thousands of reservations; these are the per-job costs of each
// compression pass. Run: ./build/schedlab_bench --benchmark_filter=Profile
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "sim/availability_profile.h"

namespace {

using schedlab::sim::AvailabilityProfile;

struct Hold {
  int64_t start, end, procs;
};

constexpr int64_t kCapacity = 1024;

// `holds` reservations of 1 to 256 processors for 1 s to 1 h, each at its earliest fit from a random time,
// on a machine of 1,024 processors.
AvailabilityProfile make_profile(int64_t holds, std::vector<Hold>& out) {
  std::mt19937_64 rng(42);
  AvailabilityProfile p(kCapacity);
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
  AvailabilityProfile p = make_profile(state.range(0), holds);
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
  const AvailabilityProfile p = make_profile(state.range(0), holds);
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

}  // namespace

BENCHMARK(BM_ProfileMove)->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(BM_ProfileEarliestFit)->Arg(1000)->Arg(10000)->Arg(100000);
