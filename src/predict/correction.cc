#include "schedlab/predict/correction.h"

#include "schedlab/base/nearest.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/core.h>

namespace schedlab::predict {

Correction parse_correction(std::string_view name) {
  if (name == "none") return Correction::kNone;
  if (name == "tsafrir") return Correction::kTsafrir;
  if (name == "double") return Correction::kDouble;
  if (name == "times10") return Correction::kTimes10;
  throw std::invalid_argument(fmt::format("unknown correction '{}' (known: none, tsafrir, double, times10){}", name,
                                          base::did_you_mean(name, {"none", "tsafrir", "double", "times10"})));
}

std::string_view correction_name(Correction c) {
  switch (c) {
    case Correction::kNone: return "none";
    case Correction::kTsafrir: return "tsafrir";
    case Correction::kDouble: return "double";
    case Correction::kTimes10: return "times10";
  }
  return "none";
}

int64_t corrected_prediction(Correction c, int64_t old, int64_t estimate, int32_t& step) {
  switch (c) {
    case Correction::kNone: return old;
    case Correction::kTsafrir: {
      if (old < estimate) return estimate;
      const size_t k = std::min(static_cast<size_t>(std::max(step, 0)), kTsafrirSteps.size() - 1);
      ++step;
      return old + kTsafrirSteps[k];
    }
    case Correction::kDouble: return old > 0 ? 2 * old : 1;
    case Correction::kTimes10: return old > 0 ? 10 * old : 1;
  }
  return old;
}

std::unique_ptr<Predictor> with_correction(std::unique_ptr<Predictor> p, std::string_view correction) {
  if (!p) throw std::invalid_argument("with_correction needs a predictor");
  if (correction.empty()) return p;
  const Correction c = parse_correction(correction);
  if (c == Correction::kNone) return p;
  const std::string label(p->label());
  auto corrected = std::make_unique<CorrectedPredictor>(std::move(p), c);
  // A label with parameters already ("mine:window=3") takes the correction as one more.
  corrected->set_label(fmt::format("{}{}correction={}", label, label.find(':') == std::string::npos ? ":" : ";",
                                   correction_name(c)));
  return corrected;
}

CorrectedPredictor::CorrectedPredictor(std::unique_ptr<Predictor> inner, Correction correction)
    : inner_(std::move(inner)), correction_(correction) {
  if (!inner_) throw std::invalid_argument("CorrectedPredictor needs a predictor");
  name_ = fmt::format("{}:correction={}", inner_->name(), correction_name(correction_));
}

CorrectedPredictor::CorrectedPredictor(const CorrectedPredictor& other)
    : Predictor(other),
      inner_(other.inner_->clone()),
      correction_(other.correction_),
      name_(other.name_),
      step_(other.step_),
      scratch_(other.scratch_) {}

void CorrectedPredictor::forward(Updates& updates) {
  for (const auto& u : scratch_) {
    const auto idx = static_cast<size_t>(u.job);
    if (u.job >= 0 && idx < step_.size() && step_[idx] >= 0) continue;  // corrected: keep the correction
    updates.push_back(u);
  }
  scratch_.clear();
}

int64_t CorrectedPredictor::on_arrival(int64_t now, const Job& job, Updates& updates) {
  const auto idx = static_cast<size_t>(job.id);
  if (job.id >= 0 && idx >= step_.size()) step_.resize(std::max(idx + 1, step_.size() * 2), -1);
  const int64_t p = inner_->on_arrival(now, job, scratch_);
  forward(updates);
  return p;
}

void CorrectedPredictor::on_start(int64_t now, const Job& job, int64_t prediction, Updates& updates) {
  inner_->on_start(now, job, prediction, scratch_);
  forward(updates);
}

void CorrectedPredictor::on_termination(int64_t now, const Job& job, int64_t start, Updates& updates) {
  inner_->on_termination(now, job, start, scratch_);
  forward(updates);
}

void CorrectedPredictor::on_deadline_miss(int64_t now, const Job& job, int64_t start, int64_t prediction,
                                          Updates& updates) {
  inner_->on_deadline_miss(now, job, start, prediction, scratch_);
  const auto idx = static_cast<size_t>(job.id);
  if (job.id < 0) return forward(updates);
  if (idx >= step_.size()) step_.resize(idx + 1, -1);
  if (correction_ == Correction::kNone) return forward(updates);
  int32_t step = std::max(step_[idx], 0);
  // The wrapped predictor may have raised the prediction itself: correct from the higher value.
  int64_t base = prediction;
  for (const auto& u : scratch_) {
    if (u.job == job.id) base = std::max(base, u.prediction);
  }
  int64_t next = base > prediction ? base : corrected_prediction(correction_, prediction, job.estimate, step);
  next = std::max(next, now - start + 1);
  step_[idx] = step;
  forward(updates);
  updates.push_back({job.id, next});
}

}  // namespace schedlab::predict
