// A predictor that re-predicts at random, for the reference tests of the schedulers (src/sim/*_reference_test.cc):
// at every hook up to three jobs that have arrived and not ended get a new prediction, shorter or longer (0 too),
// waiting and running ones alike — what a predictor of a user's own may do (predict/predictor.h allows updates of
// any job at any hook), and what the built-in ones do only in part. Every rule of a scheduler for changed
// predictions is met: running jobs' holds that shrink, grow over reservations or come back after the job was
// overdue, waiting jobs' holds that shrink, grow in place or must move. Deterministic: each run starts from the
// same seed, so two schedulers see the same updates for as long as their schedules agree.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/predict/predictor.h"
#include "schedlab/predict/registry.h"

namespace schedlab::testing {

class ShufflingPredictor final : public predict::Predictor {
 public:
  explicit ShufflingPredictor(uint32_t seed) : rng_(seed) {}
  std::unique_ptr<predict::Predictor> clone() const override { return std::make_unique<ShufflingPredictor>(*this); }
  std::string_view name() const override { return "shuffling"; }
  int64_t on_arrival(int64_t, const predict::Job& job, predict::Updates& updates) override {
    live_.push_back(job.id);
    shuffle(updates);
    return pick(job.estimate);
  }
  void on_start(int64_t, const predict::Job&, int64_t, predict::Updates& updates) override { shuffle(updates); }
  void on_termination(int64_t, const predict::Job& job, int64_t, predict::Updates& updates) override {
    std::erase(live_, job.id);
    shuffle(updates);
  }
  void on_deadline_miss(int64_t, const predict::Job&, int64_t, int64_t, predict::Updates& updates) override {
    shuffle(updates);
  }

 private:
  // 0 one time in eight, below `around` three in eight, above it otherwise.
  int64_t pick(int64_t around) {
    const auto r = rng_() % 8;
    if (r == 0) return 0;
    if (r < 4) return static_cast<int64_t>(rng_() % static_cast<uint64_t>(std::max<int64_t>(around, 1)));
    return around + static_cast<int64_t>(rng_() % 300);
  }
  void shuffle(predict::Updates& updates) {
    if (live_.empty()) return;
    for (auto k = rng_() % 4; k > 0; --k) updates.push_back({live_[rng_() % live_.size()], pick(200)});
  }
  std::mt19937 rng_;
  std::vector<predict::JobId> live_;
};

// "shuffling:SEED" is a ShufflingPredictor, anything else a registered predictor's spec (predict/registry.h).
inline std::unique_ptr<predict::Predictor> test_predictor(const std::string& spec) {
  if (spec.starts_with("shuffling:")) {
    return std::make_unique<ShufflingPredictor>(static_cast<uint32_t>(std::stoul(spec.substr(10))));
  }
  return predict::make_predictor(spec);
}

}  // namespace schedlab::testing
