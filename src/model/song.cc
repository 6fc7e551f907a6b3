#include "schedlab/model/song.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/special_functions/trigamma.hpp>
#include <boost/random/beta_distribution.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <fmt/core.h>

#include "schedlab/model/estimate_bins.h"
#include "schedlab/model/tsafrir.h"  // ModelError
#include "schedlab/trace/conventions.h"

namespace schedlab::model {
namespace {

// base::Rng as a Boost.Random engine.
struct Engine {
  using result_type = uint64_t;
  base::Rng* rng;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<uint64_t>::max(); }
  result_type operator()() { return rng->next(); }
};

int group_of(int32_t rrt) { return rrt <= 1 ? 0 : static_cast<int>(std::floor(std::log(static_cast<double>(rrt)))); }
double log_rrt(int32_t rrt) { return std::log(static_cast<double>(std::max<int32_t>(rrt, 1))); }

// OLS of y on x; one point -> slope 0.
bool regress(const std::vector<double>& x, const std::vector<double>& y, double& a, double& b) {
  const size_t n = x.size();
  if (n == 0) return false;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) {
    mx += x[i];
    my += y[i];
  }
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  a = sxx > 0 ? sxy / sxx : 0.0;
  b = my - a * mx;
  return true;
}

double clamp_shape(double v) { return std::clamp(v, 1e-3, 1e4); }

}  // namespace

bool fit_beta_ml(const std::vector<double>& values, double& p, double& q) {
  const size_t n = values.size();
  if (n < 2) return false;
  constexpr double eps = 1e-9;
  double l1 = 0, l2 = 0, m = 0, v = 0;
  for (double x : values) {
    x = std::clamp(x, eps, 1 - eps);
    l1 += std::log(x);
    l2 += std::log1p(-x);
    m += x;
  }
  const double dn = static_cast<double>(n);
  l1 /= dn;
  l2 /= dn;
  m /= dn;
  for (double x : values) {
    x = std::clamp(x, eps, 1 - eps);
    v += (x - m) * (x - m);
  }
  v /= dn;
  // Method of moments start.
  p = 1;
  q = 1;
  if (v > 0 && v < m * (1 - m)) {
    const double c = m * (1 - m) / v - 1;
    p = std::max(m * c, 1e-2);
    q = std::max((1 - m) * c, 1e-2);
  }
  using boost::math::digamma;
  using boost::math::trigamma;
  const auto loglik = [&](double a, double b) {
    return (a - 1) * l1 + (b - 1) * l2 - (boost::math::lgamma(a) + boost::math::lgamma(b) - boost::math::lgamma(a + b));
  };
  double ll = loglik(p, q);
  for (int iter = 0; iter < 200; ++iter) {
    const double ps = digamma(p + q), ts = trigamma(p + q);
    const double g1 = l1 - digamma(p) + ps, g2 = l2 - digamma(q) + ps;
    const double h11 = -trigamma(p) + ts, h22 = -trigamma(q) + ts, h12 = ts;
    const double det = h11 * h22 - h12 * h12;
    if (!(det > 0)) break;  // Hessian of the Beta log-likelihood is negative definite; guard numerics
    double dp = -(h22 * g1 - h12 * g2) / det, dq = -(-h12 * g1 + h11 * g2) / det;
    double step = 1;
    bool improved = false;
    for (int half = 0; half < 60; ++half, step /= 2) {
      const double np = p + step * dp, nq = q + step * dq;
      if (!(np > 0 && nq > 0)) continue;
      const double nll = loglik(np, nq);
      if (nll >= ll) {
        const bool done = std::fabs(np - p) < 1e-10 * p && std::fabs(nq - q) < 1e-10 * q;
        p = np;
        q = nq;
        ll = nll;
        improved = !done;
        break;
      }
    }
    if (!improved) break;
  }
  return std::isfinite(p) && std::isfinite(q) && p > 0 && q > 0;
}

