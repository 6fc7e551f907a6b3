// Talby's user/session workload model (thesis §§10–13, Listing 5; ../shared/spec/talby-thesis.md "User /
// session model"; docs/generate.md): users, their weekly sessions and the sessions' jobs.
//
// Meta-model (resolve_talby_parameters): the inputs are the machine size MS and/or the median CPU work Cm with
// the jobs per day JD or the CPU load CL. A value not given comes from the others: CL from JD (Table 24,
// CL = 2.2024 JD^-0.2534) or JD from CL (Table 26, JD = 39.309 CL^-2.9549); otherwise from MS (Table 28:
// Cm = 361860 MS^-1.3417, JD = 0.3694 MS - 1.3102, CL = -0.09 ln MS + 1.1356); MS, when not given, from JD by
// Table 28 inverted (Decision). JD and CL together are an error (one value per axis of the workload space).
//
// User layer (§11): active users at startup AUS = round(-543.37 CL + 481.77 + U(-85, 85)), at least 1; new users
// per week round(X), ln X ~ Logistic(1.25, 0.2214); user class: with probability 0.1 the previous user's class,
// else Table 30's shares for (Cm, CL) (clipped to [0, 1], renormalised); users never leave. A user active at
// startup gets a week of activity w in 1..52 with P(w) ∝ 1 - prod_{x=w}^{w+11} P(S_x = 0 | x, class)
// (Equations 46 and 57); a new user's first week is 1.
// Session layer (§12): P(no session | WoA, class) by Equation 24 (Table 32), 0 in the first week; sessions in
// an active week: generalized Pareto with mu = 0.6 and (k, sigma) from Table 34 (first week) or Table 33
// (sigma at least 0.1), rounded, at least 1 (Decision: at most kMaxSessionsPerWeek); session classes by
// Equation 18: P(SC | WoA) (Table 36) + P(SC | UC, PSC) (Tables 35b–e, rows renormalised) - P(SC) (0.43, 0.29,
// 0.21, 0.04, 0.03), negatives clipped, renormalised; a user's first session uses P(SC | UC), the tables' rows
// weighted by their session counts (Decision). The chain runs in drawing order; the next week continues from
// the class of the week's latest-starting session. Placement (Listing 5): the week's sessions are drawn
// (model/talby_job_layer.h draw_session) until none collides (s1.start <= s2.start and s1.end > s2.start -
// 20 min, including the user's sessions of earlier weeks), 100 attempts per draw of the classes; after 20
// draws of the classes (Decision, for weeks that cannot hold their sessions) one session is dropped (counted).
// Job layer (§13): model/talby_job_layer.h; estimates: the Tsafrir model of the job model's fit.
//
// Output: jobs submitted before the end of the last week (later ones are dropped, counted), sorted by submit
// time (ties: generation order), numbered from 1; fields 1 job number, 2 submit, 3 wait -1, 4 runtime, 5 and 8
// size, 9 estimate, 11 status 1, 12 user (1-based), 14 the sequence (1-based over the log), others -1. Time 0
// is Monday 00:00 (UnixStartTime 1136160000, Monday 2 January 2006, UTC).
// Randomness: base::Rng::stream(seed, 0) for the user layer (all weeks' users first), stream(seed, 1 + user) for
// each user's sessions and jobs (users run on `threads` threads), the estimate model with the seed:
// byte-identical output for a seed whatever the threads. Submit-time ties: by user, then the user's order.
// Cost: linear in the jobs.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/analysis/session_classes.h"
#include "schedlab/model/talby_job_layer.h"
#include "schedlab/swf/header.h"
#include "schedlab/swf/record.h"

