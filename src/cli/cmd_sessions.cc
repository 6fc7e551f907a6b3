// schedlab sessions TRACE...: user sessions (trace/sessions.h) with the Talby thesis's per-session
// variables (analysis/session_vars.h); optionally session / user classes by k-means, the online heuristic
// classifier and a PCA (analysis/session_classes.h, analysis/kmeans.h). Several logs are pooled.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/analyze_util.h"
#include "cli/commands.h"
#include "cli/text_util.h"
#include "schedlab/analysis/distribution.h"
#include "schedlab/analysis/session_classes.h"
#include "schedlab/trace/conventions.h"

namespace schedlab::cli {
namespace {

using analysis::SessionRow;

struct SessionsCliOptions {
  std::vector<std::string> paths;
  std::string out, think = "20m", transform = "none";
  bool classify = false, online = false, pca = false, json = false, skip_invalid = false;
  uint64_t seed = 1;
  int restarts = 10;
};

// Published shares (thesis §9.3, §9.5), printed beside the measured ones for comparison only.
constexpr double kThesisSessionShare[] = {0.43, 0.29, 0.21, 0.04, 0.03};
constexpr double kThesisUserShare[] = {0.55, 0.20, 0.10, 0.15};
constexpr double kThesisPcaCumulative[] = {0.19, 0.31, 0.43, 0.54, 0.62, 0.69, 0.75, 0.81, 0.85};

struct LogSessions {
  std::string path;
  swf::Log log;
  trace::Sessions sessions;
  std::vector<SessionRow> rows;
  int64_t procs = 0, max_runtime = 0;
  std::vector<int64_t> offsets;
};

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void run_sessions(const SessionsCliOptions& opt) {
  check_one_stdout_document(opt.json, opt.out);
  const int64_t threshold = parse_duration("--think-time", opt.think);
  analysis::ClassifyOptions co;
  co.seed = opt.seed;
  co.restarts = opt.restarts;
  if (opt.transform == "log") co.transform = analysis::Transform::kSignedLog;
  else if (opt.transform != "none")
    throw std::invalid_argument(fmt::format("--transform: '{}' is not none or log", opt.transform));
  if (co.restarts < 1) throw std::invalid_argument("--restarts must be >= 1");

  std::vector<LogSessions> logs;
  for (const auto& path : opt.paths) {
    LogSessions l;
    l.path = path;
    l.log = read_log_for_analysis(path, opt.skip_invalid);
    l.sessions = trace::build_sessions(l.log.records, threshold);
    if (l.sessions.sessions.empty()) throw std::invalid_argument(fmt::format("{}: no job with a known user and submit time", path));
    l.procs = trace::machine_size(l.log.header, l.log.records).procs;
    if (l.procs <= 0) throw std::invalid_argument(fmt::format("{}: the machine size is unknown", path));
    try {
      l.rows = analysis::session_variables(l.log.records, l.log.header, l.sessions.sessions, l.procs);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("{}: {}", path, e.what()));
    }
    l.max_runtime = l.log.header.max_runtime.value_or(0);
    if (l.max_runtime <= 0)
      for (const auto& r : l.log.records) l.max_runtime = std::max<int64_t>(l.max_runtime, trace::job_estimate(r));
    l.max_runtime = std::max<int64_t>(l.max_runtime, 1);
    std::vector<int64_t> starts;
    for (const auto& s : l.sessions.sessions) starts.push_back(s.start);
    l.offsets = analysis::utc_offsets(l.log.header, starts);
    logs.push_back(std::move(l));
  }
  std::vector<SessionRow> pooled;
  for (const auto& l : logs) pooled.insert(pooled.end(), l.rows.begin(), l.rows.end());

