// The modal user-estimate model of Tsafrir, Etsion and Feitelson (2005), as specified in
// docs/estimate-models.md, and the "random shuffle" assignment of estimates to jobs.
//
// Randomness: every random choice draws from base::Rng (xoshiro256**, raw 64-bit words turned into
// unbiased bounded integers by Lemire's method), so the same seed gives the same bins and assignment on every
// platform; no <random> distribution is used.
//
// Decisions beyond the spec (documented in docs, stated here):
// - K < 20 (N < 200): the head has H = K bins (the first K head times in selection order: T_max, the joint
//   times, the T_round multiples) and there is no tail.
// - Whenever the tail is empty the head shares are rescaled to 100%.
// - Tail times: x = i/M, i = 1..M with M = K - H; rounded to a multiple of 60 s, then nudged by
//   {0, +30, -30, +20, -20, +10, -10} s until it collides with no earlier (head or tail) value and lies in
//   (0, T_max); if all nudges fail, the unrounded value and then values 1, 2, ... s away from it are tried, so
//   exactly M tail times always exist (x = 1 gives T_max, which is nudged to T_max - 30 s).
// - User time -> default head slot (T_max's slot only via the T_max pair): greedy over (user bin, slot) pairs by
//   the key (difference != 0, slot is a joint time, |difference|, slot order): exact matches first, then
//   non-joint defaults before joint ones, nearest first.
// - User share -> default popularity rank: user bins by descending share, each taking the nearest unused
//   default head share among ranks 2..H (ties: smaller rank); the T_max pair takes rank 1.
// - User shares above 89% of jobs: every non-user head bin keeps share 0 (so 1 job after rounding) and the
//   tail is rescaled to 100% - user shares. Above 100%: error.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "schedlab/base/random.h"

namespace schedlab::model {

// Raised when the model cannot be built or assigned (bad parameters, infeasible assignment).
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The ModelError of a log that cannot serve the model as asked (no job with an estimate to train on or to shuffle,
// fewer jobs than the bins need): callers that know the log's name put it in front (apply_estimate_model).
class LogDataError : public ModelError {
 public:
  using ModelError::ModelError;
};

// Coefficient sets: the paper's rounded values, or the authors' reference implementation's.
enum class TsafrirCoefficientSet { kPaper, kReference };

struct TsafrirCoefficients {
  double a_c = 12.1, a_e = -0.6;                                // a = 1 + a_c K^a_e
  double head_alpha = 14.05, head_beta = -0.18, head_gamma = 0.46;  // head sizes alpha e^(beta x) + gamma
  double tail_omega = 795.6, tail_rho = -2.27;                  // tail sizes omega x^rho
  double head_mass = 89.0;                                      // percent of jobs in the head
};
TsafrirCoefficients tsafrir_coefficients(TsafrirCoefficientSet set);

inline constexpr int kHeadSize = 20;

// K from N, piecewise linear (Table 3): N 0,20,200,1000,10000,70000,250000 -> K 0,10,20,35,90,340,565;
// K = K_{k-1} + round((N - N_{k-1}) slope) inside a segment (half away from zero); 565 beyond 250,000.
int64_t tsafrir_k(int64_t n);

// a = 1 + a_c K^a_e.
double tsafrir_a(int64_t k, const TsafrirCoefficients& c);

// F_tim at normalized rank x = i/K in [0, 1]: T_max (a-1) x / (a - x), in seconds (not rounded).
double tsafrir_f_tim(double x, double t_max, double a);

// The 20 default head times in selection order: T_max, the joint times below T_max ascending, then the
// multiples of T_round (200h .. 5m) stepping down, skipping duplicates; fewer when T_max is tiny.
std::vector<int32_t> tsafrir_head_times(int32_t t_max);
// True for the joint times 5m 10m 15m 20m 30m 1h 2h 3h 4h 5h 6h 8h 10h 12h 18h.
bool tsafrir_is_joint_time(int32_t t);

// F_pop(1..K) in percent (index 0 = popularity rank 1): head ranks 1..min(K,20), tail ranks 21..K.
std::vector<double> tsafrir_f_pop(int64_t k, const TsafrirCoefficients& c);

// F_log of the four traces (Table 6): kFLog[trace][ttr] = popularity rank.
extern const int kFLog[4][kHeadSize];

// The pool algorithm. `preassigned[ttr]` = popularity rank (> 0) fixed by a user bin, or 0. Returns
// map[ttr] = popularity rank (1-based) for ttr 0..h-1 (h = preassigned.size() <= 20); ranks used are 1..h.
std::vector<int> tsafrir_pool_map(const std::vector<int>& preassigned, base::Rng& rng);

// Percent shares -> job counts summing to exactly n: `exact` bins get round(p n / 100); the others
// max(1, round(p n / 100)); then the total is fixed by adding/removing one job at a time to/from non-exact
// bins, largest count first (ties by index), cyclically, never below 1. Throws ModelError when impossible.
std::vector<int64_t> shares_to_counts(const std::vector<double>& shares, const std::vector<bool>& exact, int64_t n);

struct UserBin {
  int32_t time = 0;   // seconds
  double share = 0;   // percent of jobs
};

struct TsafrirParams {
  int64_t n = 0;                       // number of jobs (estimates to produce)
  int32_t t_max = 0;                   // maximal estimate, seconds
  std::optional<double> t_max_share;   // percent of jobs at T_max (the user bin (T_max, p))
  std::vector<UserBin> user_bins;      // up to 19 more user bins (t < T_max)
  TsafrirCoefficientSet coefficients = TsafrirCoefficientSet::kPaper;
  std::optional<int64_t> k;            // override K (else tsafrir_k(n))
};

struct TsafrirBin {
  int32_t time = 0;
  double share = 0;       // percent
  int64_t jobs = 0;
  int64_t popularity_rank = 0;  // model rank (1..K): head ranks via the pool algorithm, tail ranks 21..K
  bool head = false;
  bool user = false;
};

// The model's K bins, ascending by time; jobs sum to params.n. Throws ModelError on bad parameters.
std::vector<TsafrirBin> tsafrir_bins(const TsafrirParams& params, base::Rng& rng);

// The random-shuffle assignment: estimate for each runtime, E >= R, drawn uniformly from the remaining
// estimates (processing runtimes in descending order; jobs sharing a runtime in index order). Feasible iff the
// k-th largest estimate >= the k-th largest runtime for every k; otherwise throws ModelError naming the first
// failing pair and `hint`. Runtimes < 0 count as 0. estimates.size() must equal runtimes.size().
std::vector<int32_t> random_shuffle_assign(std::span<const int32_t> runtimes, std::vector<int32_t> estimates,
                                           base::Rng& rng, const std::string& hint = "");

// Makes the random shuffle feasible when the model gave fewer long estimates than there are long runtimes (KTH:
// 28 jobs at its 60 h T_max, more than 28 runtimes above the next value): raises the fewest estimates to `t_max`,
// the d smallest, with d = the largest shortfall #{runtimes >= x} - #{estimates >= x} over every x. Every runtime
// must be <= t_max (the model's truncation); runtimes < 0 count as 0. Returns d (0: `estimates` untouched).
int64_t raise_to_cover(std::span<const int32_t> runtimes, std::vector<int32_t>& estimates, int32_t t_max);

}  // namespace schedlab::model