namespace schedlab::model {

inline constexpr int64_t kTalbyMaxWeeks = 1040;          // 20 years (the guideline is at most 104)
inline constexpr int64_t kMaxSessionsPerWeek = 100;
inline constexpr int64_t kTalbyUnixStart = 1136160000;   // Monday 2 January 2006 00:00 UTC

struct TalbyOptions {
  std::optional<int64_t> procs;         // MS
  std::optional<double> cpu_work;       // Cm, seconds
  std::optional<double> jobs_per_day;   // JD
  std::optional<double> load;           // CL, a fraction
  int64_t weeks = 104;
  uint64_t seed = 1;
  int threads = 0;  // users' sessions in parallel; 0 = all cores (the output does not depend on it)
};

struct TalbyParameters {
  int64_t procs = 0;
  double cpu_work = 0, jobs_per_day = 0, load = 0;
  std::string procs_from, cpu_work_from, jobs_per_day_from, load_from;  // "given", "Table 28", ...
};

// Throws std::invalid_argument naming the option (--procs, --cpu-work, --jobs-per-day, --load, --weeks) for a
// value out of range or a combination the meta-model cannot resolve.
TalbyParameters resolve_talby_parameters(const TalbyOptions& options);
// The usage guideline (§14.1): 100–2,048 processors, 40–80% load, 80–300 jobs per day, at most 2 years. One
// message per value outside it, naming the option.
std::vector<std::string> talby_guideline_warnings(const TalbyOptions& options, const TalbyParameters& p);

// The model's distributions, exposed for tests and docs.
std::array<double, analysis::kUserClasses> talby_user_class_shares(double cpu_work, double load);   // Table 30
double talby_inactivity(int64_t woa, analysis::UserClass uc);                                       // Eq. 24
struct GeneralizedPareto {
  double k = 0, sigma = 1, mu = 0.6;
};
GeneralizedPareto talby_sessions_per_week(int64_t woa, analysis::UserClass uc);                     // Tables 33/34
// Eq. 18; `previous` < 0: the user's first session.
std::array<double, analysis::kSessionClasses> talby_session_class_distribution(int64_t woa, analysis::UserClass uc,
                                                                                int previous);
std::array<double, 52> talby_startup_week_distribution(analysis::UserClass uc);                     // Eq. 46/57

struct TalbyStats {
  int64_t users_at_start = 0, new_users = 0;
  std::array<int64_t, analysis::kUserClasses> users_by_class{};
  std::array<double, analysis::kUserClasses> user_class_shares{};  // Table 30's (the 90% draw)
  std::array<int64_t, analysis::kSessionClasses> sessions_by_class{};
  int64_t active_user_weeks = 0, sessions = 0, sessions_dropped = 0, sessions_capped = 0, class_redraws = 0;
  int64_t jobs = 0, jobs_after_end = 0, sequences = 0;
  // Jobs submitted their think time after the end of the session's previous job (written as SWF fields 17-18, which
  // `simulate --feedback` follows); the others start a session or were submitted while the previous job ran.
  int64_t following = 0;
  double jobs_per_day = 0, offered_load = 0, runtime_median = 0, size_median = 0;
  int64_t truncated_runtimes = 0;  // runtimes above the estimate model's T_max (their estimate is T_max)
  double tmax_share_fitted = 0, tmax_share_used = 0;  // percent of jobs estimated at T_max (see generate_talby)
  int64_t raised_to_tmax = 0;  // estimates raised to T_max so that every generated runtime is covered
  int64_t placement_attempts = 0, blocked_weeks = 0;  // session placements drawn; user weeks covered by a session
};

// What the generated log missed by more than a factor of two: its jobs per day or its offered load against the
// meta-model's (the model's users follow the load, through AUS, and their sessions not the machine, so the jobs
// per day do not follow JD; a short log is also still in its users' first weeks). One message each.
std::vector<std::string> talby_outcome_warnings(const TalbyParameters& p, const TalbyStats& stats);

// Generates the workload. Throws std::invalid_argument as resolve_talby_parameters.
std::vector<swf::Record> generate_talby(const TalbyOptions& options, const TalbyJobModel& jobs,
                                        TalbyStats* stats = nullptr);
swf::Header talby_header(const TalbyOptions& options, const TalbyParameters& p, const TalbyJobModel& jobs,
                         const TalbyStats& stats);
// The generator's report (`generate talby --json`, Python's report): weeks, seed, the job layer's source and
// size, the parameters and where each came from, the counts, and the warnings (the usage guideline's, then the
// outcome's).
nlohmann::ordered_json to_json(const TalbyOptions& options, const TalbyParameters& p, const TalbyJobModel& jobs,
                               const TalbyStats& stats);

}  // namespace schedlab::model