  analysis::Classification sc, uc;
  std::vector<int> online;
  int64_t users_total = 0;
  if (opt.classify) {
    sc = analysis::classify_sessions(pooled, co);
    std::vector<analysis::UserRow> user_rows;
    size_t offset = 0;
    for (const auto& l : logs) {
      std::vector<int> labels(sc.labels.begin() + static_cast<std::ptrdiff_t>(offset),
                              sc.labels.begin() + static_cast<std::ptrdiff_t>(offset + l.rows.size()));
      offset += l.rows.size();
      std::vector<int32_t> users;
      auto rows = analysis::user_variables(l.log.records, l.log.header, l.sessions.sessions, labels, l.procs, users);
      user_rows.insert(user_rows.end(), rows.begin(), rows.end());
    }
    users_total = static_cast<int64_t>(user_rows.size());
    uc = analysis::classify_users(user_rows, co);
  }
  if (opt.online)
    for (const auto& l : logs)
      for (size_t s = 0; s < l.sessions.sessions.size(); ++s) {
        const auto& sess = l.sessions.sessions[s];
        const int64_t local = *l.log.header.unix_start_time + sess.start + l.offsets[s];
        online.push_back(static_cast<int>(
            analysis::online_session_class(l.log.records[sess.jobs.front()], local, l.procs, l.max_runtime)));
      }
  analysis::PcaResult pc;
  if (opt.pca) {
    analysis::Matrix m;
    for (const auto& r : pooled) m.emplace_back(r.begin(), r.end());
    pc = analysis::pca(m);
  }

  if (!opt.out.empty()) {
    std::string head = "log,user,start";
    for (const auto n : analysis::kSessionVarNames) head += fmt::format(",{}", n);
    if (opt.classify) head += ",class";
    if (opt.online) head += ",online_class";
    std::vector<std::string> lines{head};
    size_t k = 0;
    for (const auto& l : logs)
      for (size_t s = 0; s < l.rows.size(); ++s, ++k) {
        std::string line = fmt::format("{},{},{}", base_name(l.path), l.sessions.sessions[s].user,
                                       l.sessions.sessions[s].start);
        for (const double v : l.rows[s]) {
          line += ',';
          line += csv_number(v);
        }
        if (opt.classify) line += fmt::format(",{}", analysis::session_class_name(static_cast<analysis::SessionClass>(sc.labels[k])));
        if (opt.online) line += fmt::format(",{}", analysis::session_class_name(static_cast<analysis::SessionClass>(online[k])));
        lines.push_back(std::move(line));
      }
    write_csv_lines(opt.out, lines);
  }

  // Medians of the variables over the pooled sessions.
  std::array<analysis::Distribution, analysis::kSessionVars> dist;
  for (int v = 0; v < analysis::kSessionVars; ++v) {
    std::vector<double> col;
    col.reserve(pooled.size());
    for (const auto& r : pooled) col.push_back(r[static_cast<size_t>(v)]);
    dist[static_cast<size_t>(v)] = analysis::describe(std::move(col));
  }
  const double n_sessions = static_cast<double>(pooled.size());
  std::array<int64_t, analysis::kSessionClasses> online_counts{};
  int64_t agree = 0;
  for (size_t i = 0; i < online.size(); ++i) {
    ++online_counts[static_cast<size_t>(online[i])];
    if (opt.classify && online[i] == sc.labels[i]) ++agree;
  }

