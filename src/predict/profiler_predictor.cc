#include "schedlab/predict/profiler_predictor.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/predict/profiler_db.h"
#include "schedlab/predict/spec.h"
#include "schedlab/swf/csv.h"
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

const std::vector<base::ParamDecl>& profiler_params() {
  using base::ParamType;
  static const std::vector<base::ParamDecl> d = {
      {.name = "confidence", .type = ParamType::kDouble, .default_value = "0.95",
       .help = "confidence level of the prediction interval (strictly between 0 and 1)", .min = 0, .max = 1,
       .metavar = "0<C<1"},
      {.name = "bound", .type = ParamType::kChoice, .default_value = "upper",
       .help = "predict the interval's upper bound or the fitted mean", .choices = {"upper", "mean"}},
      {.name = "db", .type = ParamType::kFile, .help = "start from this repository (SQLite, `schedlab profiler`)",
       .metavar = "FILE"},
      {.name = "train", .type = ParamType::kFile, .help = "first learn every job of this SWF log",
       .metavar = "FILE.swf"},
  };
  return d;
}

std::unique_ptr<Predictor> make_profiler(const PredictorConfig&, const base::Params& p) {
  ProfilerOptions o;
  o.confidence = p.get_double("confidence");
  if (!(o.confidence > 0 && o.confidence < 1)) {  // the declaration's range is inclusive; 0 and 1 make no interval
    throw std::invalid_argument(
        fmt::format("predictor profiler: parameter confidence must be strictly between 0 and 1, got {}", o.confidence));
  }
  o.upper = p.get_string("bound") == "upper";
  profiler::Repository repo;
  if (p.has("db")) repo = profiler::load_repository(p.get_file("db"));
  if (p.has("train")) {
    const std::string train = p.get_file("train");
    if (swf::is_csv_name(train)) {
      for (const swf::Record& record : swf::read_csv(train).records) profiler::add_record(repo, record);
    } else {
      swf::Reader reader(train);  // streamed
      swf::Record record;
      while (reader.next(record)) profiler::add_record(repo, record);
    }
  }
  return std::make_unique<ProfilerPredictor>(o, std::move(repo));
}

}  // namespace schedlab::predict
