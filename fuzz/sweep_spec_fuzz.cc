// libFuzzer entry point for the sweep spec (experiments/sweep.h): any TOML text must either give a spec whose run
// set expands, or raise SweepError naming the problem — never crash, hang, leak, or trip ASan/UBSan. A spec that
// expands must give runs numbered 0..N-1, none twice (the guarantee behind the one-row-per-run output), and the
// same runs from the same text. Expansion is skipped beyond 100,000 runs of product, to stay in the fuzzer's
// memory (the 10-million limit itself is a unit test).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "schedlab/experiments/sweep.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedlab::experiments;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const SweepSpec spec = parse_sweep_spec(text, "fuzz.toml");
    double product = static_cast<double>(spec.logs.size() * spec.schedulers.size() * spec.predictors.size()) *
                     static_cast<double>(spec.corrections.size() * spec.estimate_models.size()) *
                     static_cast<double>(std::max<size_t>(spec.loads.size(), 1) * spec.arrival_scales.size()) *
                     static_cast<double>(spec.procs.size() * spec.kill_at_estimate.size()) *
                     static_cast<double>(spec.extend_estimates.size() * spec.warmup_fraction.size()) *
                     static_cast<double>(spec.bsld_tau.size() * spec.seeds.size());
    if (product > 100000) return 0;
    const auto runs = expand_sweep(spec);
    std::set<std::string> seen;
    for (size_t i = 0; i < runs.size(); ++i) {
      if (runs[i].index != i) __builtin_trap();
      if (!seen.insert(sweep_run_parameters(runs[i])).second) __builtin_trap();
    }
    if (sweep_runs_digest(expand_sweep(parse_sweep_spec(text, "fuzz.toml"))) != sweep_runs_digest(runs))
      __builtin_trap();
  } catch (const SweepError&) {
  }
  return 0;
}
