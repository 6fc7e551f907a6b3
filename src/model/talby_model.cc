#include "schedlab/model/talby_model.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/base/count_text.h"
#include "schedlab/base/threads.h"
#include "schedlab/base/version.h"
#include "schedlab/model/estimate_models.h"

namespace schedlab::model {

using analysis::SessionClass;
using analysis::UserClass;

namespace {

constexpr int64_t kWeek = 7 * 86400;
constexpr int64_t kSessionGap = 20 * 60;  // Listing 5's collision margin
constexpr int kPlacementAttempts = 100;    // Listing 5
constexpr int kClassDraws = 2;             // Decision: then one session is dropped
constexpr int kRetryAttempts = 10;         // Decision: attempts for each smaller number of sessions

size_t ui(UserClass c) { return static_cast<size_t>(c); }

// Table 32 (a, b) per user class (LTLU, LTHU, STWE, STWD).
constexpr std::array<std::array<double, 2>, 4> kInactivity = {{{0.0683, 0.5594}, {0.0895, 0.4149},
                                                              {0.0451, 0.8201}, {0.0254, 0.8164}}};
// Table 34: (k, sigma) in the first week of activity.
constexpr std::array<std::array<double, 2>, 4> kFirstWeek = {{{0.1795, 2.5012}, {0.0557, 2.8330},
                                                             {0.3008, 1.1597}, {0.4661, 1.2969}}};
// Table 33: k = k1 WoA + k0, sigma = s1 WoA + s0.
constexpr std::array<std::array<double, 4>, 4> kLaterWeeks = {{{0, 0.11, -0.0097, 4.74},
                                                              {0.00076, 0.013, -0.0166, 3.31},
                                                              {-0.0251, -0.147, 0.0168, 3.806},
                                                              {-0.0178, 0.337, -0.1030, 2.897}}};

// Tables 35b–e as printed: rows = previous session class, columns = this session's class, both in the order
// IW, BHP, IWN, BHD, IWD (the thesis's third column header "IWD" is IWN; Table 35c's last row label "IWN" is
// IWD), percent; and the sessions per row.
constexpr std::array<int, 5> kPrintedOrder = {static_cast<int>(SessionClass::kIW), static_cast<int>(SessionClass::kBHP),
                                              static_cast<int>(SessionClass::kIWN), static_cast<int>(SessionClass::kBHD),
                                              static_cast<int>(SessionClass::kIWD)};
constexpr std::array<std::array<std::array<double, 5>, 5>, 4> kMarkov = {{
    {{{27, 2, 24, 1, 46}, {12, 31, 19, 2, 35}, {21, 3, 39, 2, 35}, {17, 5, 33, 23, 21}, {19, 2, 17, 1, 62}}},  // LTLU
    {{{26, 3, 39, 4, 29}, {7, 58, 16, 4, 15}, {20, 3, 53, 7, 17}, {8, 3, 28, 53, 7}, {23, 4, 25, 2, 46}}},     // LTHU
    {{{46, 1, 21, 1, 30}, {23, 20, 37, 7, 13}, {25, 2, 42, 3, 28}, {28, 3, 33, 18, 20}, {27, 1, 20, 1, 51}}},  // STWE
    {{{29, 1, 46, 1, 24}, {16, 22, 27, 7, 28}, {21, 1, 53, 1, 23}, {17, 5, 35, 22, 21}, {18, 1, 40, 1, 39}}},  // STWD
}};
constexpr std::array<std::array<double, 5>, 4> kMarkovSessions = {{{19339, 2831, 21427, 1060, 47684},
                                                                  {8088, 2707, 15010, 2967, 10700},
                                                                  {827, 30, 645, 40, 939},
                                                                  {1966, 114, 4187, 125, 2488}}};
// P(SC) (Figure 23), in enum order IWD, IWN, IW, BHP, BHD.
constexpr std::array<double, 5> kGlobalSessionShare = {0.43, 0.29, 0.21, 0.04, 0.03};

using ClassRow = std::array<double, analysis::kSessionClasses>;

struct MarkovTables {
  std::array<std::array<ClassRow, 5>, 4> given_previous{};  // [uc][previous (enum)][class (enum)], rows sum to 1
  std::array<ClassRow, 4> given_user{};                     // [uc][class]
};

const MarkovTables& markov() {
  static const MarkovTables t = [] {
    MarkovTables m;
    for (size_t uc = 0; uc < 4; ++uc) {
      double total_sessions = 0;
      for (size_t row = 0; row < 5; ++row) {
        const auto prev = static_cast<size_t>(kPrintedOrder[row]);
        const double sum = std::accumulate(kMarkov[uc][row].begin(), kMarkov[uc][row].end(), 0.0);
        for (size_t col = 0; col < 5; ++col)
          m.given_previous[uc][prev][static_cast<size_t>(kPrintedOrder[col])] = kMarkov[uc][row][col] / sum;
        total_sessions += kMarkovSessions[uc][row];
      }
      for (size_t prev = 0; prev < 5; ++prev) {
        size_t row = 0;
        while (static_cast<size_t>(kPrintedOrder[row]) != prev) ++row;
        for (size_t c = 0; c < 5; ++c)
          m.given_user[uc][c] += m.given_previous[uc][prev][c] * kMarkovSessions[uc][row] / total_sessions;
      }
    }
    return m;
  }();
  return t;
}

template <size_t N>
void clip_and_normalise(std::array<double, N>& p) {
  double sum = 0;
  for (double& x : p) {
    x = std::clamp(x, 0.0, 1.0);
    sum += x;
  }
  if (sum <= 0) {
    p.fill(1.0 / N);
    return;
  }
  for (double& x : p) x /= sum;
}

template <size_t N>
size_t sample(const std::array<double, N>& p, base::Rng& rng) {
  const double u = rng.uniform();
  double c = 0;
  for (size_t i = 0; i + 1 < N; ++i) {
    c += p[i];
    if (u < c) return i;
  }
  return N - 1;
}

int64_t draw_generalized_pareto(const GeneralizedPareto& g, base::Rng& rng) {
  const double u = rng.uniform();  // in [0, 1): 1 - u in (0, 1]
  const double x = std::fabs(g.k) < 1e-12 ? g.mu - g.sigma * std::log(1.0 - u)
                                          : g.mu + g.sigma * (std::pow(1.0 - u, -g.k) - 1.0) / g.k;
  if (!(x < static_cast<double>(kMaxSessionsPerWeek))) return kMaxSessionsPerWeek + 1;  // capped by the caller
  return std::max<int64_t>(1, std::llround(x));
}

int64_t draw_new_users(base::Rng& rng) {
  double u = rng.uniform();
  while (u <= 0.0) u = rng.uniform();
  const double x = std::exp(1.25 + 0.2214 * std::log(u / (1.0 - u)));
  return std::llround(x);
}

std::string fmt_value(double v) { return fmt::format("{:.6g}", v); }

}  // namespace

TalbyParameters resolve_talby_parameters(const TalbyOptions& o) {
  // The machine size is the SWF's MaxProcs and bounds every job's size: 32-bit fields.
  if (o.procs && (*o.procs <= 0 || *o.procs > INT32_MAX))
    throw std::invalid_argument(fmt::format("--procs must be in 1..{} (got {})", INT32_MAX, *o.procs));
  if (o.cpu_work && !(*o.cpu_work > 0))
    throw std::invalid_argument(fmt::format("--cpu-work must be > 0 seconds (got {})", *o.cpu_work));
  if (o.jobs_per_day && !(*o.jobs_per_day > 0))
    throw std::invalid_argument(fmt::format("--jobs-per-day must be > 0 (got {})", *o.jobs_per_day));
  if (o.load && !(*o.load > 0 && *o.load < 1.25))
    throw std::invalid_argument(fmt::format("--load must be a fraction in (0, 1.25) (got {})", *o.load));
  base::check_threads(o.threads);
  if (o.weeks <= 0 || o.weeks > kTalbyMaxWeeks)
    throw std::invalid_argument(fmt::format("--weeks must be in 1..{} (got {})", kTalbyMaxWeeks, o.weeks));
  if (o.jobs_per_day && o.load) {
    throw std::invalid_argument(
        "--jobs-per-day and --load are the same axis of the meta-model (Tables 24 and 26): give one of them");
  }
  if (!o.procs && !o.jobs_per_day && !o.load) {
    throw std::invalid_argument("give --procs, or --cpu-work with --jobs-per-day or --load (the meta-model's inputs)");
  }
  TalbyParameters p;
  if (o.jobs_per_day) {
    p.jobs_per_day = *o.jobs_per_day;
    p.jobs_per_day_from = "given";
    p.load = 2.2024 * std::pow(p.jobs_per_day, -0.2534);
    p.load_from = "Table 24";
  } else if (o.load) {
    p.load = *o.load;
    p.load_from = "given";
    p.jobs_per_day = 39.309 * std::pow(p.load, -2.9549);
    p.jobs_per_day_from = "Table 26";
  }
  if (o.procs) {
    p.procs = *o.procs;
    p.procs_from = "given";
  } else {
    const double procs = (p.jobs_per_day + 1.3102) / 0.3694;
    if (!(procs < INT32_MAX))
      throw std::invalid_argument(fmt::format(
          "{} jobs per day: Table 28 gives a machine of {:.4g} processors, past the SWF's 32-bit MaxProcs; give "
          "--procs",
          fmt_value(p.jobs_per_day), procs));
    p.procs = std::max<int64_t>(1, std::llround(procs));
    p.procs_from = "Table 28 (from the jobs per day)";
  }
  const auto ms = static_cast<double>(p.procs);
  if (p.jobs_per_day_from.empty()) {
    p.jobs_per_day = 0.3694 * ms - 1.3102;
    p.jobs_per_day_from = "Table 28";
    p.load = -0.09 * std::log(ms) + 1.1356;
    p.load_from = "Table 28";
    if (!(p.jobs_per_day > 0) || !(p.load > 0)) {
      throw std::invalid_argument(fmt::format(
          "--procs {}: Table 28 gives {:.1f} jobs per day and load {:.3f}; give --jobs-per-day or --load", p.procs,
          p.jobs_per_day, p.load));
    }
  }
  if (o.cpu_work) {
    p.cpu_work = *o.cpu_work;
    p.cpu_work_from = "given";
  } else {
    p.cpu_work = 361860 * std::pow(ms, -1.3417);
    p.cpu_work_from = "Table 28";
  }
  return p;
}

std::vector<std::string> talby_guideline_warnings(const TalbyOptions& o, const TalbyParameters& p) {
  std::vector<std::string> w;
  const auto name = [](const std::string& from, const char* option) {
    return from == "given" ? std::string(option) : fmt::format("{} (from {})", option, from);
  };
  if (p.procs < 100 || p.procs > 2048)
    w.push_back(fmt::format("{} {} is outside the model's range of 100-2,048 processors (thesis §14.1)",
                            name(p.procs_from, "--procs"), p.procs));
  if (p.load < 0.4 || p.load > 0.8)
    w.push_back(fmt::format("{} {:.3f} is outside the model's range of 40-80% load (thesis §14.1)",
                            name(p.load_from, "--load"), p.load));
  if (p.jobs_per_day < 80 || p.jobs_per_day > 300)
    w.push_back(fmt::format("{} {:.1f} is outside the model's range of 80-300 jobs per day (thesis §14.1)",
                            name(p.jobs_per_day_from, "--jobs-per-day"), p.jobs_per_day));
  // The thesis bounds the machine, not Cm; Table 28 maps its 100-2,048 processors to 13-750 s. Cm drives only
  // Table 30's user-class shares, whose lines leave [0, 1] soon past that (LTLU's share is 0 from ~2,400 s at
  // 60% load): a --cpu-work of 10,000 s or 1e300 s gave the same users, with no word that the model had ended.
  const double cm_low = 361860 * std::pow(2048.0, -1.3417), cm_high = 361860 * std::pow(100.0, -1.3417);
  if (p.cpu_work_from == "given" && (p.cpu_work < cm_low || p.cpu_work > cm_high))  // else --procs's warning
    w.push_back(fmt::format("{} {} s is outside the {:.0f}-{:.0f} s that Table 28 gives the model's 100-2,048 "
                            "processors (thesis §14.1); Table 30's user-class shares, its only use, are clipped "
                            "to [0, 1] there",
                            name(p.cpu_work_from, "--cpu-work"), fmt_value(p.cpu_work), cm_low, cm_high));
  if (o.weeks > 104)
    w.push_back(fmt::format("--weeks {} is beyond the model's guideline of at most two years (104 weeks; thesis "
                            "§14.1: generate several one-year logs instead)",
                            o.weeks));
  return w;
}

std::vector<std::string> talby_outcome_warnings(const TalbyParameters& p, const TalbyStats& st) {
  std::vector<std::string> w;
  const auto missed = [&](double generated, double target, const char* what, int digits) {
    if (!(target > 0) || !(generated >= 0)) return;
    const double ratio = generated / target;
    if (ratio >= 0.5 && ratio <= 2) return;
    w.push_back(fmt::format("the generated log's {} is {:.{}f}, {:.2g} times the meta-model's {:.{}f}: in Talby's "
                            "model the number of users follows the load (AUS), their sessions do not depend on the "
                            "machine, and a short log is still in its users' first weeks (docs/generate.md)",
                            what, generated, digits, ratio, target, digits));
  };
  missed(st.jobs_per_day, p.jobs_per_day, "number of jobs per day", 1);
  missed(st.offered_load, p.load, "offered load", 3);
  return w;
}

std::array<double, analysis::kUserClasses> talby_user_class_shares(double cm, double cl) {
  std::array<double, 4> s = {-26.2512e-5 * cm - 0.53006 * cl + 0.944925, 5.979147e-5 * cm + 0.45250 * cl - 0.084420,
                             21.47628e-5 * cm - 0.08845 * cl + 0.087351, -1.20394e-5 * cm + 0.16601 * cl + 0.052141};
  clip_and_normalise(s);
  return s;
}

double talby_inactivity(int64_t woa, UserClass uc) {
  if (woa <= 1) return 0;
  const auto [a, b] = kInactivity[ui(uc)];
  const double base = a * std::log(static_cast<double>(woa)) + b;
  double p = woa == 2 ? base - 0.18 : woa <= 5 ? base - 0.07 : std::min(base, 0.97);
  return std::clamp(p, 0.0, 1.0);
}

GeneralizedPareto talby_sessions_per_week(int64_t woa, UserClass uc) {
  GeneralizedPareto g;
  if (woa <= 1) {
    g.k = kFirstWeek[ui(uc)][0];
    g.sigma = kFirstWeek[ui(uc)][1];
  } else {
    const auto& t = kLaterWeeks[ui(uc)];
    const auto w = static_cast<double>(woa);
    g.k = t[0] * w + t[1];
    g.sigma = std::max(0.1, t[2] * w + t[3]);
  }
  return g;
}

std::array<double, analysis::kSessionClasses> talby_session_class_distribution(int64_t woa, UserClass uc,
                                                                                int previous) {
  const auto w = static_cast<double>(woa);
  ClassRow p = {-0.0022 * w + 0.5107, 0.0011 * w + 0.2437, 0.2161, 0.0006 * w + 0.0182, 0.0005 * w + 0.0113};
  const ClassRow& given = previous < 0 ? markov().given_user[ui(uc)]
                                       : markov().given_previous[ui(uc)][static_cast<size_t>(previous)];
  for (size_t c = 0; c < p.size(); ++c) p[c] += given[c] - kGlobalSessionShare[c];
  clip_and_normalise(p);
  return p;
}

std::array<double, 52> talby_startup_week_distribution(UserClass uc) {
  std::array<double, 52> p{};
  for (int64_t w = 1; w <= 52; ++w) {
    double none = 1;
    for (int64_t x = w; x <= w + 11; ++x) none *= talby_inactivity(x, uc);
    p[static_cast<size_t>(w - 1)] = 1 - none;
  }
  clip_and_normalise(p);
  return p;
}

namespace {

struct User {
  UserClass cls = UserClass::kLTLU;
  int64_t first_week = 0;  // week index in which its week of activity is 1 (negative: before the start)
  int previous = -1;       // class of its latest session
  int64_t last_end = INT64_MIN / 2;
};

struct UserJob {
  int64_t submit;
  int32_t runtime, size;
  int64_t sequence;  // within the user
  int32_t think;     // >= 0: it follows the user's previous job (TalbyJob::think)
};

struct UserOutput {
  std::vector<UserJob> jobs;
  int64_t sequences = 0;
  TalbyStats stats;  // the session-layer counters only
};

// The session and job layers of one user over all weeks (Listing 5's "for each active user" and
// GenerateWeeklySessions).
UserOutput generate_user_sessions(User u, base::Rng& rng, const TalbyJobModel& model, int64_t weeks, int64_t procs) {
  UserOutput out;
  TalbyStats& st = out.stats;
  std::vector<int> classes;
  std::vector<TalbySession> week_sessions;
  std::vector<size_t> order;
  for (int64_t week = std::max<int64_t>(0, u.first_week); week < weeks; ++week) {
    const int64_t week_start = week * kWeek;
    const int64_t woa = week - u.first_week + 1;
    if (woa > 1 && rng.uniform() < talby_inactivity(woa, u.cls)) continue;
    ++st.active_user_weeks;
    if (u.last_end > week_start + kWeek - kSessionGap) {  // an earlier session runs through the whole week
      ++st.blocked_weeks;
      continue;
    }
    int64_t n = draw_generalized_pareto(talby_sessions_per_week(woa, u.cls), rng);
    if (n > kMaxSessionsPerWeek) {
      n = kMaxSessionsPerWeek;
      ++st.sessions_capped;
    }
    bool placed = false;
    int class_draws = kClassDraws, attempts = kPlacementAttempts;
    while (n > 0 && !placed) {
      for (int draw = 0; draw < class_draws && !placed; ++draw) {
        if (draw > 0) ++st.class_redraws;
        classes.assign(static_cast<size_t>(n), 0);
        int prev = u.previous;
        for (int64_t i = 0; i < n; ++i) {
          prev = static_cast<int>(sample(talby_session_class_distribution(woa, u.cls, prev), rng));
          classes[static_cast<size_t>(i)] = prev;
        }
        // An attempt draws the sessions' starts first, keeping them sorted, then their jobs in start order, and
        // stops at the first collision: the sets accepted are Listing 5's (independent draws without a
        // collision), only the rest of a rejected set is not drawn. Sorted by start, a set is clear when
        // consecutive starts are 20 minutes apart, the first is 20 minutes after the user's last end, and each
        // session ends 20 minutes before the next one starts.
        for (int attempt = 0; attempt < attempts && !placed; ++attempt) {
          ++st.placement_attempts;
          week_sessions.clear();
          placed = true;
          for (int64_t i = 0; i < n && placed; ++i) {
            TalbySession s =
                draw_session_start(model, static_cast<SessionClass>(classes[static_cast<size_t>(i)]), week_start, rng);
            size_t at = week_sessions.size();
            while (at > 0 && week_sessions[at - 1].start > s.start) --at;
            const int64_t before = at > 0 ? week_sessions[at - 1].start : u.last_end;
            placed = s.start - before >= kSessionGap &&
                     (at == week_sessions.size() || week_sessions[at].start - s.start >= kSessionGap);
            if (placed) week_sessions.insert(week_sessions.begin() + static_cast<std::ptrdiff_t>(at), std::move(s));
          }
          // Jobs: the session with the least room before the next start first, where a collision is likeliest
          // (each session's test needs only its own jobs; the order changes nothing but the work of a rejection).
          if (placed) {
            order.resize(week_sessions.size());
            std::iota(order.begin(), order.end(), size_t{0});
            const auto room = [&](size_t i) {
              return i + 1 < week_sessions.size() ? week_sessions[i + 1].start - week_sessions[i].start : INT64_MAX;
            };
            std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return room(a) < room(b); });
          }
          for (size_t k = 0; placed && k < order.size(); ++k) {
            const size_t i = order[k];
            draw_session_jobs(model, week_sessions[i], procs, rng);
            if (i + 1 < week_sessions.size()) placed = week_sessions[i].end <= week_sessions[i + 1].start - kSessionGap;
          }
        }
      }
      if (!placed) {
        --n;
        ++st.sessions_dropped;
        // The week was too full: each smaller number of sessions gets one draw of classes and kRetryAttempts.
        class_draws = 1;
        attempts = kRetryAttempts;
      }
    }
    if (!placed) continue;
    for (const TalbySession& s : week_sessions) {  // sorted by start
      ++st.sessions;
      ++st.sessions_by_class[static_cast<size_t>(s.cls)];
      int64_t sequences = 0;
      for (const TalbyJob& j : s.jobs) {
        sequences = std::max(sequences, j.sequence + 1);
        out.jobs.push_back(UserJob{j.submit, j.runtime, j.size, out.sequences + j.sequence, j.think});
      }
      out.sequences += sequences;
      u.last_end = std::max(u.last_end, s.end);
    }
    u.previous = static_cast<int>(week_sessions.back().cls);
  }
  return out;
}

}  // namespace

