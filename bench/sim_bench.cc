// Each registered scheduler over a whole real log (the log is read once; only the simulation is timed).
// Run: ./build/schedlab_bench --benchmark_filter=Sim
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "schedlab/swf/reader.h"

namespace {

const schedlab::workload::Workload* workload(const std::string& file) {
  static std::map<std::string, std::unique_ptr<schedlab::workload::Workload>> cache;
  auto& slot = cache[file];
  if (!slot) {
    const std::string path = std::string(SCHEDLAB_TRACES_DIR) + "/" + file;
    if (!std::filesystem::exists(path)) return nullptr;
    const auto log = schedlab::swf::read_log(path);
    slot = std::make_unique<schedlab::workload::Workload>(schedlab::workload::build_workload(log.header, log.records));
  }
  return slot.get();
}

void BM_Sim(benchmark::State& state, const std::string& file, const std::string& scheduler) {
  const auto* w = workload(file);
  if (w == nullptr) {
    state.SkipWithError(("missing log " + file).c_str());
    return;
  }
  for (auto _ : state) {
    auto r = schedlab::sim::simulate(*w, scheduler, "estimate");
    benchmark::DoNotOptimize(r.metrics.wait.mean);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(w->jobs.size()));
}

const bool registered = [] {
  for (const std::string file : {"KTH-SP2-1996-2.swf.gz", "CTC-SP2-1996-3.1-cln.swf.gz",
                                 "CEA-Curie-2011-2.1-cln.swf.gz"}) {
    for (const auto& entry : schedlab::sim::schedulers()) {
      const std::string scheduler(entry.name);
      // The preemptive policies re-order every job at every event: 3 s to over 30 s per run on CTC and minutes on
      // CEA-Curie (README), too long for a repeated benchmark.
      const bool preemptive = scheduler == "lerwf" || scheduler == "lerwf-fill" || scheduler == "easy-preemptive";
      if (preemptive && file != "KTH-SP2-1996-2.swf.gz") continue;
      benchmark::RegisterBenchmark(("Sim/" + scheduler + "/" + file.substr(0, file.find('-', 4))).c_str(),
                                   [file, scheduler](benchmark::State& s) { BM_Sim(s, file, scheduler); })
          ->Unit(benchmark::kMillisecond);
    }
  }
  return true;
}();

}  // namespace
