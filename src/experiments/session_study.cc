#include "schedlab/experiments/session_study.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/base/csv_number.h"
#include "schedlab/base/file_name.h"
#include "schedlab/trace/conventions.h"

namespace schedlab::experiments {
namespace {

std::string_view session_class(int c) { return analysis::session_class_name(static_cast<analysis::SessionClass>(c)); }
std::string_view user_class(int c) { return analysis::user_class_name(static_cast<analysis::UserClass>(c)); }

SessionStudyLog study_log(std::string name, swf::Log log, int64_t think_time) {
  SessionStudyLog l;
  l.name = std::move(name);
  l.label = base::file_name(l.name);
  l.log = std::move(log);
  l.sessions = trace::build_sessions(l.log.records, think_time);
  if (l.sessions.sessions.empty())
    throw std::invalid_argument(fmt::format("{}: no job with a known user and submit time", l.name));
  l.procs = trace::machine_size(l.log.header, l.log.records).procs;
  if (l.procs <= 0) throw std::invalid_argument(fmt::format("{}: the machine size is unknown", l.name));
  try {
    l.rows = analysis::session_variables(l.log.records, l.log.header, l.sessions.sessions, l.procs);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("{}: {}", l.name, e.what()));
  }
  l.max_runtime = l.log.header.max_runtime.value_or(0);
  if (l.max_runtime <= 0)
    for (const auto& r : l.log.records) l.max_runtime = std::max<int64_t>(l.max_runtime, trace::job_estimate(r));
  l.max_runtime = std::max<int64_t>(l.max_runtime, 1);
  return l;
}

// The online heuristic class of each of the log's sessions, from its first job.
void add_online_classes(const SessionStudyLog& l, std::vector<int>& out) {
  std::vector<int64_t> starts;
  for (const auto& s : l.sessions.sessions) starts.push_back(s.start);
  std::vector<int64_t> offsets;
  try {
    offsets = analysis::utc_offsets(l.log.header, starts);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("{}: {}", l.name, e.what()));
  }
  for (size_t s = 0; s < l.sessions.sessions.size(); ++s) {
    const auto& sess = l.sessions.sessions[s];
    const int64_t local = *l.log.header.unix_start_time + sess.start + offsets[s];
    out.push_back(static_cast<int>(
        analysis::online_session_class(l.log.records[sess.jobs.front()], local, l.procs, l.max_runtime)));
  }
}

}  // namespace

SessionStudy run_session_study(std::vector<std::pair<std::string, swf::Log>> logs, const SessionStudyOptions& options) {
  if (logs.empty()) throw std::invalid_argument("sessions: no log given");
  if (options.classify && options.classify_options.restarts < 1)
    throw std::invalid_argument(
        fmt::format("k-means restarts must be at least 1 (got {})", options.classify_options.restarts));
  SessionStudy st;
  st.options = options;
  st.options.classify_options.after_restart = nullptr;  // the caller's progress display, not part of the result
  for (auto& [name, log] : logs) st.logs.push_back(study_log(std::move(name), std::move(log), options.think_time));
  std::vector<analysis::SessionRow> pooled;
  for (const auto& l : st.logs) pooled.insert(pooled.end(), l.rows.begin(), l.rows.end());
  st.sessions = static_cast<int64_t>(pooled.size());

  // The classes are fitted over the logs' sessions (users) pooled: a shortfall names the logs.
  const auto named = [&](const std::invalid_argument& e) {
    std::string names;
    for (const auto& l : st.logs) names += (names.empty() ? "" : ", ") + l.name;
    return std::invalid_argument(fmt::format("{}: {}", names, e.what()));
  };
  if (options.classify) {
    try {
      st.session_classes = analysis::classify_sessions(pooled, options.classify_options);
    } catch (const std::invalid_argument& e) {
      throw named(e);
    }
    std::vector<analysis::UserRow> user_rows;
    size_t offset = 0;
    for (auto& l : st.logs) {
      const auto first = st.session_classes.labels.begin() + static_cast<std::ptrdiff_t>(offset);
      const std::vector<int> labels(first, first + static_cast<std::ptrdiff_t>(l.rows.size()));
      offset += l.rows.size();
      l.user_rows =
          analysis::user_variables(l.log.records, l.log.header, l.sessions.sessions, labels, l.procs, l.users);
      user_rows.insert(user_rows.end(), l.user_rows.begin(), l.user_rows.end());
    }
    st.users = static_cast<int64_t>(user_rows.size());
    try {
      st.user_classes = analysis::classify_users(user_rows, options.classify_options);
    } catch (const std::invalid_argument& e) {
      throw named(e);
    }
  }
  if (options.online) {
    for (const auto& l : st.logs) add_online_classes(l, st.online);
    int64_t agree = 0;
    for (size_t i = 0; i < st.online.size(); ++i) {
      ++st.online_counts[static_cast<size_t>(st.online[i])];
      if (options.classify && st.online[i] == st.session_classes.labels[i]) ++agree;
    }
    if (options.classify) st.online_agreement = static_cast<double>(agree) / static_cast<double>(st.sessions);
  }
  if (options.pca) {
    analysis::Matrix m;
    for (const auto& r : pooled) m.emplace_back(r.begin(), r.end());
    st.pca = analysis::pca(m);
  }
  for (size_t v = 0; v < analysis::kSessionVars; ++v) {
    std::vector<double> col;
    col.reserve(pooled.size());
    for (const auto& r : pooled) col.push_back(r[v]);
    st.variables[v] = analysis::describe(std::move(col));
  }
  return st;
}

