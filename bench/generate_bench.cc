// The two workload models in memory (no file writing): Feitelson's locality model drawing one million jobs from
// KTH, and Talby's user/session model for about one million jobs (1,024 processors, 800 weeks, the job layer
// fitted on KTH), on one thread and on all cores. Run: ./build/schedlab_bench --benchmark_filter=Generate
#include <benchmark/benchmark.h>

#include <string>

#include "schedlab/model/locality_model.h"
#include "schedlab/model/talby_model.h"
#include "schedlab/swf/reader.h"

namespace {

using namespace schedlab;

const swf::Log& kth() {
  static const swf::Log log = swf::read_log(std::string(SCHEDLAB_SOURCE_DIR) + "/data/KTH-SP2-1996-2.swf.gz");
  return log;
}

void BM_GenerateLocality(benchmark::State& state) {
  model::LocalityModelOptions o;
  o.jobs = 1000000;
  for (auto _ : state) benchmark::DoNotOptimize(model::generate_locality(kth().records, o));
  state.SetItemsProcessed(state.iterations() * o.jobs);
}
BENCHMARK(BM_GenerateLocality)->Unit(benchmark::kMillisecond);

void BM_GenerateTalby(benchmark::State& state) {
  static const model::TalbyJobModel jobs = model::fit_talby_job_layer(kth(), "KTH");
  model::TalbyOptions o;
  o.procs = 1024;
  o.weeks = 800;
  o.threads = static_cast<int>(state.range(0));
  int64_t n = 0;
  for (auto _ : state) {
    const auto out = model::generate_talby(o, jobs);
    n = static_cast<int64_t>(out.size());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.counters["jobs"] = static_cast<double>(n);
}
BENCHMARK(BM_GenerateTalby)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
