#include "schedlab/predict/profiler_predictor.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/predict/profiler_db.h"
#include "schedlab/predict/spec.h"
#include "schedlab/swf/reader.h"

namespace schedlab::predict {

namespace {

// Whole seconds, rounded up; predictions far beyond any log (or not finite) are capped.
int64_t seconds_up(double x) {
  constexpr double kCap = 1e12;
  if (!(x > 0)) return 0;
  return static_cast<int64_t>(std::ceil(std::min(x, kCap)));
}

}  // namespace

ProfilerPredictor::ProfilerPredictor(ProfilerOptions options, profiler::Repository start)
    : options_(options), repo_(std::move(start)) {
  if (!(options_.confidence > 0 && options_.confidence < 1)) {
    throw std::invalid_argument(
        fmt::format("predictor 'profiler': confidence must be between 0 and 1, got {}", options_.confidence));
  }
}

int64_t ProfilerPredictor::on_arrival(int64_t /*now*/, const Job& job, Updates& /*updates*/) {
  const auto q = repo_.get_estimate({job.executable, job.user, std::max<int64_t>(job.procs, 1), 0},
                                    options_.confidence);
  if (!q.ok) {
    ++fallbacks_;
    return std::max<int64_t>(job.estimate, 0);
  }
  ++answered_;
  return seconds_up(bound(q));
}

void ProfilerPredictor::on_termination(int64_t now, const Job& job, int64_t start, Updates& /*updates*/) {
  const int64_t runtime = now - start;
  if (runtime < 0 || runtime > profiler::kMaxRuntime || job.procs < 1) return;  // cannot happen in a simulation
  repo_.add(job.executable, job.user, job.procs, runtime);
}

void ProfilerPredictor::on_deadline_miss(int64_t now, const Job& job, int64_t start, int64_t /*prediction*/,
                                         Updates& updates) {
  const int64_t r = now - start;
  int64_t next = 0;
  const auto q = repo_.get_estimate({job.executable, job.user, std::max<int64_t>(job.procs, 1), r},
                                    options_.confidence);
  if (q.ok) {
    // q.estimate is already E' when the job outlived E + 3·CI (get_estimate applies the correction).
    const int64_t b = seconds_up(bound(q));
    next = b > r ? b : seconds_up(q.estimate + 3.0 * q.half_width);
  } else {
    next = job.estimate > r ? job.estimate : 2 * r;
  }
  updates.push_back({job.id, std::max(next, r + 1)});
}

std::unique_ptr<Predictor> make_profiler(const PredictorConfig& config) {
  ParamReader r("profiler", config.params);
  const std::string conf = r.get_string("confidence", "0.95");
  const std::string bound = r.get_string("bound", "upper");
  const std::string db = r.get_string("db", "");
  const std::string train = r.get_string("train", "");
  r.finish();
  ProfilerOptions o;
  const auto [ptr, ec] = std::from_chars(conf.data(), conf.data() + conf.size(), o.confidence);
  if (ec != std::errc() || ptr != conf.data() + conf.size() || !(o.confidence > 0 && o.confidence < 1)) {
    throw std::invalid_argument(
        fmt::format("predictor 'profiler': confidence must be a number between 0 and 1 (exclusive), got '{}'", conf));
  }
  if (bound != "upper" && bound != "mean") {
    throw std::invalid_argument(fmt::format("predictor 'profiler': bound must be 'upper' or 'mean', got '{}'", bound));
  }
  o.upper = bound == "upper";
  profiler::Repository repo;
  if (!db.empty()) repo = profiler::load_repository(db);
  if (!train.empty()) {
    swf::Reader reader(train);
    swf::Record record;
    while (reader.next(record)) profiler::add_record(repo, record);
  }
  return std::make_unique<ProfilerPredictor>(o, std::move(repo));
}

}  // namespace schedlab::predict
