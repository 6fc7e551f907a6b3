// Session and user classes of the Talby thesis (§9.3, §9.5, §9.6; docs/analysis.md).
//
// Session classes by k-means (classify_sessions): k = 5 on D, Ti, PD (%D), PW (%W), UP, Pm, Rm,
// optionally transformed (Transform::kSignedLog: sign(x) log(1 + |x|), for heavy tails; the thesis says
// only "z-scored", which is Transform::kNone), z-scored, seeded k-means++ with restarts (kmeans.h).
// Naming the clusters (Decision: the thesis names them by inspecting Table 21): the one-to-one naming
// that maximises the sum of scores on the z-scored centroids z: BHP = z(Pm), BHD = z(D), IW = -z(PW),
// IWD = z(PD) + z(PW), IWN = -z(PD) + z(PW) (all 5! namings are tried; ties: the first found).
//
// User classes (classify_users): per user, over all the user's jobs / sessions: PD share of jobs
// submitted in daytime, Pm median size (128-normalised), Rm median runtime, J jobs, PW share of jobs on
// workdays, Im median inter-arrival between the user's jobs, JW jobs per week (J / max(span, 1 day) in
// weeks, span = last - first submit), %BHD share of the user's sessions in class BHD. k = 4, same method.
// Naming, as for sessions, with scores STWE = -z(PW), STWD = -z(PD) + z(PW), LTHU = z(%BHD) + z(Rm),
// LTLU = z(PD) + z(PW) (thesis Table 23: light users work by day on workdays, heavy ones run batch).
//
// Online heuristic (online_session_class, §9.6): from the session's first job: estimate (job_estimate) >
// half the machine's maximal runtime -> BHD; else size > half the machine -> BHP; else starting on a
// weekend -> IW; weekday 07:30-17:30 -> IWD; otherwise IWN.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/analysis/kmeans.h"
#include "schedlab/analysis/session_vars.h"

namespace schedlab::analysis {

enum class SessionClass { kIWD, kIWN, kIW, kBHP, kBHD };
inline constexpr int kSessionClasses = 5;
std::string_view session_class_name(SessionClass c);  // "IWD", ...

enum class UserClass { kLTLU, kLTHU, kSTWE, kSTWD };
inline constexpr int kUserClasses = 4;
std::string_view user_class_name(UserClass c);

enum class Transform { kNone, kSignedLog };
// "none" or "log"; std::nullopt for anything else. transform_name is its inverse.
std::optional<Transform> parse_transform(std::string_view name);
std::string_view transform_name(Transform t);
std::vector<std::string> transform_names();  // "none", "log"

struct ClassifyOptions {
  uint64_t seed = 1;
  int restarts = 10;
  Transform transform = Transform::kNone;
  std::function<void()> after_restart;  // called after each k-means start: a long classification's progress
};

struct Classification {
  std::vector<int> labels;                // class index per row (enum value)
  std::vector<int64_t> counts;            // per class
  Matrix class_means;                     // per class: means of the clustering variables (untransformed)
  std::vector<std::string_view> variables;
  double inertia = 0;
};

inline constexpr std::array<SessionVar, 7> kSessionClusterVars = {kD, kTi, kPD, kPW, kUP, kPm, kRm};
Classification classify_sessions(const std::vector<SessionRow>& rows, const ClassifyOptions& options);

inline constexpr int kUserVars = 8;
inline constexpr std::array<std::string_view, kUserVars> kUserVarNames = {"PD", "Pm", "Rm", "J",
                                                                          "PW", "Im", "JW", "pBHD"};
using UserRow = std::array<double, kUserVars>;

// One row per user present in `sessions` (users ascending, returned in `users`). `session_class` gives
// each session's class (as from classify_sessions). `local_offset` per session as from utc_offsets of
// the session starts.
std::vector<UserRow> user_variables(const std::vector<swf::Record>& records, const swf::Header& header,
                                    const std::vector<trace::Session>& sessions,
                                    const std::vector<int>& session_class, int64_t machine_procs,
                                    std::vector<int32_t>& users);
Classification classify_users(const std::vector<UserRow>& rows, const ClassifyOptions& options);

// `local_start`: local seconds since the epoch of the session's first submit. max_runtime > 0.
SessionClass online_session_class(const swf::Record& first_job, int64_t local_start, int64_t machine_procs,
                                  int64_t max_runtime);

}  // namespace schedlab::analysis