  if (opt.json) {
    nlohmann::ordered_json j;
    j["command"] = "sessions";
    j["think_time_seconds"] = threshold;
    j["logs"] = nlohmann::ordered_json::array();
    for (const auto& l : logs)
      j["logs"].push_back({{"path", l.path},
                           {"sessions", static_cast<int64_t>(l.rows.size())},
                           {"jobs_without_user_or_submit", l.sessions.unattributed},
                           {"machine_procs", l.procs}});
    j["sessions"] = static_cast<int64_t>(pooled.size());
    for (int v = 0; v < analysis::kSessionVars; ++v) {
      const auto& d = dist[static_cast<size_t>(v)];
      j["variables"][std::string(analysis::kSessionVarNames[static_cast<size_t>(v)])] = {
          {"mean", d.mean}, {"median", d.median}, {"p10_p90_width", d.p90 - d.p10}};
    }
    if (opt.classify) {
      j["classify"] = {{"seed", co.seed}, {"restarts", co.restarts}, {"transform", opt.transform}};
      for (int c = 0; c < analysis::kSessionClasses; ++c) {
        nlohmann::ordered_json means;
        for (size_t v = 0; v < sc.variables.size(); ++v)
          means[std::string(sc.variables[v])] = sc.class_means[static_cast<size_t>(c)][v];
        j["session_classes"][std::string(analysis::session_class_name(static_cast<analysis::SessionClass>(c)))] = {
            {"sessions", sc.counts[static_cast<size_t>(c)]},
            {"share", static_cast<double>(sc.counts[static_cast<size_t>(c)]) / n_sessions},
            {"means", means}};
      }
      j["users"] = users_total;
      for (int c = 0; c < analysis::kUserClasses; ++c) {
        nlohmann::ordered_json means;
        for (size_t v = 0; v < uc.variables.size(); ++v)
          means[std::string(uc.variables[v])] = uc.class_means[static_cast<size_t>(c)][v];
        j["user_classes"][std::string(analysis::user_class_name(static_cast<analysis::UserClass>(c)))] = {
            {"users", uc.counts[static_cast<size_t>(c)]},
            {"share", static_cast<double>(uc.counts[static_cast<size_t>(c)]) / static_cast<double>(users_total)},
            {"means", means}};
      }
    }
    if (opt.online) {
      for (int c = 0; c < analysis::kSessionClasses; ++c)
        j["online_classes"][std::string(analysis::session_class_name(static_cast<analysis::SessionClass>(c)))] =
            static_cast<double>(online_counts[static_cast<size_t>(c)]) / n_sessions;
      if (opt.classify) j["online_agreement_with_kmeans"] = static_cast<double>(agree) / n_sessions;
    }
    if (opt.pca) {
      j["pca"]["variables"] = analysis::kSessionVarNames;
      j["pca"]["explained"] = pc.explained;
      j["pca"]["components"] = pc.components;
    }
    fmt::print("{}\n", j.dump(2));
    return;
  }
  if (opt.out == "-") return;
  std::string out = fmt::format("sessions (think time >= {} s starts a new one)\n", threshold);
  for (const auto& l : logs)
    out += fmt::format("  {:<36} {:>9} sessions  ({} jobs without user or submit time; machine {} procs)\n",
                       base_name(l.path), group_thousands(static_cast<int64_t>(l.rows.size())),
                       l.sessions.unattributed, l.procs);
  out += fmt::format("\n{:<4} {:>14} {:>14} {:>14}\n", "var", "mean", "median", "p10-p90 width");
  for (int v = 0; v < analysis::kSessionVars; ++v) {
    const auto& d = dist[static_cast<size_t>(v)];
    out += fmt::format("{:<4} {:>14.2f} {:>14.2f} {:>14.2f}\n", analysis::kSessionVarNames[static_cast<size_t>(v)],
                       d.mean, d.median, d.p90 - d.p10);
  }
  if (opt.classify) {
    out += fmt::format("\nsession classes (k-means k=5 on D Ti %D %W UP Pm Rm, z-scored, transform {}, seed {}, "
                       "{} restarts)\n",
                       opt.transform, co.seed, co.restarts);
    out += fmt::format("{:<6} {:>9} {:>7} {:>7} {:>11} {:>9} {:>6} {:>6} {:>7} {:>8}\n", "class", "sessions", "share",
                       "thesis", "mean D", "mean Ti", "%D", "%W", "Pm", "Rm");
    for (int c = 0; c < analysis::kSessionClasses; ++c) {
      const auto& m = sc.class_means[static_cast<size_t>(c)];
      out += fmt::format("{:<6} {:>9} {:>6.1f}% {:>6.0f}% {:>11.0f} {:>9.0f} {:>6.2f} {:>6.2f} {:>7.1f} {:>8.0f}\n",
                         analysis::session_class_name(static_cast<analysis::SessionClass>(c)),
                         sc.counts[static_cast<size_t>(c)],
                         100.0 * static_cast<double>(sc.counts[static_cast<size_t>(c)]) / n_sessions,
                         100 * kThesisSessionShare[c], m[0], m[1], m[2], m[3], m[5], m[6]);
    }
    out += fmt::format("\nuser classes (k-means k=4 on %D Pm Rm J %W Im JW %BHD): {} users\n", users_total);
    out += fmt::format("{:<6} {:>7} {:>7} {:>7} {:>6} {:>6} {:>8} {:>8} {:>9}\n", "class", "users", "share", "thesis",
                       "%D", "%W", "J", "JW", "%BHD");
    for (int c = 0; c < analysis::kUserClasses; ++c) {
      const auto& m = uc.class_means[static_cast<size_t>(c)];
      out += fmt::format("{:<6} {:>7} {:>6.1f}% {:>6.0f}% {:>6.2f} {:>6.2f} {:>8.0f} {:>8.1f} {:>8.1f}%\n",
                         analysis::user_class_name(static_cast<analysis::UserClass>(c)),
                         uc.counts[static_cast<size_t>(c)],
                         100.0 * static_cast<double>(uc.counts[static_cast<size_t>(c)]) / static_cast<double>(users_total),
                         100 * kThesisUserShare[c], m[0], m[4], m[3], m[6], 100 * m[7]);
    }
  }
  if (opt.online) {
    out += "\nonline heuristic classes (first job of each session):";
    for (int c = 0; c < analysis::kSessionClasses; ++c)
      out += fmt::format(" {} {:.1f}%", analysis::session_class_name(static_cast<analysis::SessionClass>(c)),
                         100.0 * static_cast<double>(online_counts[static_cast<size_t>(c)]) / n_sessions);
    if (opt.classify) out += fmt::format("; agreement with k-means {:.1f}%", 100.0 * static_cast<double>(agree) / n_sessions);
    out += "\n";
  }
  if (opt.pca) {
    out += "\nPCA of the 16 session variables (z-scored), cumulative explained variance (thesis, 18 variables):\n";
    double cum = 0;
    for (size_t c = 0; c < pc.explained.size() && c < 9; ++c) {
      cum += pc.explained[c];
      out += fmt::format("  #{} {:>5.1f}% cumulative {:>5.1f}%  ({:.0f}%)\n", c + 1, 100 * pc.explained[c], 100 * cum,
                         100 * kThesisPcaCumulative[c]);
    }
  }
  fmt::print("{}", out);
}

}  // namespace

