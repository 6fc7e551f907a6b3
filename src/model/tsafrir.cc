#include "schedlab/model/tsafrir.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <set>
#include <tuple>

#include <fmt/core.h>

namespace schedlab::model {
namespace {

constexpr int32_t kMin = 60, kHour = 3600;
constexpr std::array<int32_t, 15> kJointTimes = {5 * kMin,  10 * kMin, 15 * kMin, 20 * kMin, 30 * kMin,
                                                  1 * kHour, 2 * kHour, 3 * kHour, 4 * kHour, 5 * kHour,
                                                  6 * kHour, 8 * kHour, 10 * kHour, 12 * kHour, 18 * kHour};
constexpr std::array<int32_t, 10> kRoundTimes = {200 * kHour, 100 * kHour, 50 * kHour, 10 * kHour, 5 * kHour,
                                                 2 * kHour,   1 * kHour,   20 * kMin,  10 * kMin,  5 * kMin};

int64_t round_half_away(double x) { return static_cast<int64_t>(std::llround(x)); }

}  // namespace

const int kFLog[4][kHeadSize] = {
    {3, 1, 4, 17, 13, 7, 8, 18, 2, 6, 16, 10, 5, 15, 14, 19, 11, 12, 9, 20},   // SDSC-106
    {1, 3, 4, 2, 12, 9, 8, 18, 6, 7, 11, 20, 16, 5, 14, 13, 10, 15, 17, 19},   // CTC
    {1, 4, 10, 14, 20, 2, 3, 7, 12, 6, 19, 5, 18, 16, 9, 17, 15, 13, 8, 11},   // KTH4H
    {1, 6, 5, 3, 7, 2, 18, 19, 4, 11, 20, 9, 10, 14, 13, 16, 15, 17, 8, 12}};  // BLUE

TsafrirCoefficients tsafrir_coefficients(TsafrirCoefficientSet set) {
  TsafrirCoefficients c;
  if (set == TsafrirCoefficientSet::kReference) {
    c.a_c = 12.1039;
    c.a_e = -0.6026;
    c.head_alpha = 14.0491;
    c.head_beta = -0.177531;
    c.head_gamma = 0.462513;
    c.tail_rho = -2.267;
  }
  return c;
}

int64_t tsafrir_k(int64_t n) {
  static constexpr std::array<int64_t, 7> kN = {0, 20, 200, 1000, 10000, 70000, 250000};
  static constexpr std::array<int64_t, 7> kK = {0, 10, 20, 35, 90, 340, 565};
  if (n <= 0) return 0;
  if (n >= kN.back()) return kK.back();
  size_t s = 1;
  while (n > kN[s]) ++s;
  const double slope = static_cast<double>(kK[s] - kK[s - 1]) / static_cast<double>(kN[s] - kN[s - 1]);
  return kK[s - 1] + round_half_away(static_cast<double>(n - kN[s - 1]) * slope);
}

double tsafrir_a(int64_t k, const TsafrirCoefficients& c) {
  return 1.0 + c.a_c * std::pow(static_cast<double>(std::max<int64_t>(k, 1)), c.a_e);
}

double tsafrir_f_tim(double x, double t_max, double a) { return t_max * (a - 1.0) * x / (a - x); }

bool tsafrir_is_joint_time(int32_t t) {
  return std::find(kJointTimes.begin(), kJointTimes.end(), t) != kJointTimes.end();
}

std::vector<int32_t> tsafrir_head_times(int32_t t_max) {
  std::vector<int32_t> head{t_max};
  const auto add = [&](int32_t t) {
    if (t > 0 && std::find(head.begin(), head.end(), t) == head.end()) head.push_back(t);
  };
  for (const int32_t t : kJointTimes)
    if (t < t_max && head.size() < kHeadSize) add(t);
  for (const int32_t r : kRoundTimes) {
    for (int32_t t = (t_max / r) * r; t > 0 && head.size() < kHeadSize; t -= r) add(t);
    if (head.size() >= kHeadSize) break;
  }
  return head;
}

std::vector<double> tsafrir_f_pop(int64_t k, const TsafrirCoefficients& c) {
  std::vector<double> f(static_cast<size_t>(std::max<int64_t>(k, 0)));
  if (k <= 0) return f;
  const int64_t h = std::min<int64_t>(k, kHeadSize);
  double rest = 0;
  for (int64_t j = 2; j <= kHeadSize; ++j) {
    const double v = c.head_alpha * std::exp(c.head_beta * static_cast<double>(j)) + c.head_gamma;
    rest += v;
    if (j <= h) f[static_cast<size_t>(j - 1)] = v;
  }
  f[0] = c.head_mass - rest;
  if (k > kHeadSize) {
    double lambda = 0;
    for (int64_t i = kHeadSize + 1; i <= k; ++i) lambda += c.tail_omega * std::pow(static_cast<double>(i), c.tail_rho);
    for (int64_t i = kHeadSize + 1; i <= k; ++i)
      f[static_cast<size_t>(i - 1)] =
          c.tail_omega * std::pow(static_cast<double>(i), c.tail_rho) * (100.0 - c.head_mass) / lambda;
  }
  return f;
}

std::vector<int> tsafrir_pool_map(const std::vector<int>& preassigned, base::Rng& rng) {
  const int h = static_cast<int>(preassigned.size());
  std::vector<int> map(preassigned);
  std::vector<bool> mapped(static_cast<size_t>(h) + 1, false);
  for (const int r : preassigned)
    if (r > 0) mapped[static_cast<size_t>(r)] = true;
  std::vector<int> pool;
  const auto push_row = [&](int j) {
    for (const auto& trace : kFLog) {
      const int r = trace[j];
      if (r <= h && !mapped[static_cast<size_t>(r)]) pool.push_back(r);
    }
  };
  const auto take = [&](int j, int r) {
    map[static_cast<size_t>(j)] = r;
    mapped[static_cast<size_t>(r)] = true;
    std::erase(pool, r);
  };
  if (h == 0) return map;
  push_row(0);  // [ref]: row 0 enters the pool before rank 1 is forced on T_max
  if (map[0] == 0) take(0, 1);
  std::erase_if(pool, [&](int r) { return mapped[static_cast<size_t>(r)]; });
  for (int j = 1; j < h; ++j) {
    push_row(j);
    if (map[static_cast<size_t>(j)] != 0) continue;  // a user bin's ttr: skipped
    std::array<int, kHeadSize + 1> occurrences{};
    for (const int r : pool) ++occurrences[static_cast<size_t>(r)];
    int chosen = 0;
    for (int r = 1; r <= h && chosen == 0; ++r)
      if (occurrences[static_cast<size_t>(r)] == 4) chosen = r;
    if (chosen == 0 && !pool.empty()) {
      const int r1 = pool[rng.below(pool.size())];
      const int r2 = pool[rng.below(pool.size())];
      chosen = std::min(r1, r2);
    }
    if (chosen == 0)  // empty pool (only with user bins or h < 20): the smallest unmapped rank
      for (int r = 1; r <= h && chosen == 0; ++r)
        if (!mapped[static_cast<size_t>(r)]) chosen = r;
    take(j, chosen);
  }
  return map;
}

std::vector<int64_t> shares_to_counts(const std::vector<double>& shares, const std::vector<bool>& exact, int64_t n) {
  std::vector<int64_t> counts(shares.size());
  int64_t total = 0;
  std::vector<size_t> adjustable;
  for (size_t i = 0; i < shares.size(); ++i) {
    const int64_t c = round_half_away(shares[i] * static_cast<double>(n) / 100.0);
    counts[i] = exact[i] ? c : std::max<int64_t>(1, c);
    total += counts[i];
    if (!exact[i]) adjustable.push_back(i);
  }
  int64_t diff = n - total;
  if (diff == 0) return counts;
  if (adjustable.empty())
    throw LogDataError(fmt::format("cannot make the bins' job counts sum to N = {} (user bins fix {} jobs)", n, total));
  std::stable_sort(adjustable.begin(), adjustable.end(), [&](size_t a, size_t b) { return counts[a] > counts[b]; });
  const int64_t step = diff > 0 ? 1 : -1;
  while (diff != 0) {
    bool progress = false;
    for (const size_t i : adjustable) {
      if (diff == 0) break;
      if (step < 0 && counts[i] <= 1) continue;
      counts[i] += step;
      diff -= step;
      progress = true;
    }
    if (!progress) {
      // Say what is left for the bins that need a job each, and what to change: the user bins (their shares are
      // kept exact) or the number of bins.
      int64_t fixed = 0;
      for (size_t i = 0; i < shares.size(); ++i)
        if (exact[i]) fixed += counts[i];
      if (fixed == 0)
        throw LogDataError(fmt::format("infeasible bins: cannot fit {} bins into N = {} jobs (every bin needs at least "
                                       "one job): give fewer bins (parameter k)",
                                       shares.size(), n));
      throw LogDataError(fmt::format(
          "infeasible bins: the user bins (T_max's share included) take {} of the N = {} jobs ({:.2f}%), which leaves "
          "{} for the model's {} other bins, and each needs at least one job: lower the user bins' shares (parameters "
          "bins and tmax_share; a fit with a smaller top) or give fewer bins (parameter k)",
          fixed, n, 100.0 * static_cast<double>(fixed) / static_cast<double>(n), std::max<int64_t>(0, n - fixed),
          adjustable.size()));
    }
  }
  return counts;
}

namespace {

// The user's bins other than T_max, checked (times in 1..T_max, shares in 0..100, no time twice, the sum at
// most 100%); a bin at T_max sets `tmax_share`. `user_sum` gets the sum of the user's shares, T_max's included.
std::vector<UserBin> checked_user_bins(const TsafrirParams& p, int h, std::optional<double>& tmax_share,
                                       double& user_sum) {
  std::vector<UserBin> users;
  for (const auto& u : p.user_bins) {
    if (u.time <= 0 || u.time > p.t_max)
      throw ModelError(fmt::format("tsafrir model: user bin time {} s must be in 1..T_max = {}", u.time, p.t_max));
    if (!(u.share >= 0 && u.share <= 100))
      throw ModelError(fmt::format("tsafrir model: user bin share {}% must be in 0..100", u.share));
    if (u.time == p.t_max) {
      if (tmax_share) throw ModelError("tsafrir model: the share of T_max is given twice");
      tmax_share = u.share;
      continue;
    }
    for (const auto& o : users)
      if (o.time == u.time) throw ModelError(fmt::format("tsafrir model: user bin time {} s given twice", u.time));
    users.push_back(u);
  }
  if (tmax_share && !(*tmax_share >= 0 && *tmax_share <= 100))
    throw ModelError(fmt::format("tsafrir model: T_max share {}% must be in 0..100", *tmax_share));
  if (static_cast<int>(users.size()) + 1 > h)
    throw LogDataError(fmt::format("tsafrir model: {} user bins do not fit in a head of {} bins", users.size() + 1, h));
  user_sum = 0;
  for (const auto& u : users) user_sum += u.share;
  if (tmax_share) user_sum += *tmax_share;
  if (user_sum > 100.0 + 1e-9) throw ModelError(fmt::format("tsafrir model: user shares sum to {}% > 100%", user_sum));

  return users;
}

// Each user time takes the free head slot nearest to it (an exact time first, then not a joint time, then the
// smallest distance, then the lowest slot), the users taken in the order that gives the best match first.
void place_user_times(const std::vector<UserBin>& users, std::vector<int32_t>& head_times,
                      std::vector<bool>& slot_user, std::vector<int>& user_slot) {
  const int h = static_cast<int>(head_times.size());
  for (size_t round = 0; round < users.size(); ++round) {
    std::tuple<bool, bool, int64_t, int> best{true, true, INT64_MAX, INT32_MAX};
    size_t best_u = 0;
    for (size_t u = 0; u < users.size(); ++u) {
      if (user_slot[u] >= 0) continue;
      for (int s = 1; s < h; ++s) {
        if (slot_user[static_cast<size_t>(s)]) continue;
        const int64_t d = std::llabs(static_cast<int64_t>(users[u].time) - head_times[static_cast<size_t>(s)]);
        const std::tuple<bool, bool, int64_t, int> key{d != 0, tsafrir_is_joint_time(head_times[static_cast<size_t>(s)]),
                                                        d, s};
        if (key < best) {
          best = key;
          best_u = u;
        }
      }
    }
    const int s = std::get<3>(best);
    user_slot[best_u] = s;
    slot_user[static_cast<size_t>(s)] = true;
    head_times[static_cast<size_t>(s)] = users[best_u].time;
  }

}

// The tail's M distinct times (F_tim at i/M, rounded to minutes, nudged off the values already taken).
std::vector<int32_t> tail_times_of(int32_t t_max, int64_t m, double a, const std::vector<int32_t>& head_times) {
  std::vector<int32_t> tail_times;
  std::set<int32_t> used(head_times.begin(), head_times.end());
  tail_times.reserve(static_cast<size_t>(m));
  const auto free_value = [&](int64_t v) { return v > 0 && v < t_max && !used.count(static_cast<int32_t>(v)); };
  for (int64_t i = 1; i <= m; ++i) {
    const double raw = tsafrir_f_tim(static_cast<double>(i) / static_cast<double>(m), t_max, a);
    const int64_t rounded = round_half_away(raw / 60.0) * 60;
    int64_t chosen = -1;
    for (const int64_t nudge : {0, 30, -30, 20, -20, 10, -10})
      if (free_value(rounded + nudge)) {
        chosen = rounded + nudge;
        break;
      }
    for (int64_t d = 0; chosen < 0 && d <= t_max; ++d) {
      const int64_t base = std::clamp<int64_t>(round_half_away(raw), 1, t_max - 1);
      if (free_value(base + d))
        chosen = base + d;
      else if (free_value(base - d))
        chosen = base - d;
    }
    if (chosen < 0) throw LogDataError("tsafrir model: T_max too small for the number of bins");
    used.insert(static_cast<int32_t>(chosen));
    tail_times.push_back(static_cast<int32_t>(chosen));
  }
  return tail_times;
}

}  // namespace

std::vector<TsafrirBin> tsafrir_bins(const TsafrirParams& p, base::Rng& rng) {
  const TsafrirCoefficients coef = tsafrir_coefficients(p.coefficients);
  if (p.n <= 0) throw ModelError("tsafrir model: N (number of jobs) must be > 0");
  if (p.t_max <= 0) throw ModelError("tsafrir model: T_max must be > 0 seconds");
  const int64_t k = p.k.value_or(tsafrir_k(p.n));
  if (k <= 0 || k > p.n) throw LogDataError(fmt::format("tsafrir model: K = {} must be in 1..N = {}", k, p.n));
  if (p.user_bins.size() >= kHeadSize)
    throw ModelError(fmt::format("tsafrir model: at most {} user bins besides T_max", kHeadSize - 1));
  std::vector<int32_t> head_times = tsafrir_head_times(p.t_max);
  const int h = static_cast<int>(std::min<int64_t>({k, kHeadSize, static_cast<int64_t>(head_times.size())}));
  head_times.resize(static_cast<size_t>(h));
  if (k > h && static_cast<int64_t>(p.t_max) <= k)
    throw LogDataError(fmt::format("tsafrir model: T_max = {} s is too small for K = {} distinct values", p.t_max, k));

  // User bins: the T_max pair and the others.
  std::optional<double> tmax_share = p.t_max_share;
  double user_sum = 0;
  const std::vector<UserBin> users = checked_user_bins(p, h, tmax_share, user_sum);

  // User times replace default head slots (slot 0 = T_max is never replaced).
  std::vector<bool> slot_user(static_cast<size_t>(h), false);
  std::vector<int> user_slot(users.size(), -1);
  place_user_times(users, head_times, slot_user, user_slot);

  // ttr: T_max = 0, the other head times ascending = 1..h-1.
  std::vector<int> order(static_cast<size_t>(h - 1));
  std::iota(order.begin(), order.end(), 1);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return head_times[static_cast<size_t>(a)] < head_times[static_cast<size_t>(b)]; });
  std::vector<int> slot_ttr(static_cast<size_t>(h), 0);
  for (size_t i = 0; i < order.size(); ++i) slot_ttr[static_cast<size_t>(order[i])] = static_cast<int>(i) + 1;

  // Shares by popularity rank; user shares replace the nearest default shares.
  std::vector<double> pop = tsafrir_f_pop(k, coef);
  std::vector<double> head_share(pop.begin(), pop.begin() + h);
  std::vector<bool> rank_user(static_cast<size_t>(h) + 1, false);
  std::vector<int> preassigned(static_cast<size_t>(h), 0);  // by ttr
  if (tmax_share) {
    rank_user[1] = true;
    head_share[0] = *tmax_share;
    preassigned[0] = 1;
  }
  std::vector<size_t> by_share(users.size());
  std::iota(by_share.begin(), by_share.end(), 0);
  std::stable_sort(by_share.begin(), by_share.end(), [&](size_t a, size_t b) { return users[a].share > users[b].share; });
  for (const size_t u : by_share) {
    int best = 0;
    for (int r = 2; r <= h; ++r) {
      if (rank_user[static_cast<size_t>(r)]) continue;
      if (best == 0 || std::fabs(pop[static_cast<size_t>(r - 1)] - users[u].share) <
                           std::fabs(pop[static_cast<size_t>(best - 1)] - users[u].share))
        best = r;
    }
    if (best == 0) throw LogDataError("tsafrir model: more user bins than head ranks");
    rank_user[static_cast<size_t>(best)] = true;
    head_share[static_cast<size_t>(best - 1)] = users[u].share;
    preassigned[static_cast<size_t>(slot_ttr[static_cast<size_t>(user_slot[u])])] = best;
  }
  const bool has_tail = k > h;
  const double head_mass = has_tail ? coef.head_mass : 100.0;
  double tail_scale = 1.0;
  double other = 0;
  for (int r = 1; r <= h; ++r)
    if (!rank_user[static_cast<size_t>(r)]) other += head_share[static_cast<size_t>(r - 1)];
  if (user_sum <= head_mass) {
    const double scale = other > 0 ? (head_mass - user_sum) / other : 0.0;
    for (int r = 1; r <= h; ++r)
      if (!rank_user[static_cast<size_t>(r)]) head_share[static_cast<size_t>(r - 1)] *= scale;
  } else {
    for (int r = 1; r <= h; ++r)
      if (!rank_user[static_cast<size_t>(r)]) head_share[static_cast<size_t>(r - 1)] = 0;
    tail_scale = (100.0 - user_sum) / (100.0 - coef.head_mass);
  }

  // Head mapping (pool algorithm over ttrs).
  const std::vector<int> ttr_rank = tsafrir_pool_map(preassigned, rng);

  std::vector<TsafrirBin> bins;
  bins.reserve(static_cast<size_t>(k));
  for (int s = 0; s < h; ++s) {
    const int rank = ttr_rank[static_cast<size_t>(slot_ttr[static_cast<size_t>(s)])];
    bins.push_back({head_times[static_cast<size_t>(s)], head_share[static_cast<size_t>(rank - 1)], 0, rank, true,
                    s == 0 ? tmax_share.has_value() : slot_user[static_cast<size_t>(s)]});
  }

  // Tail times (F_tim over M = K - h values) and tail sizes, shuffled independently and zipped.
  if (has_tail) {
    const int64_t m = k - h;
    const double a = tsafrir_a(k, coef);  // a is fitted as a function of the model's K
    const std::vector<int32_t> times = tail_times_of(p.t_max, m, a, head_times);
    std::vector<int32_t> tail_times(times);
    std::vector<int64_t> tail_ranks(static_cast<size_t>(m));
    std::iota(tail_ranks.begin(), tail_ranks.end(), h + 1);
    base::shuffle(tail_times.begin(), tail_times.end(), rng);
    base::shuffle(tail_ranks.begin(), tail_ranks.end(), rng);
    for (size_t i = 0; i < tail_times.size(); ++i)
      bins.push_back({tail_times[i], pop[static_cast<size_t>(tail_ranks[i] - 1)] * tail_scale, 0, tail_ranks[i],
                      false, false});
  }

  std::vector<double> shares;
  std::vector<bool> exact;
  for (const auto& b : bins) {
    shares.push_back(b.share);
    exact.push_back(b.user);
  }
  const std::vector<int64_t> counts = shares_to_counts(shares, exact, p.n);
  for (size_t i = 0; i < bins.size(); ++i) bins[i].jobs = counts[i];
  std::sort(bins.begin(), bins.end(), [](const auto& x, const auto& y) { return x.time < y.time; });
  return bins;
}