std::vector<swf::Record> generate_talby(const TalbyOptions& options, const TalbyJobModel& model, TalbyStats* out) {
  const TalbyParameters p = resolve_talby_parameters(options);
  TalbyStats st;
  st.user_class_shares = talby_user_class_shares(p.cpu_work, p.load);
  std::array<std::array<double, 52>, 4> startup_weeks;
  for (size_t c = 0; c < 4; ++c) startup_weeks[c] = talby_startup_week_distribution(static_cast<UserClass>(c));

  base::Rng urng = base::Rng::stream(options.seed, 0);
  std::vector<User> users;
  std::vector<base::Rng> rngs;
  int previous_class = -1;
  const auto add_user = [&](int64_t first_week) {
    UserClass c;
    if (previous_class >= 0 && urng.uniform() < 0.1) {
      c = static_cast<UserClass>(previous_class);
    } else {
      c = static_cast<UserClass>(sample(st.user_class_shares, urng));
    }
    previous_class = static_cast<int>(c);
    User u;
    u.cls = c;
    u.first_week = first_week;
    ++st.users_by_class[ui(c)];
    rngs.push_back(base::Rng::stream(options.seed, 1 + users.size()));
    users.push_back(u);
  };
  const double aus = -543.37 * p.load + 481.77 + (urng.uniform() * 170.0 - 85.0);
  st.users_at_start = std::max<int64_t>(1, std::llround(aus));
  for (int64_t i = 0; i < st.users_at_start; ++i) {
    add_user(0);
    User& u = users.back();
    const auto w = static_cast<int64_t>(sample(startup_weeks[ui(u.cls)], urng)) + 1;
    u.first_week = 1 - w;  // week 0 is its week of activity w
  }

  // The user layer is drawn first (it needs no session): the users arriving in each week.
  for (int64_t week = 0; week < options.weeks; ++week) {
    const int64_t arrivals = draw_new_users(urng);
    st.new_users += arrivals;
    for (int64_t i = 0; i < arrivals; ++i) add_user(week);
  }

  // Session and job layers: each user from its own random stream, so users run on any number of threads and the
  // output is the same.
  std::vector<UserOutput> outputs(users.size());
  const auto run_user = [&](size_t ux) {
    outputs[ux] = generate_user_sessions(users[ux], rngs[ux], model, options.weeks, p.procs);
  };
  base::parallel_for(base::worker_threads(options.threads, users.size()), users.size(),
                     [&](size_t ux, unsigned) { run_user(ux); });

  struct Pending {
    int64_t submit;
    int32_t runtime, size, user;
    int64_t sequence;
    int64_t follows;  // the index (before sorting) of the job it follows, or -1
    int32_t think;
    int64_t index;    // its index before sorting
  };
  std::vector<Pending> jobs;
  size_t total_jobs = 0;
  for (const UserOutput& o : outputs) total_jobs += o.jobs.size();
  jobs.reserve(total_jobs);
  int64_t sequence_base = 0;
  for (size_t ux = 0; ux < outputs.size(); ++ux) {
    UserOutput& o = outputs[ux];
    for (const UserJob& j : o.jobs) {
      const auto index = static_cast<int64_t>(jobs.size());
      jobs.push_back(Pending{j.submit, j.runtime, j.size, static_cast<int32_t>(ux + 1), sequence_base + j.sequence,
                             j.think >= 0 ? index - 1 : -1, j.think, index});
    }
    sequence_base += o.sequences;
    st.active_user_weeks += o.stats.active_user_weeks;
    st.blocked_weeks += o.stats.blocked_weeks;
    st.sessions += o.stats.sessions;
    st.sessions_dropped += o.stats.sessions_dropped;
    st.sessions_capped += o.stats.sessions_capped;
    st.class_redraws += o.stats.class_redraws;
    st.placement_attempts += o.stats.placement_attempts;
    for (size_t c = 0; c < st.sessions_by_class.size(); ++c) st.sessions_by_class[c] += o.stats.sessions_by_class[c];
    o = UserOutput{};
  }
  st.sequences = sequence_base;
  const int64_t end_of_log = options.weeks * kWeek;

  // Ties keep the order above: by user, then the user's own order.
  std::stable_sort(jobs.begin(), jobs.end(), [](const Pending& a, const Pending& b) { return a.submit < b.submit; });
  std::vector<swf::Record> records;
  records.reserve(jobs.size());
  double work = 0;
  // Job numbers by index before sorting, for fields 17-18 (a job is sorted after the one it follows: its submit is
  // that one's plus runtime and think time, and ties keep the user's order).
  std::vector<int32_t> number(jobs.size(), -1);
  for (const Pending& j : jobs) {
    if (j.submit >= end_of_log) {
      ++st.jobs_after_end;
      continue;
    }
    swf::Record r;
    r.job_number = static_cast<int32_t>(records.size() + 1);
    number[static_cast<size_t>(j.index)] = r.job_number;
    if (j.follows >= 0) {
      r.preceding_job = number[static_cast<size_t>(j.follows)];
      r.think_time = j.think;
      ++st.following;
    }
    r.submit_time = static_cast<int32_t>(j.submit);
    r.run_time = j.runtime;
    r.allocated_procs = r.requested_procs = j.size;
    r.status = 1;
    r.user_id = j.user;
    r.executable = static_cast<int32_t>(std::min<int64_t>(j.sequence + 1, INT32_MAX));
    work += static_cast<double>(j.runtime) * j.size;
    records.push_back(r);
  }
  st.jobs = static_cast<int64_t>(records.size());
  if (!records.empty()) {
    // The random-shuffle assignment needs, for every k, the k-th longest estimate >= the k-th longest runtime; the
    // generated runtimes may hold more long jobs than the fitted share of T_max estimates allows: the model raises
    // the fewest estimates to T_max (model/tsafrir.h raise_to_cover), and both shares are reported.
    const nlohmann::json& params = model.estimates;
    st.tmax_share_fitted = params.contains("tmax_share") ? params["tmax_share"].get<double>() : 0.0;
    try {
      const GenerateReport rep = apply_estimate_model("tsafrir", params, records, options.seed);
      st.truncated_runtimes = rep.truncated_runtimes;
      st.raised_to_tmax = rep.raised_to_tmax;
    } catch (const ModelError& e) {  // say which model failed, and on what (the bare message named no option)
      throw ModelError(fmt::format("the job layer's estimates (Tsafrir's model fitted on {}) cannot be given to the {} "
                                   "generated jobs: {}; fit the job layer on another log, or save it "
                                   "(--save-job-model), change its estimates as said and generate from the file "
                                   "(--job-model)",
                                   model.source, records.size(), e.what()));
    }
    const int32_t t_max = tsafrir_params_from_json(params, 1, 0).t_max;
    const auto at_tmax =
        std::count_if(records.begin(), records.end(), [&](const swf::Record& r) { return r.requested_time == t_max; });
    st.tmax_share_used = 100.0 * static_cast<double>(at_tmax) / static_cast<double>(records.size());
    std::vector<int32_t> v;
    v.reserve(records.size());
    for (const auto& r : records) v.push_back(r.run_time);
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    st.runtime_median = v[v.size() / 2];
    v.clear();
    for (const auto& r : records) v.push_back(r.requested_procs);
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    st.size_median = v[v.size() / 2];
  }
  st.jobs_per_day = static_cast<double>(st.jobs) / (static_cast<double>(options.weeks) * 7.0);
  st.offered_load = work / (static_cast<double>(p.procs) * static_cast<double>(end_of_log));
  if (out != nullptr) *out = st;
  return records;
}

