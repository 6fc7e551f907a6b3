// EASY's shadow time and the running list's changes against the number of running jobs R: both should grow
// like log R (sim/running_list.h), where the walk and the sorted vector they replaced grew like R.
// Run: ./build/schedlab_bench --benchmark_filter=Running
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "schedlab/sim/shadow.h"
#include "schedlab/sim/state.h"

namespace {

using schedlab::sim::RunningJob;
using schedlab::sim::SimState;

// R one-processor jobs ending over the next ten days on a machine of R + 10 processors.
SimState many_running(int64_t r) {
  SimState state;
  state.now = 0;
  state.machine = schedlab::sim::Machine(r + 10);
  std::mt19937_64 rng(1);
  for (int64_t k = 0; k < r; ++k) {
    state.running.insert(
        RunningJob{.id = static_cast<int32_t>(k), .procs = 1, .start = 0, .prediction = 1 + static_cast<int64_t>(rng() % 864'000)});
  }
  return state;
}

// A head job needing half the machine: the shadow time is when half the running jobs have ended.
void BM_RunningShadow(benchmark::State& bs) {
  const int64_t r = bs.range(0);
  const SimState state = many_running(r);
  std::vector<std::pair<int64_t, int64_t>> started;
  for (auto _ : bs) {
    started.clear();
    const auto shadow = schedlab::sim::compute_shadow(state, 10, started, r / 2 + 10);
    benchmark::DoNotOptimize(shadow.time);
  }
  bs.SetComplexityN(r);
}
BENCHMARK(BM_RunningShadow)->RangeMultiplier(10)->Range(100, 100'000)->Complexity();

// A job ends (the earliest) and another starts, at a random place: the list's cost per start and end.
void BM_RunningChurn(benchmark::State& bs) {
  const int64_t r = bs.range(0);
  SimState state = many_running(r);
  std::mt19937_64 rng(2);
  int32_t next_id = static_cast<int32_t>(r);
  for (auto _ : bs) {
    const RunningJob first = state.running.front();
    state.running.erase(first.predicted_end(), first.id);
    state.running.insert(
        RunningJob{.id = next_id++, .procs = 1, .start = 0, .prediction = 1 + static_cast<int64_t>(rng() % 864'000)});
  }
  bs.SetComplexityN(r);
}
BENCHMARK(BM_RunningChurn)->RangeMultiplier(10)->Range(100, 100'000)->Complexity();

}  // namespace