bool fit_gamma_ml(const std::vector<double>& values, double& shape, double& scale) {
  double m = 0, lm = 0;
  size_t n = 0;
  for (const double x : values)
    if (x > 0) {
      m += x;
      lm += std::log(x);
      ++n;
    }
  if (n < 2) return false;
  m /= static_cast<double>(n);
  lm /= static_cast<double>(n);
  const double s = std::log(m) - lm;
  if (!(s > 0)) return false;
  double k = (3 - s + std::sqrt((s - 3) * (s - 3) + 24 * s)) / (12 * s);  // Minka's start
  for (int iter = 0; iter < 100; ++iter) {
    const double f = std::log(k) - boost::math::digamma(k) - s;
    const double df = 1 / k - boost::math::trigamma(k);
    double nk = k - f / df;
    if (!(nk > 0)) nk = k / 2;
    const bool done = std::fabs(nk - k) < 1e-12 * k;
    k = nk;
    if (done) break;
  }
  shape = k;
  scale = m / k;
  return std::isfinite(shape) && std::isfinite(scale) && shape > 0 && scale > 0;
}

SongModel fit_song(const std::vector<const std::vector<swf::Record>*>& logs, const SongFitOptions& options) {
  SongModel model;
  model.family = options.family;
  std::map<int, std::vector<double>> acc;  // group -> accuracies (Beta: scaled to [0, 1])
  std::map<int, double> xsum;
  for (const auto* log : logs) {
    model.cap = std::max(model.cap, estimate_bins(*log).limit);
    for (const auto& r : *log) {
      if (!trace::has_estimate(r) || r.run_time < 0) {
        ++model.without_estimate;
        continue;
      }
      const double a = static_cast<double>(r.run_time) / static_cast<double>(r.requested_time);
      if (model.family == SongFamily::kBeta && a > model.accuracy_max) {
        ++model.dropped_over;
        continue;
      }
      ++model.training_jobs;
      const int g = group_of(r.run_time);
      acc[g].push_back(model.family == SongFamily::kBeta ? a / model.accuracy_max : a);
      xsum[g] += log_rrt(r.run_time);
    }
  }
  std::vector<double> xp, yp, xq, yq;
  for (auto& [g, values] : acc) {
    SongGroup sg;
    sg.group = g;
    sg.jobs = static_cast<int64_t>(values.size());
    sg.x = xsum[g] / static_cast<double>(values.size());
    if (sg.jobs >= options.min_group_jobs) {
      sg.fitted = model.family == SongFamily::kBeta ? fit_beta_ml(values, sg.p, sg.q) : fit_gamma_ml(values, sg.p, sg.q);
    }
    if (sg.fitted) {
      xp.push_back(sg.x);
      yp.push_back(std::log(sg.p));
      if (model.family == SongFamily::kGamma) {
        sg.in_q_regression = true;
        xq.push_back(sg.x);
        yq.push_back(std::log(sg.q));
      } else if (sg.q > 1) {
        sg.in_q_regression = true;
        xq.push_back(sg.x);
        yq.push_back(std::log(std::log(sg.q)));
      }
    }
    model.groups.push_back(sg);
  }
  if (model.training_jobs == 0)
    throw LogDataError("song model: no training job has both a runtime and an estimate (field 9 > 0)");
  if (!regress(xp, yp, model.a1, model.b1))
    throw LogDataError(fmt::format("song model: no runtime group has the {} jobs needed for a fit",
                                 options.min_group_jobs));
  if (!regress(xq, yq, model.a2, model.b2))
    throw LogDataError("song model: no runtime group has a fitted q > 1 for the q regression");
  return model;
}

int64_t song_align(int64_t e) {
  int64_t m = 0;
  if (e < 60) return e;
  if (e < 300) m = 60;
  else if (e < 3600) m = 300;
  else if (e <= 14400) m = 1200;
  else m = 3600;
  return (e + m / 2) / m * m;
}

