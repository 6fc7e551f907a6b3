#include "schedlab/predict/sbh.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/predict/spec.h"
#include "schedlab/trace/sessions.h"

namespace schedlab::predict {

void RunningMedian::add(int64_t v) {
  if (lo_.empty() || v <= lo_.top()) {
    lo_.push(v);
  } else {
    hi_.push(v);
  }
  if (lo_.size() > hi_.size() + 1) {
    hi_.push(lo_.top());
    lo_.pop();
  } else if (hi_.size() > lo_.size()) {
    lo_.push(hi_.top());
    hi_.pop();
  }
}

int64_t RunningMedian::median() const {
  if (lo_.size() > hi_.size()) return lo_.top();
  return (lo_.top() + hi_.top()) / 2;
}

SbhPredictor::SbhPredictor(SbhOptions options) : UserHistoryPredictor(options.propagate), options_(std::move(options)) {
  if (options_.criteria.empty()) throw std::invalid_argument("predictor 'sbh': criteria must not be empty");
  for (const auto& c : options_.criteria) {
    uint8_t m = 0;
    if (c != "*") {
      for (char ch : c) {
        const uint8_t bit = ch == 'P' ? 1 : ch == 'E' ? 2 : ch == 'X' ? 4 : 0;
        if (bit == 0 || (m & bit)) {
          throw std::invalid_argument(fmt::format(
              "predictor 'sbh': bad criterion '{}' (use letters P, E, X, each at most once, or *)", c));
        }
        m = static_cast<uint8_t>(m | bit);
      }
    }
    if (options_.no_estimate && (m & 2)) {
      throw std::invalid_argument(fmt::format("predictor 'sbh': criterion '{}' uses E, not allowed with noest=1", c));
    }
    mask_.push_back(m);
  }
}

int32_t SbhPredictor::session_of(JobId id) const {
  return id >= 0 && static_cast<size_t>(id) < session_.size() ? session_[static_cast<size_t>(id)] : -1;
}

SbhPredictor::Key SbhPredictor::key(size_t criterion, const SeenJob& job) const {
  const uint8_t m = mask_[criterion];
  return {m & 1 ? int64_t{job.procs} : -1, m & 2 ? job.estimate : -1, m & 4 ? int64_t{job.executable} : -1};
}

void SbhPredictor::arrived(int64_t now, Entry& e) {
  const auto u = static_cast<size_t>(e.user);
  if (u >= users_.size()) users_.resize(u + 1);
  User& user = users_[u];
  const bool fresh =
      user.sessions == 0 || (user.last_end >= 0 && trace::starts_new_session(user.last_end, now, options_.think));
  if (fresh) ++user.sessions;
  user.last_job = e.job.id;
  user.last_end = -1;
  e.session = user.sessions - 1;
  const auto idx = static_cast<size_t>(e.job.id);
  if (idx >= session_.size()) session_.resize(std::max(idx + 1, session_.size() * 2), -1);
  session_[idx] = e.session;
}

int64_t SbhPredictor::predict(const Entry& e) const {
  const User& user = users_[static_cast<size_t>(e.user)];
  const int32_t oldest = options_.depth > 0 ? user.sessions - options_.depth : 0;
  const Newest* best = nullptr;
  for (size_t c = 0; c < mask_.size(); ++c) {
    const auto it = index_.find(IndexKey{e.user, static_cast<int32_t>(c), key(c, e.job)});
    if (it == index_.end() || it->second.session < oldest) continue;
    if (!options_.bfs) {
      best = &it->second;
      break;
    }
    if (!best || it->second.session > best->session) best = &it->second;  // BFS: newest session, then list order
  }
  if (!best) return options_.no_estimate ? options_.initial : e.job.estimate;
  const int64_t m = best->runtimes.median();
  return options_.no_estimate ? m : std::min(m, e.job.estimate);
}

void SbhPredictor::record(int64_t now, const Entry& e, int64_t runtime) {
  User& user = users_[static_cast<size_t>(e.user)];
  if (user.last_job == e.job.id) user.last_end = now;
  for (size_t c = 0; c < mask_.size(); ++c) {
    Newest& n = index_[IndexKey{e.user, static_cast<int32_t>(c), key(c, e.job)}];
    if (e.session < n.session) continue;  // an older session: never chosen again for this key
    if (e.session > n.session) n = Newest{e.session, {}};
    n.runtimes.add(runtime);
  }
}

int64_t SbhPredictor::missed(int64_t now, const Entry& e, int64_t prediction) {
  if (!options_.no_estimate) return -1;
  int64_t p = std::max<int64_t>(prediction, 1) * options_.factor;
  if (options_.cap > 0) p = std::min(p, options_.cap);
  return std::max(p, now - e.start + 1);
}

const std::vector<base::ParamDecl>& sbh_params() {
  using base::ParamType;
  static const std::vector<base::ParamDecl> d = {
      {.name = "criteria", .type = ParamType::kString, .default_value = "PE,P,E,*",
       .help = "similarity criteria tried in order, comma-separated (P size, E estimate, * any)",
       .metavar = "LIST"},
      {.name = "order", .type = ParamType::kChoice, .default_value = "dfs",
       .help = "search the session tree depth first or breadth first", .choices = {"dfs", "bfs"}},
      {.name = "depth", .type = ParamType::kInt, .default_value = "0",
       .help = "sessions searched back (0 = all)", .min = 0, .max = 1 << 30},
      {.name = "propagate", .type = ParamType::kBool, .default_value = "1",
       .help = "update the user's queued jobs when a job ends"},
      {.name = "think", .type = ParamType::kInt, .default_value = "1200",
       .help = "think time that starts a new session, seconds", .min = 1, .metavar = "SECONDS"},
      {.name = "noest", .type = ParamType::kBool, .default_value = "0",
       .help = "predict without the user's estimate (deadline misses grow the prediction by `factor`)"},
      {.name = "initial", .type = ParamType::kInt, .default_value = "1",
       .help = "first prediction without history or estimate, seconds", .min = 0, .metavar = "SECONDS"},
      {.name = "factor", .type = ParamType::kInt, .default_value = "10",
       .help = "growth factor of a missed prediction (noest=1)", .min = 2},
      {.name = "cap", .type = ParamType::kInt, .default_value = "0",
       .help = "largest prediction, seconds (0 = none)", .min = 0, .metavar = "SECONDS"},
  };
  return d;
}

std::unique_ptr<Predictor> make_sbh(const PredictorConfig&, const base::Params& p) {
  SbhOptions o;
  const std::string& criteria = p.get_string("criteria");
  o.criteria.clear();
  size_t pos = 0;
  while (pos <= criteria.size()) {
    const size_t comma = criteria.find(',', pos);
    o.criteria.push_back(criteria.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  o.bfs = p.get_string("order") == "bfs";
  o.depth = static_cast<int32_t>(p.get_int("depth"));
  o.propagate = p.get_bool("propagate");
  o.think = p.get_int("think");
  o.no_estimate = p.get_bool("noest");
  o.initial = p.get_int("initial");
  o.factor = p.get_int("factor");
  o.cap = p.get_int("cap");
  return std::make_unique<SbhPredictor>(std::move(o));
}

}  // namespace schedlab::predict
