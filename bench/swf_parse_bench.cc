// SWF parsing speed: an in-memory generated log, the same log read from a plain file and from a gzip
// file (records/s reported as items_per_second), line by line (threads:1) and in parallel on every core (threads:0),
// timed by the wall clock (the parallel read's other threads do not count in the calling thread's CPU time).
// Run: schedlab_bench --benchmark_filter=Parse
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <random>
#include <string>

#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"

namespace {

using namespace schedlab::swf;

constexpr int kRecords = 1000000;

// A realistic log: KTH-like value ranges, a few decimal CPU times, header at the top.
const std::string& generated_text() {
  static const std::string text = [] {
    std::mt19937 rng(12345);
    std::string s = "; Version: 2.2\n; Computer: generated\n; MaxJobs: 1000000\n; MaxRecords: 1000000\n"
                    "; MaxNodes: 1024\n; MaxProcs: 1024\n;\n";
    s.reserve(static_cast<size_t>(kRecords) * 80);
    int32_t submit = 0;
    for (int i = 1; i <= kRecords; ++i) {
      submit += static_cast<int32_t>(rng() % 600);
      const int procs = 1 << (rng() % 10);
      const int runtime = static_cast<int>(rng() % 86400);
      char line[256];
      const int n = std::snprintf(line, sizeof line,
                                  "%6d %9d %6d %6d %4d %s %5d %4d %6d %5d %2d %3d %3d %3d %2d %2d %2d %2d\n", i, submit,
                                  static_cast<int>(rng() % 100000), runtime, procs,
                                  (i % 4 == 0) ? "123.45" : "    -1", -1, procs, runtime + 600, -1, 1,
                                  static_cast<int>(rng() % 300), static_cast<int>(rng() % 50), -1, 1, -1, -1, -1);
      s.append(line, static_cast<size_t>(n));
    }
    return s;
  }();
  return text;
}

std::string temp_path(const char* suffix) {
  return std::string("/tmp/schedlab-bench-") + std::to_string(getpid()) + suffix;
}

// Writes the generated log once per process, plain or gzip.
const std::string& file_of(bool gzip) {
  static const std::string plain = [] {
    const std::string path = temp_path(".swf");
    const Log log = parse_log(generated_text());
    write_log(path, log.header, log.records);
    return path;
  }();
  static const std::string gz = [] {
    const std::string path = temp_path(".swf.gz");
    const Log log = parse_log(generated_text());
    write_log(path, log.header, log.records);
    return path;
  }();
  return gzip ? gz : plain;
}

struct Cleanup {
  ~Cleanup() {
    std::remove(temp_path(".swf").c_str());
    std::remove(temp_path(".swf.gz").c_str());
  }
} cleanup;

// Each parse benchmark runs with threads 1 and 0 (every core), timed by the wall clock.
void line_by_line_and_parallel(benchmark::internal::Benchmark* b) {
  b->ArgName("threads")->Arg(1)->Arg(0)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);
}

ReadOptions threads_of(const benchmark::State& state) {
  ReadOptions options;
  options.threads = static_cast<int>(state.range(0));
  return options;
}

void BM_Parse_Memory(benchmark::State& state) {
  const std::string& text = generated_text();
  for (auto _ : state) {
    Log log = parse_log(text, "bench", threads_of(state));
    benchmark::DoNotOptimize(log.records.data());
    if (log.records.size() != static_cast<size_t>(kRecords)) state.SkipWithError("wrong record count");
  }
  state.SetItemsProcessed(state.iterations() * kRecords);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_Parse_Memory)->Apply(line_by_line_and_parallel);

void BM_Parse_PlainFile(benchmark::State& state) {
  const std::string& path = file_of(false);
  for (auto _ : state) {
    Log log = read_log(path, threads_of(state));
    benchmark::DoNotOptimize(log.records.data());
    if (log.records.size() != static_cast<size_t>(kRecords)) state.SkipWithError("wrong record count");
  }
  state.SetItemsProcessed(state.iterations() * kRecords);
}
BENCHMARK(BM_Parse_PlainFile)->Apply(line_by_line_and_parallel);

void BM_Parse_GzipFile(benchmark::State& state) {
  const std::string& path = file_of(true);
  for (auto _ : state) {
    Log log = read_log(path, threads_of(state));
    benchmark::DoNotOptimize(log.records.data());
    if (log.records.size() != static_cast<size_t>(kRecords)) state.SkipWithError("wrong record count");
  }
  state.SetItemsProcessed(state.iterations() * kRecords);
}
BENCHMARK(BM_Parse_GzipFile)->Apply(line_by_line_and_parallel);

// Formatting speed of the writer (to memory).
void BM_Format_Records(benchmark::State& state) {
  const Log log = parse_log(generated_text());
  for (auto _ : state) {
    std::string out;
    for (const auto& r : log.records) benchmark::DoNotOptimize(out = format_record(r));
  }
  state.SetItemsProcessed(state.iterations() * kRecords);
}
BENCHMARK(BM_Format_Records)->Unit(benchmark::kMillisecond);

}  // namespace

// The single main() of schedlab_bench (all bench/*_bench.cc link into one program): other bench files
// must not define BENCHMARK_MAIN.
BENCHMARK_MAIN();
