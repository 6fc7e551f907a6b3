#include "schedlab/analysis/session_classes.h"

#include <array>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/base/choice.h"
#include "schedlab/analysis/distribution.h"
#include "schedlab/trace/conventions.h"

namespace schedlab::analysis {

std::string_view session_class_name(SessionClass c) {
  static constexpr std::string_view names[] = {"IWD", "IWN", "IW", "BHP", "BHD"};
  return names[static_cast<int>(c)];
}

std::string_view user_class_name(UserClass c) {
  static constexpr std::string_view names[] = {"LTLU", "LTHU", "STWE", "STWD"};
  return names[static_cast<int>(c)];
}

constexpr std::array<std::string_view, 2> kTransformNames = {"none", "log"};  // in Transform order

std::optional<Transform> parse_transform(std::string_view name) {
  return base::parse_choice<Transform>(kTransformNames, name);
}
std::string_view transform_name(Transform t) { return kTransformNames.at(static_cast<size_t>(t)); }
std::vector<std::string> transform_names() { return base::choice_names(kTransformNames); }

namespace {

double transform(double x, Transform t) {
  return t == Transform::kSignedLog ? std::copysign(std::log1p(std::abs(x)), x) : x;
}

// Clusters `raw` (untransformed) with k-means and returns per-cluster means of the raw values.
struct Clusters {
  KMeansResult km;
  Matrix means;
  std::vector<int64_t> sizes;
};

Clusters cluster(const Matrix& raw, int k, const ClassifyOptions& options) {
  Matrix t = raw;
  for (auto& r : t)
    for (double& x : r) x = transform(x, options.transform);
  Clusters c;
  c.km = kmeans(zscore(t), k, options.seed, options.restarts, kKMeansMaxIterations, options.after_restart);
  const size_t dims = raw.front().size();
  c.means.assign(static_cast<size_t>(k), std::vector<double>(dims, 0.0));
  c.sizes.assign(static_cast<size_t>(k), 0);
  for (size_t i = 0; i < raw.size(); ++i) {
    const auto l = static_cast<size_t>(c.km.labels[i]);
    ++c.sizes[l];
    for (size_t j = 0; j < dims; ++j) c.means[l][j] += raw[i][j];
  }
  for (size_t l = 0; l < c.means.size(); ++l)
    for (double& x : c.means[l]) x = c.sizes[l] > 0 ? x / static_cast<double>(c.sizes[l]) : 0.0;
  return c;
}

// The naming that maximises the total score: class_of[cluster] = class, over all permutations.
std::vector<int> best_naming(const Matrix& score) {  // score[cluster][class]
  const size_t k = score.size();
  std::vector<int> perm(k);
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<int> best = perm;
  double best_total = -std::numeric_limits<double>::infinity();
  do {
    double total = 0;
    for (size_t c = 0; c < k; ++c) total += score[c][static_cast<size_t>(perm[c])];
    if (total > best_total + 1e-12) {
      best_total = total;
      best = perm;
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

Classification finish(const Clusters& c, const std::vector<int>& class_of_cluster, int classes,
                      std::vector<std::string_view> variables) {
  Classification out;
  out.variables = std::move(variables);
  out.inertia = c.km.inertia;
  out.counts.assign(static_cast<size_t>(classes), 0);
  out.class_means.assign(static_cast<size_t>(classes), {});
  for (size_t cl = 0; cl < class_of_cluster.size(); ++cl) {
    out.class_means[static_cast<size_t>(class_of_cluster[cl])] = c.means[cl];
    out.counts[static_cast<size_t>(class_of_cluster[cl])] = c.sizes[cl];
  }
  out.labels.reserve(c.km.labels.size());
  for (const int l : c.km.labels) out.labels.push_back(class_of_cluster[static_cast<size_t>(l)]);
  return out;
}

}  // namespace

Classification classify_sessions(const std::vector<SessionRow>& rows, const ClassifyOptions& options) {
  if (rows.size() < static_cast<size_t>(kSessionClasses))
    throw std::invalid_argument(
        fmt::format("classifying sessions needs at least {} sessions (got {})", kSessionClasses, rows.size()));
  Matrix raw;
  raw.reserve(rows.size());
  for (const auto& r : rows) {
    std::vector<double> v;
    for (const SessionVar var : kSessionClusterVars) v.push_back(r[var]);
    raw.push_back(std::move(v));
  }
  const Clusters c = cluster(raw, kSessionClasses, options);
  // Columns: 0 D, 1 Ti, 2 PD, 3 PW, 4 UP, 5 Pm, 6 Rm; scores on the z-scored centroids.
  Matrix score;
  for (const auto& z : c.km.centroids) {
    std::vector<double> row(kSessionClasses);
    row[static_cast<size_t>(SessionClass::kBHP)] = z[5];
    row[static_cast<size_t>(SessionClass::kBHD)] = z[0];
    row[static_cast<size_t>(SessionClass::kIW)] = -z[3];
    row[static_cast<size_t>(SessionClass::kIWD)] = z[2] + z[3];
    row[static_cast<size_t>(SessionClass::kIWN)] = -z[2] + z[3];
    score.push_back(std::move(row));
  }
  const std::vector<int> class_of = best_naming(score);
  std::vector<std::string_view> names;
  for (const SessionVar var : kSessionClusterVars) names.push_back(kSessionVarNames[var]);
  return finish(c, class_of, kSessionClasses, names);
}

std::vector<UserRow> user_variables(const std::vector<swf::Record>& records, const swf::Header& header,
                                    const std::vector<trace::Session>& sessions,
                                    const std::vector<int>& session_class, int64_t machine_procs,
                                    std::vector<int32_t>& users) {
  if (session_class.size() != sessions.size()) throw std::invalid_argument("user_variables: one class per session");
  std::map<int32_t, std::vector<size_t>> by_user;  // user -> session indices
  for (size_t s = 0; s < sessions.size(); ++s) by_user[sessions[s].user].push_back(s);
  std::vector<int64_t> all_times;
  for (const auto& [user, ss] : by_user)
    for (const size_t s : ss)
      for (const size_t j : sessions[s].jobs) all_times.push_back(records[j].submit_time);
  const std::vector<int64_t> offsets = utc_offsets(header, all_times);
  const double scale = 128.0 / static_cast<double>(machine_procs);
  const auto median = [](std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return quantile_sorted(v, 0.5);
  };
  std::vector<UserRow> rows;
  users.clear();
  size_t pos = 0;
  for (const auto& [user, ss] : by_user) {
    std::vector<double> run, par, submits;
    double day = 0, work = 0;
    int64_t bhd = 0;
    for (const size_t s : ss) {
      if (session_class[s] == static_cast<int>(SessionClass::kBHD)) ++bhd;
      for (const size_t j : sessions[s].jobs) {
        const swf::Record& r = records[j];
        const int64_t local = *header.unix_start_time + r.submit_time + offsets[pos++];
        day += is_daytime(local) ? 1 : 0;
        work += is_workday(local) ? 1 : 0;
        run.push_back(std::max(r.run_time, 0));
        par.push_back(std::max(trace::job_size(r), 0) * scale);
        submits.push_back(r.submit_time);
      }
    }
    std::sort(submits.begin(), submits.end());
    std::vector<double> ia;
    for (size_t i = 1; i < submits.size(); ++i) ia.push_back(submits[i] - submits[i - 1]);
    const double jobs = static_cast<double>(submits.size());
    const double span_weeks = std::max(submits.back() - submits.front(), 86400.0) / (7 * 86400.0);
    rows.push_back({day / jobs, median(par), median(run), jobs, work / jobs, median(ia), jobs / span_weeks,
                    static_cast<double>(bhd) / static_cast<double>(ss.size())});
    users.push_back(user);
  }
  return rows;
}

Classification classify_users(const std::vector<UserRow>& rows, const ClassifyOptions& options) {
  if (rows.size() < static_cast<size_t>(kUserClasses))
    throw std::invalid_argument(fmt::format("classifying users needs at least {} users (got {})", kUserClasses, rows.size()));
  Matrix raw;
  for (const auto& r : rows) raw.emplace_back(r.begin(), r.end());
  const Clusters c = cluster(raw, kUserClasses, options);
  // Columns: 0 PD, 1 Pm, 2 Rm, 3 J, 4 PW, 5 Im, 6 JW, 7 pBHD; scores on the z-scored centroids.
  Matrix score;
  for (const auto& z : c.km.centroids) {
    std::vector<double> row(kUserClasses);
    row[static_cast<size_t>(UserClass::kSTWE)] = -z[4];
    row[static_cast<size_t>(UserClass::kSTWD)] = -z[0] + z[4];
    row[static_cast<size_t>(UserClass::kLTHU)] = z[7] + z[2];
    row[static_cast<size_t>(UserClass::kLTLU)] = z[0] + z[4];
    score.push_back(std::move(row));
  }
  const std::vector<int> class_of = best_naming(score);
  return finish(c, class_of, kUserClasses, {kUserVarNames.begin(), kUserVarNames.end()});
}

SessionClass online_session_class(const swf::Record& first_job, int64_t local_start, int64_t machine_procs,
                                  int64_t max_runtime) {
  if (2 * static_cast<int64_t>(trace::job_estimate(first_job)) > max_runtime) return SessionClass::kBHD;
  if (2 * static_cast<int64_t>(trace::job_size(first_job)) > machine_procs) return SessionClass::kBHP;
  if (!is_workday(local_start)) return SessionClass::kIW;
  return is_daytime(local_start) ? SessionClass::kIWD : SessionClass::kIWN;
}

}  // namespace schedlab::analysis