double class_mean(const analysis::Classification& c, int cls, std::string_view variable) {
  for (size_t v = 0; v < c.variables.size(); ++v)
    if (c.variables[v] == variable) return c.class_means.at(static_cast<size_t>(cls)).at(v);
  throw std::out_of_range(fmt::format("the classification has no variable '{}'", variable));
}

std::string session_study_csv(const SessionStudy& st) {
  std::string out = "log,user,start";
  for (const auto n : analysis::kSessionVarNames) out += fmt::format(",{}", n);
  if (st.options.classify) out += ",class";
  if (st.options.online) out += ",online_class";
  out += '\n';
  size_t k = 0;
  for (const auto& l : st.logs) {
    for (size_t s = 0; s < l.rows.size(); ++s, ++k) {
      out += fmt::format("{},{},{}", l.label, l.sessions.sessions[s].user, l.sessions.sessions[s].start);
      for (const double v : l.rows[s]) {
        out += ',';
        out += base::csv_number(v);
      }
      if (st.options.classify) out += fmt::format(",{}", session_class(st.session_classes.labels[k]));
      if (st.options.online) out += fmt::format(",{}", session_class(st.online[k]));
      out += '\n';
    }
  }
  return out;
}

std::string user_study_csv(const SessionStudy& st) {
  if (!st.options.classify) throw std::invalid_argument("the users' rows need the classes (classify)");
  std::string out = "log,user";
  for (const auto n : analysis::kUserVarNames) out += fmt::format(",{}", n);
  out += ",class\n";
  size_t k = 0;
  for (const auto& l : st.logs) {
    for (size_t u = 0; u < l.user_rows.size(); ++u, ++k) {
      out += fmt::format("{},{}", l.label, l.users[u]);
      for (const double v : l.user_rows[u]) {
        out += ',';
        out += base::csv_number(v);
      }
      out += fmt::format(",{}\n", user_class(st.user_classes.labels[k]));
    }
  }
  return out;
}

nlohmann::ordered_json to_json(const SessionStudy& st) {
  const double n = static_cast<double>(st.sessions);
  nlohmann::ordered_json j;
  j["command"] = "sessions";
  j["think_time_seconds"] = st.options.think_time;
  j["logs"] = nlohmann::ordered_json::array();
  for (const auto& l : st.logs)
    j["logs"].push_back({{"path", l.name},
                         {"sessions", static_cast<int64_t>(l.rows.size())},
                         {"jobs_without_user_or_submit", l.sessions.unattributed},
                         {"machine_procs", l.procs}});
  j["sessions"] = st.sessions;
  for (size_t v = 0; v < analysis::kSessionVars; ++v) {
    const auto& d = st.variables[v];
    j["variables"][std::string(analysis::kSessionVarNames[v])] = {
        {"mean", d.mean}, {"median", d.median}, {"p10_p90_width", d.p90 - d.p10}};
  }
  if (st.options.classify) {
    const auto& co = st.options.classify_options;
    j["classify"] = {
        {"seed", co.seed}, {"restarts", co.restarts}, {"transform", analysis::transform_name(co.transform)}};
    const auto classes = [](const analysis::Classification& c, int k, auto name, const char* unit, double total) {
      nlohmann::ordered_json out;
      for (int cls = 0; cls < k; ++cls) {
        nlohmann::ordered_json means;
        for (size_t v = 0; v < c.variables.size(); ++v)
          means[std::string(c.variables[v])] = c.class_means[static_cast<size_t>(cls)][v];
        const int64_t count = c.counts[static_cast<size_t>(cls)];
        out[std::string(name(cls))] = {{unit, count}, {"share", static_cast<double>(count) / total}, {"means", means}};
      }
      return out;
    };
    j["session_classes"] = classes(st.session_classes, analysis::kSessionClasses, session_class, "sessions", n);
    j["users"] = st.users;
    j["user_classes"] =
        classes(st.user_classes, analysis::kUserClasses, user_class, "users", static_cast<double>(st.users));
  }
  if (st.options.online) {
    for (int c = 0; c < analysis::kSessionClasses; ++c)
      j["online_classes"][std::string(session_class(c))] =
          static_cast<double>(st.online_counts[static_cast<size_t>(c)]) / n;
    if (st.online_agreement) j["online_agreement_with_kmeans"] = *st.online_agreement;
  }
  if (st.options.pca) {
    j["pca"]["variables"] = analysis::kSessionVarNames;
    j["pca"]["explained"] = st.pca.explained;
    j["pca"]["components"] = st.pca.components;
  }
  return j;
}

}  // namespace schedlab::experiments
