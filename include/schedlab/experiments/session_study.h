// The sessions study of `schedlab sessions` (Talby's thesis §8-9, docs/analysis.md): user sessions of one
// or more logs (trace/sessions.h), the 16 per-session variables pooled over the logs
// (analysis/session_vars.h), and optionally k-means session and user classes, the online heuristic
// classifier and a PCA (analysis/session_classes.h, analysis/kmeans.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/analysis/distribution.h"
#include "schedlab/analysis/kmeans.h"
#include "schedlab/analysis/session_classes.h"
#include "schedlab/analysis/session_vars.h"
#include "schedlab/swf/reader.h"
#include "schedlab/trace/sessions.h"

namespace schedlab::experiments {

struct SessionStudyOptions {
  int64_t think_time = 1200;  // seconds; a pause this long or longer starts a new session
  bool classify = false;      // k-means session classes (k = 5) and user classes (k = 4)
  bool online = false;        // the online heuristic class of each session (needs UnixStartTime)
  bool pca = false;           // principal components of the 16 variables
  analysis::ClassifyOptions classify_options;
};

struct SessionStudyLog {
  std::string name;   // as given (a path), used in messages and the JSON
  std::string label;  // its base name: the CSV's "log" column and the text tables
  swf::Log log;
  trace::Sessions sessions;
  std::vector<analysis::SessionRow> rows;  // per session
  int64_t procs = 0;                        // machine size
  int64_t max_runtime = 0;                  // header MaxRuntime, else the largest estimate; >= 1
  // With options.classify: the log's users (ascending) and their clustering variables (user_variables).
  std::vector<int32_t> users;
  std::vector<analysis::UserRow> user_rows;
};

struct SessionStudy {
  SessionStudyOptions options;
  std::vector<SessionStudyLog> logs;
  int64_t sessions = 0;  // pooled
  std::array<analysis::Distribution, analysis::kSessionVars> variables;  // per variable, pooled
  // With options.classify: labels per pooled session / per user, counts, class means.
  analysis::Classification session_classes, user_classes;
  int64_t users = 0;
  // With options.online: the heuristic class per pooled session, counts per class, and (with classify too)
  // the share of sessions where it equals the k-means class.
  std::vector<int> online;
  std::array<int64_t, analysis::kSessionClasses> online_counts{};
  std::optional<double> online_agreement;
  analysis::PcaResult pca;  // with options.pca
};

// `logs`: (name, log) pairs, pooled in this order. Throws std::invalid_argument naming the log when one has
// no session, no machine size, or (with online) no UnixStartTime.
SessionStudy run_session_study(std::vector<std::pair<std::string, swf::Log>> logs, const SessionStudyOptions& options);

// The mean of clustering variable `variable` (e.g. "D", "%W") in class `cls` of a classification; throws
// std::out_of_range for a variable the classification did not use.
double class_mean(const analysis::Classification& c, int cls, std::string_view variable);

// One CSV row per session: log,user,start,<the 16 variables>[,class][,online_class], with a header line.
std::string session_study_csv(const SessionStudy& study);

// With options.classify: one CSV row per user: log,user,<the 8 user variables>,class, with a header line.
std::string user_study_csv(const SessionStudy& study);

// The study as `schedlab sessions --json` prints it (an ordered document).
nlohmann::ordered_json to_json(const SessionStudy& study);

// Published shares (thesis §9.3, §9.5, Fig. PCA), for printing beside the measured ones: comparison only.
inline constexpr std::array<double, analysis::kSessionClasses> kThesisSessionShare = {0.43, 0.29, 0.21, 0.04, 0.03};
inline constexpr std::array<double, analysis::kUserClasses> kThesisUserShare = {0.55, 0.20, 0.10, 0.15};
inline constexpr std::array<double, 9> kThesisPcaCumulative = {0.19, 0.31, 0.43, 0.54, 0.62, 0.69, 0.75, 0.81, 0.85};

}  // namespace schedlab::experiments