void add_sessions_command(CLI::App& app) {
  auto opt = std::make_shared<SessionsCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sessions", "User sessions (a new one when think time >= --think-time) with the Talby thesis's per-session "
                  "variables; --classify for the five session and four user classes (k-means), --online for "
                  "the online heuristic classifier, --pca for principal components. Several logs are pooled.");
  cmd->add_option("TRACE", opt->paths, "one or more SWF logs")->required();
  cmd->add_option("-o,--output", opt->out, "write one CSV row per session (- = standard output)");
  cmd->add_option("--think-time", opt->think, "session boundary (N[s|m|h|d])")->capture_default_str();
  cmd->add_flag("--classify", opt->classify, "k-means session classes (k=5) and user classes (k=4)");
  cmd->add_flag("--online", opt->online, "also the online heuristic session classifier");
  cmd->add_flag("--pca", opt->pca, "principal components of the session variables");
  cmd->add_option("--seed", opt->seed, "seed of k-means++")->capture_default_str();
  cmd->add_option("--restarts", opt->restarts, "k-means restarts")->capture_default_str();
  cmd->add_option("--transform", opt->transform, "none (thesis: z-scores of raw values) or log (signed log first)")
      ->capture_default_str();
  cmd->add_flag("--json", opt->json, "print one JSON document");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted) instead of failing");
  cmd->callback([opt] { run_sessions(*opt); });
}

}  // namespace schedlab::cli