swf::Header talby_header(const TalbyOptions& o, const TalbyParameters& p, const TalbyJobModel& model,
                         const TalbyStats& st) {
  swf::Header h;
  h.add_line("; Version: 2.2");
  h.add_line("; Computer: synthetic (Talby's user/session workload model)");
  h.add_line(fmt::format("; UnixStartTime: {}", kTalbyUnixStart));
  h.add_line("; TimeZoneString: UTC");
  h.add_line("; StartTime: Mon Jan 02 00:00:00 UTC 2006");
  h.add_line(fmt::format("; MaxJobs: {}", st.jobs));
  h.add_line(fmt::format("; MaxRecords: {}", st.jobs));
  h.add_line(fmt::format("; MaxNodes: {}", p.procs));
  h.add_line(fmt::format("; MaxProcs: {}", p.procs));
  h.add_note(fmt::format("generated by schedlab {} generate talby: Talby's user/session workload model "
                         "(thesis §§10-13)", base::kVersion));
  h.add_note(fmt::format("procs {} ({}), cpu_work {} s ({}), jobs_per_day {} ({}), load {} ({}), weeks {}, seed {}",
                         p.procs, p.procs_from, fmt_value(p.cpu_work), p.cpu_work_from, fmt_value(p.jobs_per_day),
                         p.jobs_per_day_from, fmt_value(p.load), p.load_from, o.weeks, o.seed));
  h.add_note(fmt::format("job layer fitted on {} ({} processors, {} sessions, {} jobs); estimates: Tsafrir modal model",
                         model.source, model.procs, model.sessions, model.jobs));
  h.add_note(fmt::format("users {} at start + {} new (LTLU {}, LTHU {}, STWE {}, STWD {}); sessions {} (IWD {}, IWN {}, "
                         "IW {}, BHP {}, BHD {}), {} dropped",
                         st.users_at_start, st.new_users, st.users_by_class[0], st.users_by_class[1],
                         st.users_by_class[2], st.users_by_class[3], st.sessions, st.sessions_by_class[0],
                         st.sessions_by_class[1], st.sessions_by_class[2], st.sessions_by_class[3],
                         st.sessions_by_class[4], st.sessions_dropped));
  h.add_note(fmt::format("{:.1f} jobs per day, offered load {:.3f}", st.jobs_per_day, st.offered_load));
  h.add_note(fmt::format("fields 17-18: {} follow{} the end of their session's previous job by a think time (the "
                         "submit times assume no wait; simulate --feedback submits them after the simulated end)",
                         base::counted(st.following, "job"), st.following == 1 ? "s" : ""));
  return h;
}

