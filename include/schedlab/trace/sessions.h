// User sessions (Talby thesis §8-9; docs/analysis.md): reusable by the analyses and by the
// session-based runtime predictor.
//
// Contract:
// - Jobs with an unknown submit time (< 0) or user (< 0) belong to no session (counted by build_sessions).
// - Each user's jobs are taken in submit order (stable for ties). A job starts a new session of its user
//   when it is the user's first job or when its think time - its submit time minus the termination of the
//   user's previous job - is >= the threshold (default 20 minutes). Termination = submit + wait + runtime
//   as recorded in the log, an unknown (< 0) wait or runtime counting as 0. Think times may be negative
//   (the previous job had not ended yet): such a job continues the session.
// - Sessions are returned ordered by (start, user).
#pragma once

#include <cstdint>
#include <vector>

#include "schedlab/swf/record.h"

namespace schedlab::trace {

inline constexpr int64_t kDefaultThinkThreshold = 20 * 60;

// Termination time of a job as recorded (submit + wait + runtime, unknown parts as 0).
int64_t recorded_end(const swf::Record& r);

// True when a job submitted at `submit` after a previous job of the same user that ended at
// `previous_end` starts a new session.
inline bool starts_new_session(int64_t previous_end, int64_t submit, int64_t threshold = kDefaultThinkThreshold) {
  return submit - previous_end >= threshold;
}

struct Session {
  int32_t user = -1;
  int64_t start = 0;            // first submit
  int64_t end = 0;              // latest recorded end of its jobs
  std::vector<size_t> jobs;     // indices into the records, in submit order
};

struct Sessions {
  std::vector<Session> sessions;
  int64_t unattributed = 0;  // jobs with unknown submit time or user
};

// Throws std::invalid_argument when threshold <= 0.
Sessions build_sessions(const std::vector<swf::Record>& records, int64_t threshold = kDefaultThinkThreshold);

}  // namespace schedlab::trace
