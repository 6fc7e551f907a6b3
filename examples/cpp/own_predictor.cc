// A runtime predictor of your own, given to schedlab wherever a predictor spec would go: here `compare`, which runs
// EASY and conservative with it on one log, month by month, beside the same schedulers with the users' estimates.
// "user-last" predicts a job to run as long as its user's last finished job (the estimate until one finished,
// never more than the estimate), corrected as Tsafrir et al. correct a prediction that falls short.
//   usage: own_predictor LOG.swf[.gz]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string_view>
#include <unordered_map>

#include "schedlab/experiments/compare.h"
#include "schedlab/predict/predictor.h"
#include "schedlab/swf/reader.h"

namespace {

using schedlab::predict::Job;
using schedlab::predict::Updates;

class UserLast : public schedlab::predict::Predictor {
 public:
  std::unique_ptr<schedlab::predict::Predictor> clone() const override { return std::make_unique<UserLast>(*this); }
  std::string_view name() const override { return "user-last"; }
  int64_t on_arrival(int64_t, const Job& job, Updates&) override {
    const auto last = last_.find(job.user);
    return last == last_.end() ? job.estimate : std::min(job.estimate, last->second);
  }
  void on_termination(int64_t now, const Job& job, int64_t start, Updates&) override { last_[job.user] = now - start; }

 private:
  std::unordered_map<int32_t, int64_t> last_;  // user -> runtime of the last job that ended
};

void print(const schedlab::experiments::CompareResult& r) {
  using schedlab::experiments::CompareMetric;
  for (size_t s = 0; s < r.names.size(); ++s)
    std::printf("%-14s %-30s %10.1f %10.2f\n", r.names[s].c_str(), r.results[s].predictor.c_str(),
                r.whole(CompareMetric::kWait, s), r.whole(CompareMetric::kBoundedSlowdown, s));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: own_predictor LOG.swf[.gz]\n");
    return 2;
  }
  try {
    const schedlab::swf::Log log = schedlab::swf::read_log(argv[1]);
    schedlab::experiments::CompareSpec spec;
    spec.schedulers = {"easy", "conservative"};
    std::printf("%-14s %-30s %10s %10s\n", "scheduler", "predictor", "wait (s)", "bsld");
    print(schedlab::experiments::run_compare(spec, log));  // the estimates
    spec.predictor_object = std::make_shared<UserLast>();
    spec.correction = "tsafrir";
    print(schedlab::experiments::run_compare(spec, log));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "own_predictor: %s\n", e.what());
    return 1;
  }
  return 0;
}
