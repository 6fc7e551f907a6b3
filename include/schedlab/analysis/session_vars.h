// Per-session variables of the Talby thesis (Table 19 and §9.2.2; docs/analysis.md "User /
// session model"), for sessions built by trace::build_sessions.
//
// Definitions (Decisions where the thesis is silent):
// - J jobs; D duration = latest recorded end - first submit (seconds).
// - Rm/Ri runtime median / 90% interval (type-7 p95 - p5); runtimes < 0 count as 0.
// - Pm/Pi parallelism (job size) median / 90% interval, normalised to a 128-processor machine
//   (size x 128 / machine procs); an unknown size counts as 0, as an unknown runtime does.
// - Im/Ii inter-arrival times between the session's consecutive submits; Tm/Ti think times (submit minus
//   the previous job's recorded end, may be negative); both 0 for a one-job session.
// - UP/UR number of unique sizes / runtimes, values "unique" when more than 5% above the previous unique
//   value in ascending order.
// - SD (?D) 1 when the session starts in daytime 07:30-17:30 local time; PD (%D) the share of [start, end]
//   in daytime (= SD for a zero-length session). SW (?W) 1 when it starts Monday-Friday; PW (%W) share on
//   workdays. Local time: UnixStartTime + the header's TimeZoneString (UTC if absent); the UTC offset of
//   the session's start is used for the whole session.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "schedlab/swf/header.h"
#include "schedlab/swf/record.h"
#include "schedlab/trace/sessions.h"

namespace schedlab::analysis {

inline constexpr int kSessionVars = 16;
enum SessionVar { kJ, kD, kRm, kRi, kPm, kPi, kIm, kIi, kTm, kTi, kUP, kUR, kSD, kPD, kSW, kPW };
inline constexpr std::array<std::string_view, kSessionVars> kSessionVarNames = {
    "J", "D", "Rm", "Ri", "Pm", "Pi", "Im", "Ii", "Tm", "Ti", "UP", "UR", "SD", "PD", "SW", "PW"};

using SessionRow = std::array<double, kSessionVars>;

// Local-time helper: the UTC offset (seconds) at each of `times` (seconds from the log's start). Needs
// UnixStartTime in the header and a TimeZoneString, if any, that the time zone database knows (throws
// std::invalid_argument otherwise). Thread-safe: it sets TZ inside a base::ScopedTimeZone.
std::vector<int64_t> utc_offsets(const swf::Header& header, const std::vector<int64_t>& times);

// Share of [start, end] (local seconds since the epoch) in daytime 07:30-17:30 / on Monday-Friday.
double daytime_share(int64_t local_start, int64_t local_end);
double workday_share(int64_t local_start, int64_t local_end);
bool is_daytime(int64_t local);
bool is_workday(int64_t local);

// One row per session. `machine_procs` > 0.
std::vector<SessionRow> session_variables(const std::vector<swf::Record>& records, const swf::Header& header,
                                          const std::vector<trace::Session>& sessions, int64_t machine_procs);

}  // namespace schedlab::analysis