int32_t song_estimate(const SongModel& m, int32_t rrt, base::Rng& rng) {
  const double r = std::max<int32_t>(rrt, 1);
  const double x = log_rrt(rrt);
  Engine eng{&rng};
  double accuracy = 0;
  if (m.family == SongFamily::kBeta) {
    const double p = clamp_shape(std::exp(m.a1 * x + m.b1));
    const double q = clamp_shape(std::exp(std::exp(m.a2 * x + m.b2)));
    boost::random::beta_distribution<double> beta(p, q);
    accuracy = m.accuracy_max * beta(eng);
  } else {
    const double k = clamp_shape(std::exp(m.a1 * x + m.b1));
    const double theta = std::clamp(std::exp(m.a2 * x + m.b2), 1e-12, 1e12);
    boost::random::gamma_distribution<double> gamma(k, theta);
    accuracy = gamma(eng);
  }
  const double align_u = rng.uniform();
  const double cap = std::max<double>(m.cap > 0 ? m.cap : std::numeric_limits<int32_t>::max(), rrt);
  double e = accuracy > 0 ? r / accuracy : cap;
  e = std::min(e, cap);
  auto ei = static_cast<int64_t>(std::llround(e));
  if (align_u < m.align_prob) ei = song_align(ei);
  ei = std::min<int64_t>(ei, static_cast<int64_t>(cap));
  return static_cast<int32_t>(std::max<int64_t>(ei, 1));
}

nlohmann::ordered_json song_to_json(const SongModel& m) {
  nlohmann::ordered_json j;
  j["model"] = "song";
  j["family"] = m.family == SongFamily::kBeta ? "beta" : "gamma";
  j["sources"] = m.sources;
  j["training_jobs"] = m.training_jobs;
  j["dropped_accuracy_over_max"] = m.dropped_over;
  j["without_estimate_or_runtime"] = m.without_estimate;
  j["accuracy_max"] = m.accuracy_max;
  j["cap"] = m.cap;
  j["align_prob"] = m.align_prob;
  j["regression"] = {{"a1", m.a1}, {"b1", m.b1}, {"a2", m.a2}, {"b2", m.b2}};
  j["regression_form"] = m.family == SongFamily::kBeta ? "ln p = a1 x + b1; ln ln q = a2 x + b2; x = ln RRT"
                                                        : "ln shape = a1 x + b1; ln scale = a2 x + b2; x = ln RRT";
  auto groups = nlohmann::ordered_json::array();
  for (const auto& g : m.groups)
    groups.push_back({{"group", g.group},
                      {"jobs", g.jobs},
                      {"mean_ln_runtime", g.x},
                      {"fitted", g.fitted},
                      {m.family == SongFamily::kBeta ? "p" : "shape", g.p},
                      {m.family == SongFamily::kBeta ? "q" : "scale", g.q},
                      {"in_q_regression", g.in_q_regression}});
  j["groups"] = groups;
  return j;
}

SongModel song_from_json(const nlohmann::json& j) {
  SongModel m;
  try {
    if (!j.is_object()) throw ModelError("song model file: not a JSON object");
    if (j.value("model", std::string()) != "song")
      throw ModelError("song model file: \"model\" is not \"song\"");
    const std::string family = j.value("family", std::string("beta"));
    if (family == "beta") m.family = SongFamily::kBeta;
    else if (family == "gamma") m.family = SongFamily::kGamma;
    else throw ModelError(fmt::format("song model file: unknown family \"{}\" (beta or gamma)", family));
    const auto& r = j.at("regression");
    m.a1 = r.at("a1").get<double>();
    m.b1 = r.at("b1").get<double>();
    m.a2 = r.at("a2").get<double>();
    m.b2 = r.at("b2").get<double>();
    m.cap = j.at("cap").get<int32_t>();
    m.align_prob = j.value("align_prob", 0.8);
    m.accuracy_max = j.value("accuracy_max", 1.1);
    if (j.contains("sources")) m.sources = j.at("sources").get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception& e) {
    throw ModelError(fmt::format("song model file: {}", e.what()));
  }
  if (!(m.align_prob >= 0 && m.align_prob <= 1)) throw ModelError("song model: align_prob must be in [0, 1]");
  if (!(m.accuracy_max > 0)) throw ModelError("song model: accuracy_max must be > 0");
  if (m.cap <= 0) throw ModelError("song model: cap must be > 0 seconds");
  for (const double v : {m.a1, m.b1, m.a2, m.b2})
    if (!std::isfinite(v)) throw ModelError("song model: regression coefficients must be finite");
  return m;
}

}  // namespace schedlab::model
