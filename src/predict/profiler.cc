#include "schedlab/predict/profiler.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Dense>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <fmt/core.h>

#include "schedlab/trace/conventions.h"

namespace schedlab::predict::profiler {

std::string to_string(Uint128 v) {
  if (v == 0) return "0";
  std::string s;
  while (v > 0) {
    s.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  std::reverse(s.begin(), s.end());
  return s;
}

bool parse_uint128(std::string_view text, Uint128& out) {
  if (text.empty() || text.size() > 39) return false;
  Uint128 v = 0;
  const Uint128 max = ~Uint128{0};
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const auto d = static_cast<unsigned>(c - '0');
    if (v > (max - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

int proc_bucket(int64_t procs) {
  if (procs <= 1) return 0;
  return static_cast<int>(std::bit_width(static_cast<uint64_t>(procs - 1)));
}

int elapsed_bucket(int64_t seconds) {
  if (seconds <= 0) return 0;
  return static_cast<int>(std::bit_width(static_cast<uint64_t>(seconds)));
}

// ---- RunEntry ----

void RunEntry::add(int64_t runtime, int64_t procs) {
  ++n;
  sum_t += runtime;
  sum_t2 += static_cast<Uint128>(static_cast<uint64_t>(runtime)) * static_cast<uint64_t>(runtime);
  sum_p += procs;
}

void RunEntry::merge(const RunEntry& other) {
  n += other.n;
  sum_t += other.sum_t;
  sum_t2 += other.sum_t2;
  sum_p += other.sum_p;
}

double RunEntry::mean() const { return static_cast<double>(sum_t) / static_cast<double>(n); }
double RunEntry::mean_procs() const { return static_cast<double>(sum_p) / static_cast<double>(n); }

double RunEntry::variance() const {
  if (n < 2) return 0.0;
  // n·Σt² − (Σt)² exactly (both < 2^127 for any realistic n), so the variance has no cancellation error.
  const auto un = static_cast<Uint128>(static_cast<uint64_t>(n));
  const auto st = static_cast<Uint128>(static_cast<uint64_t>(sum_t));
  const Uint128 a = un * sum_t2, b = st * st;
  const Uint128 num = a > b ? a - b : 0;
  return static_cast<double>(num) / (static_cast<double>(n) * static_cast<double>(n - 1));
}

std::string_view level_name(Level level) {
  switch (level) {
    case Level::kExeUser: return "exe_user";
    case Level::kExe: return "exe";
    case Level::kSystem: return "system";
  }
  return "system";
}

std::string_view method_name(Method method) { return method == Method::kFit ? "fit" : "bucket_mean"; }

// ---- Student-t quantiles ----

namespace {

void check_confidence(double confidence) {
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw std::invalid_argument(fmt::format("confidence must be between 0 and 1 (exclusive), got {}", confidence));
  }
}

// Quantile q of Student-t with `dof` degrees of freedom; the normal quantile when dof is infinite (or so
// large that the two agree to double precision).
double t_quantile(double dof, double q) {
  if (!(dof > 0)) throw std::invalid_argument(fmt::format("Student-t needs positive degrees of freedom, got {}", dof));
  if (!std::isfinite(dof) || dof > 1e15) return boost::math::quantile(boost::math::normal_distribution<double>(), q);
  // Boost's quantile costs ~35 µs, and a growing category asks for a new ν = n after every job it learns. Above
  // 1024, ν is rounded down to a multiple of 1/16 of its power of two (2^k <= ν < 2^(k+1) → step 2^(k−4)): the
  // t quantile grows by less than 0.02% (δ <= 0.999; conservative: the interval only widens) and the cache
  // answers almost every query.
  if (dof > 1024) {
    const double step = std::exp2(std::floor(std::log2(dof)) - 4);
    dof = std::floor(dof / step) * step;
  }
  // A simulation asks for the same few (ν, q) pairs over and over; the inverse incomplete beta is the
  // expensive part of a query, so remember them (per thread: predictors may run side by side).
  struct Key {
    double dof, q;
    bool operator==(const Key&) const = default;
  };
  struct Hash {
    size_t operator()(const Key& k) const {
      return std::hash<double>()(k.dof) * 0x9E3779B97F4A7C15ull ^ std::hash<double>()(k.q);
    }
  };
  thread_local std::unordered_map<Key, double, Hash> cache;
  const Key key{dof, q};
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  if (cache.size() > 200000) cache.clear();
  const double v = boost::math::quantile(boost::math::students_t_distribution<double>(dof), q);
  cache.emplace(key, v);
  return v;
}

}  // namespace

double t_two_sided(double dof, double confidence) {
  check_confidence(confidence);
  return t_quantile(dof, (1.0 + confidence) / 2.0);
}

// ---- ExecutionTime ----

namespace {

// Householder QR of the whitened, column-equilibrated system [A | z] (z as a 4th column, so Q'z comes out of the
// same factorisation). `Aug` is a fixed-capacity matrix for the usual case (one point per processor bucket,
// at most 33) so a query allocates nothing, or a dynamic one for larger inputs.
template <typename Aug>
bool solve_fit(const std::vector<FitPoint>& points, Eigen::Vector3d& b, Eigen::Matrix3d& factor) {
  const auto m = static_cast<Eigen::Index>(points.size());
  Aug a(m, 4);
  for (Eigen::Index i = 0; i < m; ++i) {
    const auto& pt = points[static_cast<size_t>(i)];
    const double w = 1.0 / std::sqrt(pt.variance);
    a(i, 0) = w / pt.procs;
    a(i, 1) = w;
    a(i, 2) = w * pt.procs;
    a(i, 3) = w * pt.mean;
  }
  // Columns are equilibrated before the factorisation because 1/p and p differ by up to ~10^10 across buckets.
  Eigen::Vector3d scale;
  for (int j = 0; j < 3; ++j) {
    const double norm = a.col(j).norm();
    if (!(norm > 0) || !std::isfinite(norm)) return false;
    scale(j) = 1.0 / norm;
    a.col(j) *= scale(j);
  }
  Eigen::HouseholderQR<Eigen::Ref<Aug>> qr(a);
  const Eigen::Matrix3d r = qr.matrixQR().template topLeftCorner<3, 3>().template triangularView<Eigen::Upper>();
  // Rank check: equal processor counts (or numerically indistinguishable ones) make X rank-deficient.
  const double rmax = r.diagonal().cwiseAbs().maxCoeff();
  if (!(r.diagonal().cwiseAbs().minCoeff() > 1e-12 * rmax)) return false;
  const Eigen::Vector3d qtz = qr.matrixQR().template block<3, 1>(0, 3);
  const Eigen::Vector3d bs = r.triangularView<Eigen::Upper>().solve(qtz);
  const Eigen::Matrix3d rinv = r.triangularView<Eigen::Upper>().solve(Eigen::Matrix3d::Identity());
  b = scale.asDiagonal() * bs;
  factor = scale.asDiagonal() * rinv;  // (X'V⁻¹X)⁻¹ = factor · factor'
  return true;
}

}  // namespace

std::optional<ExecutionTime> ExecutionTime::fit(const std::vector<FitPoint>& points) {
  if (points.size() < 3) return std::nullopt;
  for (const auto& pt : points) {
    if (!(pt.procs > 0) || !(pt.variance > 0) || !std::isfinite(pt.mean) || !std::isfinite(pt.variance)) {
      return std::nullopt;
    }
  }
  // Whitened system A b = z with A = V^{-1/2} X, z = V^{-1/2} Y; then X'V⁻¹X = A'A = R'R.
  Eigen::Vector3d b;
  Eigen::Matrix3d factor;
  const bool ok = points.size() <= 64
                      ? solve_fit<Eigen::Matrix<double, Eigen::Dynamic, 4, 0, 64, 4>>(points, b, factor)
                      : solve_fit<Eigen::Matrix<double, Eigen::Dynamic, 4>>(points, b, factor);
  if (!ok || !b.allFinite()) return std::nullopt;
  const Eigen::Matrix3d cov = factor * factor.transpose();
  ExecutionTime et;
  for (int j = 0; j < 3; ++j) {
    et.b_[static_cast<size_t>(j)] = b(j);
    for (int k = 0; k < 3; ++k) {
      et.cov_[static_cast<size_t>(j)][static_cast<size_t>(k)] = cov(j, k);
      et.factor_[static_cast<size_t>(j)][static_cast<size_t>(k)] = factor(j, k);
    }
  }
  for (const auto& pt : points) et.n_ += pt.n;
  return et;
}

ExecutionTime::Result ExecutionTime::estimate_time(double procs, double confidence) const {
  check_confidence(confidence);
  if (!(procs > 0)) throw std::invalid_argument(fmt::format("processors must be positive, got {}", procs));
  const std::array<double, 3> x0 = {1.0 / procs, 1.0, procs};
  Result r;
  for (size_t j = 0; j < 3; ++j) r.estimate += b_[j] * x0[j];
  // X0'·cov·X0 = |factor'·X0|²: a sum of squares, never negative.
  double var = 0;
  for (size_t k = 0; k < 3; ++k) {
    double v = 0;
    for (size_t j = 0; j < 3; ++j) v += factor_[j][k] * x0[j];
    var += v * v;
  }
  r.std_error = std::sqrt(var);
  r.dof = static_cast<double>(n_);
  r.half_width = t_two_sided(r.dof, confidence) * r.std_error;
  return r;
}

// ---- Category ----

namespace {

// The fit points of a category (see the header for the variance rules); empty when no fit is possible.
std::vector<FitPoint> fit_points(const std::vector<std::pair<int, RunEntry>>& pts) {
  std::vector<FitPoint> out;
  if (pts.size() < 3) return out;
  double num = 0, den = 0;
  for (const auto& [pb, e] : pts) {
    if (e.n >= 2) {
      num += static_cast<double>(e.n - 1) * e.variance();
      den += static_cast<double>(e.n - 1);
    }
  }
  if (den <= 0) return out;  // every point is a single job: no variance information
  const double pooled = num / den;
  out.reserve(pts.size());
  for (const auto& [pb, e] : pts) {
    const double s2 = std::max(e.n >= 2 ? e.variance() : pooled, 1.0);
    out.push_back(FitPoint{e.mean_procs(), e.mean(), s2 / static_cast<double>(e.n), e.n});
  }
  return out;
}

}  // namespace


void Category::add(int pbucket, int ebucket, const RunEntry& entry) {
  auto row = std::lower_bound(rows_.begin(), rows_.end(), pbucket,
                              [](const Row& r, int pb) { return r.pbucket < pb; });
  if (row == rows_.end() || row->pbucket != pbucket) {
    row = rows_.insert(row, Row{});
    row->pbucket = pbucket;
  }
  row->total.merge(entry);
  auto& el = row->elapsed;
  auto cell = std::lower_bound(el.begin(), el.end(), ebucket,
                               [](const std::pair<int, RunEntry>& c, int eb) { return c.first < eb; });
  if (cell == el.end() || cell->first != ebucket) cell = el.insert(cell, {ebucket, RunEntry{}});
  cell->second.merge(entry);
  jobs_ += entry.n;
  ++version_;
}

RunEntry Category::bucket(int pbucket, int min_ebucket) const {
  const auto row = std::lower_bound(rows_.begin(), rows_.end(), pbucket,
                                    [](const Row& r, int pb) { return r.pbucket < pb; });
  RunEntry sum;
  if (row == rows_.end() || row->pbucket != pbucket) return sum;
  if (min_ebucket <= 0) return row->total;
  for (const auto& [eb, e] : row->elapsed) {
    if (eb >= min_ebucket) sum.merge(e);
  }
  return sum;
}

std::vector<std::pair<int, RunEntry>> Category::points(int min_ebucket) const {
  std::vector<std::pair<int, RunEntry>> out;
  out.reserve(rows_.size());
  for (const auto& row : rows_) {
    if (min_ebucket <= 0) {
      out.emplace_back(row.pbucket, row.total);
      continue;
    }
    RunEntry sum;
    for (const auto& [eb, e] : row.elapsed) {
      if (eb >= min_ebucket) sum.merge(e);
    }
    if (sum.n > 0) out.emplace_back(row.pbucket, sum);
  }
  return out;
}

const Category::Fitted& Category::fitted(int min_ebucket) const {
  min_ebucket = std::max(min_ebucket, 0);
  Memo& m = memo_[min_ebucket == 0 ? 0 : 1];
  if (m.version != version_ || m.min_ebucket != min_ebucket) {
    m.fitted.points = points(min_ebucket);
    m.fitted.fit = ExecutionTime::fit(fit_points(m.fitted.points));
    m.version = version_;
    m.min_ebucket = min_ebucket;
  }
  return m.fitted;
}

void Category::for_each(const std::function<void(int, int, const RunEntry&)>& f) const {
  for (const auto& row : rows_) {
    for (const auto& [eb, e] : row.elapsed) f(row.pbucket, eb, e);
  }
}

// ---- Repository ----

void Repository::add(int32_t executable, int32_t user, int64_t procs, int64_t runtime) {
  if (runtime < 0 || runtime > kMaxRuntime) {
    throw std::invalid_argument(fmt::format("profiler: runtime {} outside [0, {}]", runtime, kMaxRuntime));
  }
  if (procs < 1 || procs > kMaxProcs) {
    throw std::invalid_argument(fmt::format("profiler: processors {} outside [1, {}]", procs, kMaxProcs));
  }
  RunEntry e;
  e.add(runtime, procs);
  merge(executable, user, proc_bucket(procs), elapsed_bucket(runtime), e);
}

void Repository::merge(int32_t executable, int32_t user, int pbucket, int ebucket, const RunEntry& entry) {
  if (pbucket < 0 || pbucket >= kProcBuckets || ebucket < 0 || ebucket >= kElapsedBuckets || entry.n <= 0) {
    throw std::invalid_argument(fmt::format("profiler: bad entry (processor bucket {}, elapsed bucket {}, n {})",
                                            pbucket, ebucket, entry.n));
  }
  const int32_t exe = executable < 0 ? -1 : executable;
  leaves_[{exe, user}].add(pbucket, ebucket, entry);
  if (exe >= 0) exes_[exe].add(pbucket, ebucket, entry);
  system_.add(pbucket, ebucket, entry);
}

const Category* Repository::category(Level level, int32_t executable, int32_t user) const {
  switch (level) {
    case Level::kExeUser: {
      if (executable < 0) return nullptr;
      const auto it = leaves_.find({executable, user});
      return it == leaves_.end() ? nullptr : &it->second;
    }
    case Level::kExe: {
      if (executable < 0) return nullptr;
      const auto it = exes_.find(executable);
      return it == exes_.end() ? nullptr : &it->second;
    }
    case Level::kSystem: return system_.jobs() > 0 ? &system_ : nullptr;
  }
  return nullptr;
}


std::optional<ExecutionTime> Repository::exec_time_function(Level level, int32_t executable, int32_t user,
                                                            int64_t attained) const {
  const Category* cat = category(level, executable, user);
  if (!cat) return std::nullopt;
  return cat->fitted(attained > 0 ? elapsed_bucket(attained) : 0).fit;
}

Estimate Repository::estimate_at(Level level, const JobQuery& job, double confidence) const {
  check_confidence(confidence);
  // An SWF job's size and elapsed time (a negative elapsed time read as 0, a size beyond any log extrapolated).
  if (job.procs < 1 || job.procs > std::numeric_limits<int32_t>::max())
    throw std::invalid_argument(fmt::format("processors must be 1 to 2^31 - 1, got {}", job.procs));
  if (job.attained < 0)
    throw std::invalid_argument(fmt::format("elapsed time must be >= 0 seconds, got {}", job.attained));
  Estimate out;
  out.level = level;
  const Category* cat = category(level, job.executable, job.user);
  if (!cat) return out;
  const int min_eb = job.attained > 0 ? elapsed_bucket(job.attained) : 0;
  const Category::Fitted& fitted = cat->fitted(min_eb);
  const auto& pts = fitted.points;
  for (const auto& pt : pts) out.held += pt.second.n;
  const double p = static_cast<double>(job.procs);
  if (const auto& f = fitted.fit) {
    const auto r = f->estimate_time(p, confidence);
    if (r.estimate > 0 && std::isfinite(r.half_width)) {
      out.ok = true;
      out.method = Method::kFit;
      out.estimate = r.estimate;
      out.half_width = r.half_width;
      out.std_error = r.std_error;
      out.dof = r.dof;
      out.samples = f->observations();
      out.buckets = static_cast<int>(pts.size());
      out.function = f;
      return out;
    }
  }
  const int pb = proc_bucket(job.procs);
  for (const auto& [b, e] : pts) {
    if (b != pb || e.n < 2) continue;
    out.ok = true;
    out.method = Method::kBucketMean;
    out.estimate = e.mean();
    out.sd = std::sqrt(e.variance());
    out.std_error = out.sd / std::sqrt(static_cast<double>(e.n));
    out.dof = static_cast<double>(e.n - 1);
    out.half_width = t_two_sided(out.dof, confidence) * out.std_error;
    out.samples = e.n;
    out.buckets = 1;
    return out;
  }
  return out;
}

Estimate Repository::get_estimate(const JobQuery& job, double confidence) const {
  Estimate last;
  for (const Level level : {Level::kExeUser, Level::kExe, Level::kSystem}) {
    if (level != Level::kSystem && job.executable < 0) continue;
    last = estimate_at(level, job, confidence);
    if (!last.ok) continue;
    if (job.attained > 0) {
      const double e = corrected_estimate(last.estimate, last.half_width, static_cast<double>(job.attained));
      if (e != last.estimate) {
        last.corrected = true;
        last.uncorrected = last.estimate;
        last.estimate = e;
      }
    }
    return last;
  }
  return last;
}

// ---- correction and Welch ----

double corrected_estimate(double estimate, double half_width, double attained) {
  if (!(estimate > 0)) return attained;
  if (!(estimate + 3.0 * half_width < attained)) return estimate;
  const double ratio = attained / estimate;
  const double thesis = std::ceil(ratio - 0.5) * estimate;
  return std::max(thesis, std::ceil(ratio) * estimate);
}

namespace {

WelchResult welch(double diff, double va, double dof_a, double vb, double dof_b, double confidence) {
  check_confidence(confidence);
  WelchResult r;
  const double v = va + vb;
  if (!(v > 0)) {
    // Both samples have no spread: the means are exact, so the hypothesis holds iff the difference does.
    r.t = diff > 0 ? std::numeric_limits<double>::infinity() : diff < 0 ? -std::numeric_limits<double>::infinity() : 0.0;
    r.dof = std::numeric_limits<double>::infinity();
  } else {
    r.t = diff / std::sqrt(v);
    const double den = (va > 0 ? va * va / dof_a : 0.0) + (vb > 0 ? vb * vb / dof_b : 0.0);
    r.dof = v * v / den;
  }
  r.critical = t_quantile(r.dof, confidence);
  r.accepted = r.t > r.critical;
  return r;
}

}  // namespace

WelchResult welch_test(double mean_a, double sd_a, int64_t n_a, double mean_b, double sd_b, int64_t n_b,
                       double difference, double confidence) {
  if (n_a < 2 || n_b < 2) {
    throw std::invalid_argument(fmt::format("Welch's test needs at least 2 observations per job, got {} and {}", n_a, n_b));
  }
  const double na = static_cast<double>(n_a), nb = static_cast<double>(n_b);
  return welch(mean_a - mean_b - difference, sd_a * sd_a / na, na - 1, sd_b * sd_b / nb, nb - 1, confidence);
}

WelchResult welch_test(const Estimate& a, const Estimate& b, double difference, double confidence) {
  if (!a.ok || !b.ok) throw std::invalid_argument("Welch's test needs two successful estimates");
  return welch(a.estimate - b.estimate - difference, a.std_error * a.std_error, a.dof, b.std_error * b.std_error,
               b.dof, confidence);
}

Comparison compare_job_estimates(const Repository& repo, double difference, double confidence, const JobQuery& a,
                                 const JobQuery& b) {
  if (!std::isfinite(difference))
    throw std::invalid_argument(fmt::format("difference must be a finite number of seconds, got {}", difference));
  Comparison c;
  c.a = repo.get_estimate(a, confidence);
  c.b = repo.get_estimate(b, confidence);
  if (!c.a.ok || !c.b.ok) return c;
  c.test = welch_test(c.a, c.b, difference, confidence);
  c.ok = true;
  return c;
}

// ---- records ----

std::string_view skip_name(Skip skip) {
  switch (skip) {
    case Skip::kNone: return "none";
    case Skip::kNegativeRuntime: return "negative_runtime";
    case Skip::kNoSize: return "no_size";
    case Skip::kPartialExecution: return "partial_execution";
  }
  return "none";
}

Skip skip_reason(const swf::Record& r) {
  if (r.status == 2 || r.status == 3 || r.status == 4) return Skip::kPartialExecution;
  if (r.run_time < 0) return Skip::kNegativeRuntime;
  if (trace::job_size(r) <= 0) return Skip::kNoSize;
  return Skip::kNone;
}

Skip add_record(Repository& repo, const swf::Record& r) {
  const Skip s = skip_reason(r);
  if (s == Skip::kNone) repo.add(r.executable, r.user_id, trace::job_size(r), r.run_time);
  return s;
}

}  // namespace schedlab::predict::profiler