std::vector<int32_t> random_shuffle_assign(std::span<const int32_t> runtimes, std::vector<int32_t> estimates,
                                           base::Rng& rng, const std::string& hint) {
  const size_t n = runtimes.size();
  if (estimates.size() != n)
    throw ModelError(fmt::format("random shuffle: {} estimates for {} jobs", estimates.size(), n));
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  const auto rt = [&](uint32_t i) { return std::max<int32_t>(runtimes[i], 0); };
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return rt(a) > rt(b); });
  std::sort(estimates.begin(), estimates.end(), std::greater<>());
  for (size_t k = 0; k < n; ++k)
    if (estimates[k] < rt(order[k]))
      throw LogDataError(fmt::format(
          "infeasible assignment: runtime number {} in descending order ({} s) exceeds estimate number {} ({} s); "
          "no assignment gives every job an estimate >= its runtime{}",
          k + 1, rt(order[k]), k + 1, estimates[k], hint.empty() ? "" : "; " + hint));
  std::vector<int32_t> out(n);
  std::vector<int32_t> pool;
  pool.reserve(n);
  size_t next = 0;
  for (const uint32_t job : order) {
    while (next < n && estimates[next] >= rt(job)) pool.push_back(estimates[next++]);
    const size_t pick = rng.below(pool.size());
    out[job] = pool[pick];
    pool[pick] = pool.back();
    pool.pop_back();
  }
  return out;
}

int64_t raise_to_cover(std::span<const int32_t> runtimes, std::vector<int32_t>& estimates, int32_t t_max) {
  std::vector<int32_t> r(runtimes.size());
  std::transform(runtimes.begin(), runtimes.end(), r.begin(), [](int32_t x) { return std::max<int32_t>(x, 0); });
  std::sort(r.begin(), r.end(), std::greater<>());
  std::vector<int32_t> e(estimates);
  std::sort(e.begin(), e.end(), std::greater<>());
  int64_t d = 0;
  size_t covering = 0;  // estimates >= r[i]
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i] > t_max) throw LogDataError(fmt::format("raise_to_cover: runtime {} s above T_max = {} s", r[i], t_max));
    while (covering < e.size() && e[covering] >= r[i]) ++covering;
    d = std::max(d, static_cast<int64_t>(i + 1) - static_cast<int64_t>(covering));
  }
  if (d == 0) return 0;
  // The smallest estimates are the ones no long runtime could use: raising them takes nothing from the others.
  std::sort(estimates.begin(), estimates.end());
  std::fill(estimates.begin(), estimates.begin() + d, t_max);
  return d;
}

}  // namespace schedlab::model
