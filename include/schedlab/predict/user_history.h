// History-based predictors that learn from each user's terminated jobs, and their shared machinery.
//
// UserHistoryPredictor (base): keeps, per job the predictor has seen arrive, a small entry (user, session,
// start, current prediction, whether it missed a deadline) and per user the list of its active (waiting or
// running) jobs. With `propagate`, every termination of a user's job re-predicts that user's waiting jobs
// and its running jobs that have not missed a deadline (a running job only when the new prediction is above
// its elapsed runtime — otherwise the old prediction stands, so the deadline-miss machinery stays in
// charge). Propagation costs O(active jobs of the user × one prediction) per termination.
// Deadline misses are left to the correction decorator (predict/correction.h); history predictors do not
// change predictions on a miss unless stated.
// Users: SWF field 12; unknown users (-1) form one user. Memory: O(active jobs) entries plus 4 bytes per job seen.
//
// - `user-last2` (Tsafrir et al. 2007): the mean of the runtimes of the user's two most recent finished jobs
//   (finished before this job arrives, hence submitted before it); one → its runtime; none → the estimate;
//   never above the estimate. "Most recent" = by submission (order=submit, default: the two finished jobs
//   with the latest submit times, ties by job id) or by termination (order=end). order=submit reproduces
//   Table 3 of the 2007 paper (EASY++), order=end does not (docs/predictors.md). Mean rounded down to whole
//   seconds. Parameters: order=submit|end, propagate=0|1 (default 0), min_jobs=1|2 (the finished jobs needed
//   before the history replaces the estimate, default 1), running=0|1 (propagation re-predicts running jobs
//   too, default 1). `order=end;propagate=1;min_jobs=2;running=0` is the rule of pyss, the authors' public
//   simulator (bench/peer_pyss.sh compares the two job by job).
// - `ruh` (Talby's Recent User History): the median runtime of the user's last 3 terminated jobs (by
//   termination); fewer than 3 → the estimate; never above the estimate. Parameters: propagate=0|1
//   (default 0), jobs=N (history length, default 3; median of an even count = lower-rounded mean of the two
//   middle values).
// All: O(1) (ruh: O(jobs)) per arrival and termination, plus propagation.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "schedlab/base/params.h"
#include "schedlab/predict/predictor.h"

namespace schedlab::predict {

class UserHistoryPredictor : public Predictor {
 public:
  int64_t on_arrival(int64_t now, const Job& job, Updates& updates) override;
  void on_start(int64_t now, const Job& job, int64_t prediction, Updates& updates) override;
  void on_termination(int64_t now, const Job& job, int64_t start, Updates& updates) override;
  void on_deadline_miss(int64_t now, const Job& job, int64_t start, int64_t prediction, Updates& updates) override;

 protected:
  // The fields of a job history predictors use (kept small: one entry per job).
  struct SeenJob {
    JobId id = -1;
    int32_t procs = 0;
    int32_t executable = -1;
    int64_t submit = 0;
    int64_t estimate = 0;
  };
  struct Entry {
    SeenJob job;
    int32_t user = -1;     // dense user index
    int32_t session = -1;  // for session-based predictors
    int32_t pos = -1;      // index in the user's active list, -1 when not active
    int64_t start = -1;
    int64_t prediction = 0;
    bool missed = false;
  };
  explicit UserHistoryPredictor(bool propagate, bool propagate_running = true)
      : propagate_(propagate), propagate_running_(propagate_running) {}
  UserHistoryPredictor(const UserHistoryPredictor&) = default;

  // The number of users seen (dense indices 0..users()-1).
  size_t users() const { return active_.size(); }
  // Called at arrival before predict() (e.g. to assign the session); `now` = the submit time.
  virtual void arrived(int64_t now, Entry& entry) { (void)now, (void)entry; }
  // The prediction of a job from the history so far (>= 0).
  virtual int64_t predict(const Entry& entry) const = 0;
  // A job of the user terminated after running `runtime` seconds.
  virtual void record(int64_t now, const Entry& entry, int64_t runtime) = 0;
  // A deadline miss: the new prediction, or -1 to leave it to the correction policy.
  virtual int64_t missed(int64_t now, const Entry& entry, int64_t prediction) {
    (void)now, (void)entry, (void)prediction;
    return -1;
  }

 private:
  Entry* entry(JobId id);
  bool propagate_ = false;
  bool propagate_running_ = true;  // propagation re-predicts running jobs too
  std::unordered_map<int32_t, int32_t> user_index_;
  std::vector<std::vector<JobId>> active_;  // per dense user
  // Entries of the active (waiting or running) jobs only, in slots reused after a termination: a terminated job's
  // entry is never read again. slot_[id] = its slot, -1 when not active (4 bytes per job instead of an entry's 72,
  // doubled by the table's growth: EASY with user-last2 on CEA-Curie peaked at 124 MB, now 58 MB).
  std::vector<int32_t> slot_;
  std::vector<Entry> slots_;
  std::vector<int32_t> free_slots_;
};

class UserLast2Predictor final : public UserHistoryPredictor {
 public:
  UserLast2Predictor(bool by_submit, bool propagate, int min_jobs = 1, bool propagate_running = true)
      : UserHistoryPredictor(propagate, propagate_running), by_submit_(by_submit), min_jobs_(min_jobs) {}
  std::unique_ptr<Predictor> clone() const override { return std::make_unique<UserLast2Predictor>(*this); }
  std::string_view name() const override { return "user-last2"; }

 private:
  struct Finished {
    int64_t submit = 0;
    JobId id = -1;
    int64_t runtime = 0;
  };
  struct History {
    Finished last[2];  // last[0] = most recent
    int count = 0;
  };
  int64_t predict(const Entry& entry) const override;
  void record(int64_t now, const Entry& entry, int64_t runtime) override;
  bool by_submit_;
  int min_jobs_;  // 1 or 2
  std::vector<History> history_;
};

class RuhPredictor final : public UserHistoryPredictor {
 public:
  RuhPredictor(int jobs, bool propagate) : UserHistoryPredictor(propagate), jobs_(jobs) {}
  std::unique_ptr<Predictor> clone() const override { return std::make_unique<RuhPredictor>(*this); }
  std::string_view name() const override { return "ruh"; }

 private:
  struct History {
    std::vector<int64_t> ring;
    size_t next = 0;
  };
  int64_t predict(const Entry& entry) const override;
  void record(int64_t now, const Entry& entry, int64_t runtime) override;
  int jobs_;
  std::vector<History> history_;
};

std::unique_ptr<Predictor> make_user_last2(const PredictorConfig& config, const base::Params& params);
const std::vector<base::ParamDecl>& user_last2_params();
std::unique_ptr<Predictor> make_ruh(const PredictorConfig& config, const base::Params& params);
const std::vector<base::ParamDecl>& ruh_params();

}  // namespace schedlab::predict
