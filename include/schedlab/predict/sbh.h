// `sbh`: Session-Based History predictor (Talby's thesis §8, Listing 4; docs/predictors.md).
//
// Sessions are built ONLINE, per user, from what the predictor has seen: a job starts a new session of its
// user when it is the user's first job, or when the user's previous job (the latest arrival) has already
// terminated and the think time — this submit minus that termination — is >= `think` (20 min;
// trace::starts_new_session, the rule of trace/sessions.h with online knowledge: a previous job still
// running means a negative think time, i.e. the same session). A job belongs to the session it arrived in.
//
// Similarity criteria: an ordered list over P (processors), E (estimate), X (executable, SWF field 14) and
// `*` (any job); a criterion is any combination of the letters (PE = same processors and estimate).
// Lookup (DFS, the default):
//     for criterion in list: for session of the user, newest first (at most `depth` sessions back, the
//         current one included): if the session has >= 1 terminated job matching the criterion, predict the
//         median runtime of those jobs
//     fallback: the estimate
// BFS swaps the two loops. The prediction is never above the estimate (the kill time).
// No-estimate mode (noest=1): criteria may not use E; the fallback is `initial` (1 s); on every deadline
// miss the predictor multiplies the prediction by `factor` (10), capped at `cap` seconds when cap > 0
// (never below the elapsed runtime + 1); predictions are not capped by the estimate.
//
// Index: per user and criterion (one hash table), from the job's key (its P/E/X values) to the median structure of the
// newest session with a terminated matching job (older sessions can never be chosen again for that key).
// A lookup costs O(criteria × log keys), never a scan of the history; a termination O(criteria × log n).
// Medians: two heaps; even counts use the lower-rounded mean of the two middle values.
//
// Parameters (spec `sbh:criteria=PE,P,E,*;order=dfs;propagate=1`):
//   criteria (PE,P,E,*), order=dfs|bfs (dfs), depth=N sessions (0 = unlimited, default), propagate=0|1 (1),
//   think=SECONDS (1200), noest=0|1 (0), initial=SECONDS (1), factor=N (10), cap=SECONDS (0 = none).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <unordered_map>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include "schedlab/base/params.h"
#include "schedlab/predict/user_history.h"

namespace schedlab::predict {

// Running median of integers (two heaps): O(log n) insert, O(1) median.
class RunningMedian {
 public:
  void add(int64_t v);
  int64_t median() const;  // requires size() > 0
  size_t size() const { return lo_.size() + hi_.size(); }

 private:
  std::priority_queue<int64_t> lo_;                                             // lower half (max-heap)
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> hi_;  // upper half (min-heap)
};

struct SbhOptions {
  std::vector<std::string> criteria = {"PE", "P", "E", "*"};
  bool bfs = false;
  int32_t depth = 0;  // 0 = unlimited
  bool propagate = true;
  int64_t think = 20 * 60;
  bool no_estimate = false;
  int64_t initial = 1;
  int64_t factor = 10;
  int64_t cap = 0;
};

class SbhPredictor final : public UserHistoryPredictor {
 public:
  explicit SbhPredictor(SbhOptions options);
  std::unique_ptr<Predictor> clone() const override { return std::make_unique<SbhPredictor>(*this); }
  std::string_view name() const override { return "sbh"; }

  // The session a job was put in (dense per user, 0 = its first session), -1 if unknown. For tests.
  int32_t session_of(JobId id) const;

 private:
  using Key = std::array<int64_t, 3>;
  struct Newest {
    int32_t session = -1;
    RunningMedian runtimes;
  };
  struct User {
    int32_t sessions = 0;
    JobId last_job = -1;
    int64_t last_end = -1;  // termination of last_job, -1 while it runs
  };
  // (dense user, criterion, P, E, X) → the newest session's median structure.
  struct IndexKey {
    int32_t user;
    int32_t criterion;
    Key key;
    friend bool operator==(const IndexKey&, const IndexKey&) = default;
  };
  struct IndexHash {
    size_t operator()(const IndexKey& k) const {
      uint64_t h = (static_cast<uint64_t>(static_cast<uint32_t>(k.user)) << 8) ^ static_cast<uint64_t>(k.criterion);
      for (int64_t v : k.key) h = (h ^ static_cast<uint64_t>(v)) * 0x9E3779B97F4A7C15ull;
      return static_cast<size_t>(h ^ (h >> 29));
    }
  };
  Key key(size_t criterion, const SeenJob& job) const;
  void arrived(int64_t now, Entry& entry) override;
  int64_t predict(const Entry& entry) const override;
  void record(int64_t now, const Entry& entry, int64_t runtime) override;
  int64_t missed(int64_t now, const Entry& entry, int64_t prediction) override;

  SbhOptions options_;
  std::vector<uint8_t> mask_;  // per criterion: bit 0 = P, 1 = E, 2 = X
  std::vector<User> users_;
  std::unordered_map<IndexKey, Newest, IndexHash> index_;
  std::vector<int32_t> session_;  // per JobId
};

std::unique_ptr<Predictor> make_sbh(const PredictorConfig& config, const base::Params& params);
const std::vector<base::ParamDecl>& sbh_params();

}  // namespace schedlab::predict