nlohmann::ordered_json to_json(const TalbyOptions& o, const TalbyParameters& p, const TalbyJobModel& jm,
                               const TalbyStats& st) {
  nlohmann::ordered_json j;
  j["weeks"] = o.weeks;
  j["seed"] = o.seed;
  j["job_model"] = {{"source", jm.source}, {"procs", jm.procs}, {"sessions", jm.sessions}, {"jobs", jm.jobs}};
  j["parameters"] = {{"procs", p.procs},
                     {"procs_from", p.procs_from},
                     {"cpu_work", p.cpu_work},
                     {"cpu_work_from", p.cpu_work_from},
                     {"jobs_per_day", p.jobs_per_day},
                     {"jobs_per_day_from", p.jobs_per_day_from},
                     {"load", p.load},
                     {"load_from", p.load_from}};
  nlohmann::ordered_json uc = nlohmann::ordered_json::object(), share = nlohmann::ordered_json::object();
  for (size_t c = 0; c < 4; ++c) {
    const std::string name(analysis::user_class_name(static_cast<UserClass>(c)));
    uc[name] = st.users_by_class[c];
    share[name] = st.user_class_shares[c];
  }
  nlohmann::ordered_json sc = nlohmann::ordered_json::object();
  for (size_t c = 0; c < 5; ++c)
    sc[std::string(analysis::session_class_name(static_cast<SessionClass>(c)))] = st.sessions_by_class[c];
  j["users"] = {{"at_start", st.users_at_start}, {"new", st.new_users}, {"by_class", uc}, {"table30_shares", share}};
  j["sessions"] = {{"total", st.sessions},
                   {"by_class", sc},
                   {"active_user_weeks", st.active_user_weeks},
                   {"dropped", st.sessions_dropped},
                   {"capped_weeks", st.sessions_capped},
                   {"class_redraws", st.class_redraws},
                   {"placement_attempts", st.placement_attempts},
                   {"blocked_user_weeks", st.blocked_weeks}};
  j["jobs"] = {{"total", st.jobs},
               {"after_end", st.jobs_after_end},
               {"sequences", st.sequences},
               {"following", st.following},
               {"per_day", st.jobs_per_day},
               {"offered_load", st.offered_load},
               {"runtime_median", st.runtime_median},
               {"size_median", st.size_median},
               {"truncated_runtimes", st.truncated_runtimes},
               {"tmax_share_fitted", st.tmax_share_fitted},
               {"tmax_share_used", st.tmax_share_used},
               {"raised_to_tmax", st.raised_to_tmax}};
  std::vector<std::string> warnings = talby_guideline_warnings(o, p);
  for (auto& w : talby_outcome_warnings(p, st)) warnings.push_back(std::move(w));
  j["warnings"] = warnings;
  return j;
}

}  // namespace schedlab::model
