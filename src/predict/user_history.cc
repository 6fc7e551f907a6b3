#include "schedlab/predict/user_history.h"

#include <algorithm>
#include <stdexcept>

#include "schedlab/predict/spec.h"

namespace schedlab::predict {

UserHistoryPredictor::Entry* UserHistoryPredictor::entry(JobId id) {
  if (id < 0 || static_cast<size_t>(id) >= slot_.size()) return nullptr;
  const int32_t s = slot_[static_cast<size_t>(id)];
  return s >= 0 ? &slots_[static_cast<size_t>(s)] : nullptr;
}

int64_t UserHistoryPredictor::on_arrival(int64_t now, const Job& job, Updates& /*updates*/) {
  if (job.id < 0) throw std::invalid_argument("history predictors need job ids");
  const auto idx = static_cast<size_t>(job.id);
  if (idx >= slot_.size()) slot_.resize(std::max(idx + 1, slot_.size() * 2), -1);
  const auto [it, fresh] = user_index_.emplace(job.user, static_cast<int32_t>(active_.size()));
  if (fresh) active_.emplace_back();
  if (slot_[idx] < 0) {
    if (free_slots_.empty()) {
      slot_[idx] = static_cast<int32_t>(slots_.size());
      slots_.emplace_back();
    } else {
      slot_[idx] = free_slots_.back();
      free_slots_.pop_back();
    }
  }
  Entry& e = slots_[static_cast<size_t>(slot_[idx])];
  e = Entry{};
  e.job = SeenJob{job.id, job.procs, job.executable, job.submit, job.estimate};
  e.user = it->second;
  auto& list = active_[static_cast<size_t>(e.user)];
  e.pos = static_cast<int32_t>(list.size());
  list.push_back(job.id);
  arrived(now, e);
  e.prediction = std::max<int64_t>(0, predict(e));
  return e.prediction;
}

void UserHistoryPredictor::on_start(int64_t now, const Job& job, int64_t prediction, Updates& /*updates*/) {
  if (Entry* e = entry(job.id)) {
    e->start = now;
    e->prediction = prediction;
  }
}

void UserHistoryPredictor::on_termination(int64_t now, const Job& job, int64_t start, Updates& updates) {
  Entry* e = entry(job.id);
  if (!e || e->pos < 0) return;
  auto& list = active_[static_cast<size_t>(e->user)];
  const JobId moved = list.back();
  list[static_cast<size_t>(e->pos)] = moved;
  entry(moved)->pos = e->pos;
  list.pop_back();
  e->pos = -1;
  record(now, *e, now - start);
  // Its slot is free for the next arrival (the entry is not read again: a terminated job gets no event).
  free_slots_.push_back(slot_[static_cast<size_t>(job.id)]);
  slot_[static_cast<size_t>(job.id)] = -1;
  if (!propagate_) return;
  for (const JobId id : list) {
    Entry& other = *entry(id);
    if (other.missed || (other.start >= 0 && !propagate_running_)) continue;
    const int64_t p = std::max<int64_t>(0, predict(other));
    if (p == other.prediction) continue;
    if (other.start >= 0 && p <= now - other.start) continue;  // would be overdue at once: keep the old one
    other.prediction = p;
    updates.push_back({id, p});
  }
}

void UserHistoryPredictor::on_deadline_miss(int64_t now, const Job& job, int64_t /*start*/, int64_t prediction,
                                            Updates& updates) {
  Entry* e = entry(job.id);
  if (!e) return;
  e->missed = true;
  const int64_t p = missed(now, *e, prediction);
  if (p >= 0) {
    e->prediction = std::max(p, prediction + 1);
    updates.push_back({job.id, e->prediction});
  }
}

// ---- user-last2 ----

int64_t UserLast2Predictor::predict(const Entry& e) const {
  const auto u = static_cast<size_t>(e.user);
  if (u >= history_.size() || history_[u].count < min_jobs_) return e.job.estimate;
  const History& h = history_[u];
  const int64_t p = h.count == 1 ? h.last[0].runtime : (h.last[0].runtime + h.last[1].runtime) / 2;
  return std::min(p, e.job.estimate);
}

void UserLast2Predictor::record(int64_t /*now*/, const Entry& e, int64_t runtime) {
  const auto u = static_cast<size_t>(e.user);
  if (u >= history_.size()) history_.resize(users());
  History& h = history_[u];
  const Finished f{e.job.submit, e.job.id, runtime};
  auto newer = [&](const Finished& a, const Finished& b) {
    return !by_submit_ || a.submit != b.submit ? (!by_submit_ || a.submit > b.submit) : a.id > b.id;
  };
  if (h.count == 0) {
    h.last[0] = f;
  } else if (newer(f, h.last[0])) {
    h.last[1] = h.last[0];
    h.last[0] = f;
  } else if (h.count == 1 || newer(f, h.last[1])) {
    h.last[1] = f;
  }
  h.count = std::min(h.count + 1, 2);
}

// ---- ruh ----

int64_t RuhPredictor::predict(const Entry& e) const {
  const auto u = static_cast<size_t>(e.user);
  if (u >= history_.size() || history_[u].ring.size() < static_cast<size_t>(jobs_)) return e.job.estimate;
  std::vector<int64_t> v = history_[u].ring;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  const int64_t m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return std::min(m, e.job.estimate);
}

void RuhPredictor::record(int64_t /*now*/, const Entry& e, int64_t runtime) {
  const auto u = static_cast<size_t>(e.user);
  if (u >= history_.size()) history_.resize(users());
  History& h = history_[u];
  if (h.ring.size() < static_cast<size_t>(jobs_)) {
    h.ring.push_back(runtime);
  } else {
    h.ring[h.next] = runtime;
    h.next = (h.next + 1) % h.ring.size();
  }
}

static base::ParamDecl propagate_param(const char* default_value) {
  return {.name = "propagate", .type = base::ParamType::kBool, .default_value = default_value,
          .help = "apply a finished job's runtime to the user's queued and running jobs at once"};
}

const std::vector<base::ParamDecl>& user_last2_params() {
  static const std::vector<base::ParamDecl> d = {
      {.name = "order", .type = base::ParamType::kChoice, .default_value = "submit",
       .help = "the user's two most recent jobs by submit time, or by end time", .choices = {"submit", "end"}},
      propagate_param("0"),
      {.name = "min_jobs", .type = base::ParamType::kInt, .default_value = "1",
       .help = "the user's finished jobs needed before their mean replaces the estimate (2: pyss's rule)", .min = 1,
       .max = 2},
      {.name = "running", .type = base::ParamType::kBool, .default_value = "1",
       .help = "propagation re-predicts the user's running jobs too (0: waiting jobs only, as pyss)"}};
  return d;
}

const std::vector<base::ParamDecl>& ruh_params() {
  static const std::vector<base::ParamDecl> d = {
      {.name = "jobs", .type = base::ParamType::kInt, .default_value = "3",
       .help = "the median is over the user's last N terminated jobs (at most 1000 used)", .min = 1},
      propagate_param("0")};
  return d;
}

std::unique_ptr<Predictor> make_user_last2(const PredictorConfig&, const base::Params& p) {
  return std::make_unique<UserLast2Predictor>(p.get_string("order") == "submit", p.get_bool("propagate"),
                                              static_cast<int>(p.get_int("min_jobs")), p.get_bool("running"));
}

std::unique_ptr<Predictor> make_ruh(const PredictorConfig&, const base::Params& p) {
  return std::make_unique<RuhPredictor>(static_cast<int>(std::min<int64_t>(p.get_int("jobs"), 1000)),
                                        p.get_bool("propagate"));
}

}  // namespace schedlab::predict
