// The HTML page of `schedlab report` (experiments/report.h render_report): the data as one JSON object, the
// plotting libraries inlined, and the Vega-Lite specs that draw the data. Nothing is computed here beyond laying
// out what report_data computed; the page loads no other resource.
#include <string>

#include "schedlab/base/version.h"
#include "schedlab/experiments/report.h"

#include "schedlab/base/json_text.h"
namespace schedlab::experiments {
namespace {

const char* kHead = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>schedlab report</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.5em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
section { margin-bottom: 2em; } .charts { display: flex; flex-wrap: wrap; gap: 1em; }
.chart { min-width: 300px; } .note { color: #666; font-size: .9em; }
table { border-collapse: collapse; } td, th { padding: .25em .7em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
</style>
<script>
)HTML";

const char* kBody = R"HTML(</head>
<body>
<h1 id="title"></h1>
<p class="note">Made by <code>schedlab report</code> (schedlab <span id="version"></span>). Every number on this
page is schedlab's (the same as its JSON outputs); the page only draws them.</p>
<div id="content"></div>
<script>
"use strict";
const D = JSON.parse(document.getElementById("schedlab-data").textContent);
window.schedlabViews = {};
const pending = [];
const content = document.getElementById("content");
document.getElementById("title").textContent = D.title;
document.getElementById("version").textContent = D.schedlab_version;

const esc = t => String(t).replace(/[&<>"']/g, ch => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[ch]);
function section(id, title, note) {
  const s = document.createElement("section");
  s.id = id;
  s.innerHTML = "<h2>" + esc(title) + "</h2>" + (note ? "<p class='note'>" + esc(note) + "</p>" : "") + "<div class='charts'></div>";
  content.appendChild(s);
  return s.querySelector(".charts");
}
function chart(parent, id, spec) {
  const div = document.createElement("div");
  div.className = "chart";
  div.id = id;
  parent.appendChild(div);
  spec.$schema = "https://vega.github.io/schema/vega-lite/v5.json";
  spec.width = spec.width || 400;
  spec.height = spec.height || 220;
  spec.config = {legend: {orient: "bottom", columns: 4}};  // two charts to a row, legends included
  pending.push(vegaEmbed("#" + id, spec, {renderer: "svg", actions: false})
    .then(r => { window.schedlabViews[id] = r.view; }));
}
const fmt = (v, d) => (v === null || v === undefined) ? "–" : Number(v).toLocaleString("en", {maximumFractionDigits: d});
// Exactly d decimals, for a table's column: "51.0%" under "48.6%", where fmt wrote "51%".
const fixed = (v, d) => (v === null || v === undefined) ? "–" :
  Number(v).toLocaleString("en", {minimumFractionDigits: d, maximumFractionDigits: d});
// "1 record", "2 records".
const count = (n, noun) => fmt(n) + " " + noun + (n === 1 ? "" : "s");
// A line over one time bin is a single point, which a bare line mark does not draw (`series`: lines drawn from
// the values, each with one point per bin).
const lineOver = (values, series = 1) => values.length > series ? "line" : {type: "line", point: true};
const per = h => h % 168 === 0 ? (h === 168 ? "week" : h / 168 + " weeks") :
                 h % 24 === 0 ? (h === 24 ? "day" : h / 24 + " days") : (h === 1 ? "hour" : h + " hours");
// Log bins are labelled at whole powers of ten only (and 0); when no bin starts at one (a log whose jobs all fall
// in one or a few bins), every bin is labelled: an axis without a label said nothing of where the jobs were.
const decadeLabel = "datum.value == 0 || abs(log(datum.value) / LN10 - round(log(datum.value) / LN10)) < 1e-6 ? " +
  "format(datum.value, '~s') : ''";
const everyLabel = "format(datum.value, '.3~s')";  // three digits: "178", not "177.828"
const isDecade = v => v === 0 || Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-6;
const barsOver = (values, field, title, xtitle, labelExpr) => ({
  title: title, data: {values: values},
  mark: "bar",
  encoding: {
    x: {field: "lo", type: "ordinal", sort: null, title: xtitle,
        axis: {labelExpr: labelExpr ?? (values.some(v => isDecade(v.lo)) ? decadeLabel : everyLabel)}},
    y: {field: "jobs", type: "quantitative", title: "jobs"},
    tooltip: [{field: "lo", title: "from", format: "~s"}, {field: "hi", title: "to", format: "~s"}, {field: "jobs"}]}
});

if (D.kind === "sweep") {
  const c = section("sweep", "Sweep: " + D.metric + " against " + D.x,
    fmt(D.rows) + " runs" + (D.failed_runs ? ", " + fmt(D.failed_runs) + " failed (left out)" : "") +
    ". One line per " + D.series_name + "; a point is the mean over its runs (seeds), the band their range.");
  if (D.warnings && D.warnings.length) {  // an x axis of one value, as the command line warns of it
    const p = document.createElement("p");
    p.className = "note";
    p.id = "sweep-warnings";
    p.textContent = "Warning: " + D.warnings.join(" ");
    c.parentNode.insertBefore(p, c);
  }
  const xEnc = {field: "x", type: D.x_numeric ? "quantitative" : "ordinal", title: D.x, sort: null};
  // The series are parameter lists ("user-last2:correction=tsafrir · false · easy"): two wide legend columns,
  // where the page's four narrow ones cut them off.
  const color = {field: "series", type: "nominal", title: D.series_name, sort: null,
                 legend: {columns: 2, labelLimit: 440, titleLimit: 880}};
  chart(c, "sweep-metric", {
    width: 900, height: 400, data: {values: D.points},
    layer: [{mark: {type: "area", opacity: 0.15}, encoding: {x: xEnc, y: {field: "min", type: "quantitative"},
                                                             y2: {field: "max"}, color: color}},
            {mark: {type: "line", point: true}, encoding: {
               x: xEnc, y: {field: "value", type: "quantitative", title: D.metric}, color: color,
               tooltip: [{field: "series"}, {field: "x", title: D.x}, {field: "value", title: D.metric},
                         {field: "min"}, {field: "max"}, {field: "runs"}]}}]});
} else {
  const W = D.workload, S = D.scheduling, sum = D.summary, T0 = D.time_origin;
  // Time on the x axis: dates (UTC) when the log has a UnixStartTime, else days from its time 0.
  const timeX = T0 === null ? {field: "day", type: "quantitative", title: "days from the log's start"}
                            : {field: "date", type: "temporal", title: null, scale: {type: "utc"}};
  const dated = values => T0 === null ? values : values.map(v => ({...v, date: (T0 + v.day * 86400) * 1000}));
  const w = section("workload", "Workload",
    count(sum.records, "record") + ", " + count(sum.valid_jobs, "job") + " that can be simulated on " +
    count(sum.machine.procs, "processor") + ", " + count(W.user_count, "user") + "; offered load " + fmt(sum.offered_load, 3) +
    ". Times of day in " + W.local_time + "." +
    // A preempted job's bursts are not jobs (docs/conventions.md): the page says how many lines that left out.
    (sum.read.partial_executions && sum.read.partial_executions.count > 0 && !sum.read.partial_executions.kept ?
         " " + count(sum.read.partial_executions.count, "partial-execution line") +
             " (a preempted job's bursts, after its summary line) left out." : ""));
  // The reader's warnings, as `stats` prints them: one job submitted before the line above it (a misdated job)
  // stretches every time axis of the page, and this says where it is.
  const warned = Object.entries(sum.read.warnings).filter(([, v]) => v.count > 0);
  const frame = D.warnings_at === "row";  // a log built in memory (a DataFrame): its warnings count 1-based rows
  const where = " (first at " + D.warnings_at + " ";
  if (warned.length) {
    const p = document.createElement("p");
    p.className = "note";
    p.id = "read-warnings";
    p.textContent = "The reader warned: " +
      warned.map(([k, v]) => k + " " + fmt(v.count) + (v.first_line > 0 ? where + v.first_line + ")" : "")).join("; ") +
      (frame ? " (schedlab.stats(df)['read'])." : " (schedlab stats).");
    w.parentNode.insertBefore(p, w);
  }
  const flurryRules = dated(W.flurries.map(f => ({day: f.day, user: f.user, jobs: f.jobs})));
  const overTime = {
    title: "Jobs per " + per(W.bin_hours) + (W.flurries.length ? " (flurries marked red)" : " (no flurry found)"),
    layer: [{data: {values: dated(W.over_time)}, mark: lineOver(W.over_time), encoding: {
              x: timeX,
              y: {field: "jobs", type: "quantitative"}}}]};
  if (flurryRules.length)
    overTime.layer.push({data: {values: flurryRules}, mark: {type: "rule", color: "red"},
                         encoding: {x: timeX, tooltip: [{field: "user"}, {field: "jobs"}]}});
  chart(w, "w-jobs", overTime);
  chart(w, "w-load", {title: "Offered load per " + per(W.bin_hours), data: {values: dated(W.over_time)},
    mark: lineOver(W.over_time),
    encoding: {x: timeX,
               y: {field: "load", type: "quantitative", title: "load"}}});
  chart(w, "w-daily", {title: "Daily cycle: jobs per hour of the day", data: {values: W.hour_of_day}, mark: "bar",
    encoding: {x: {field: "hour", type: "ordinal"}, y: {field: "jobs", type: "quantitative"}}});
  chart(w, "w-weekly", {title: "Weekly cycle: jobs per day of the week", data: {values: W.day_of_week}, mark: "bar",
    encoding: {x: {field: "day", type: "ordinal", sort: {field: "order"}}, y: {field: "jobs", type: "quantitative"}}});
  // A distribution with no value (one job has no inter-arrival; a log may record no runtime or size) gets no
  // chart rather than an empty frame.
  if (W.distributions.runtime.length)
    chart(w, "w-runtime", barsOver(W.distributions.runtime, "lo", "Runtime (s, log bins)", "runtime from (s)"));
  if (W.distributions.size.length)
    chart(w, "w-size", barsOver(W.distributions.size, "lo", "Size (processors, powers of two)", "processors from",
                                  "format(datum.value, '~s')"));
  if (W.distributions.interarrival.length)
    chart(w, "w-interarrival", barsOver(W.distributions.interarrival, "lo", "Inter-arrival time (s, log bins)",
                                        "seconds from"));
  if (W.distributions.estimate.length) {
    chart(w, "w-estimate", barsOver(W.distributions.estimate, "lo", "User estimate (s, log bins)", "estimate from (s)"));
    chart(w, "w-accuracy", {title: "Estimate accuracy: runtime / estimate", data: {values: W.estimate_accuracy},
      mark: "bar", encoding: {x: {field: "label", type: "ordinal", sort: null, title: "runtime / estimate from"},
                              y: {field: "jobs", type: "quantitative"}}});
    chart(w, "w-popular", {title: "The 10 most popular estimates", data: {values: W.popular_estimates}, mark: "bar",
      encoding: {y: {field: "estimate", type: "ordinal", sort: "-x", title: "estimate (s)"},
                 x: {field: "jobs", type: "quantitative"}}});
  }
  if (W.locality && W.locality.slices.length) {
    chart(w, "w-locality", {title: "Locality of sampling: runtime's deviation m per 3-day slice",
      layer: [{data: {values: dated(W.locality.slices)}, mark: "line",
               encoding: {x: timeX, y: {field: "m", type: "quantitative", title: "m of the slice"}}},
              {data: {values: [{v: W.locality.m_med, what: "M'med of the log: " + fmt(W.locality.m_med, 3)},
                               {v: W.locality.baseline, what: "random sampling (bootstrap): " + fmt(W.locality.baseline, 3)}]},
               mark: {type: "rule", strokeDash: [4, 4]},
               encoding: {y: {field: "v", type: "quantitative"},
                          color: {field: "what", type: "nominal", title: "median over the slices",
                                  scale: {range: ["black", "gray"]},
                                  legend: {orient: "bottom", labelLimit: 400}}}}]});  // the values, not cut
  }
  chart(w, "w-users", {title: "Users' share of the jobs (the 20 busiest)", data: {values: W.users}, mark: "bar",
    encoding: {x: {field: "user", type: "ordinal", sort: {field: "rank"}, title: null},
               y: {field: "jobs", type: "quantitative"}}});
  if (W.classes) {
    chart(w, "w-sessions", {title: "Session classes (" + fmt(W.classes.sessions) + " sessions, k-means)",
      data: {values: W.classes.session_classes}, mark: "bar",
      encoding: {x: {field: "class", type: "ordinal", sort: null}, y: {field: "share", type: "quantitative", axis: {format: "%"}}}});
    chart(w, "w-userclasses", {title: "User classes (" + fmt(W.classes.users) + " users, k-means)",
      data: {values: W.classes.user_classes}, mark: "bar",
      encoding: {x: {field: "class", type: "ordinal", sort: null}, y: {field: "share", type: "quantitative", axis: {format: "%"}}}});
  }

  const timeline = dated(S.timeline);
  // Arrivals scaled to another load (report --load / --arrival-scale): the schedules' clock is not the log's.
  const scaled = S.arrival_scale !== undefined && S.arrival_scale !== 1 ?
      " Inter-arrival times x " + fmt(S.arrival_scale, 4) + ": offered load " + fmt(S.offered_load, 3) + " (the log's " +
          fmt(S.offered_load_before, 3) + "); the dates below are on that clock." : "";
  const s = section("scheduling", "Scheduling",
                    "On " + fmt(S.procs) + " processors, predictor " + S.predictor + ": " + count(S.jobs, "job") +
                    " simulated of " + count(S.records, "record") + "." + scaled +
                    (S.warmup_excluded > 0 ? " Warm-up: the first " + count(S.warmup_excluded, "job") + " to end " +
                        (S.warmup_excluded === 1 ? "is" : "are") +
                        " left out of the table, the wait CDF, the charts by job class" +
                        (S.accuracy && S.accuracy.length ? " and the prediction accuracy." : ".") : "") +
                    (S.bsld_tau !== undefined && S.bsld_tau !== 10 ?
                        " Bounded slowdown with a threshold of " + fmt(S.bsld_tau) + " s." : ""));
  if (S.notes && S.notes.length) {  // the jobs left out, without an estimate, naming a preceding job: as simulate says
    const p = document.createElement("p");
    p.className = "note";
    p.id = "sim-notes";
    p.textContent = "Note: " + S.notes.join("; ") + ".";
    s.parentNode.insertBefore(p, s);
  }
  if (S.warnings && S.warnings.length) {  // what the results say about how they were asked for
    const p = document.createElement("p");
    p.className = "note";
    p.id = "sim-warnings";
    p.textContent = "Warning: " + S.warnings.join(" ");
    s.parentNode.insertBefore(p, s);
  }
  const table = document.createElement("table");
  table.id = "summary-table";
  table.innerHTML = "<tr><th>scheduler</th><th>mean wait (s)</th><th>median wait</th><th>90th pct wait</th>" +
    "<th>mean response (s)</th><th>mean bounded slowdown</th><th>utilization</th><th>backfilled</th>" +
    "<th>loss of capacity</th></tr>" +
    S.summary.map(r => "<tr><td>" + esc(r.scheduler) + "</td><td>" + fmt(r.wait_mean, 0) + "</td><td>" + fmt(r.wait_median, 0) +
      "</td><td>" + fmt(r.wait_p90, 0) + "</td><td>" + fmt(r.response_mean, 0) + "</td><td>" +
      fixed(r.bounded_slowdown_mean, 2) + "</td><td>" + fixed(r.utilization, 3) + "</td><td>" +
      fixed(100 * r.backfilled_share, 1) + "%</td><td>" + fixed(100 * r.loss_of_capacity, 1) + "%</td></tr>").join("");
  s.parentNode.insertBefore(table, s);
  const timelineMark = lineOver(timeline, S.summary.length);
  chart(s, "s-queue", {title: "Queue length (time-averaged per " + per(S.bin_hours) + ")", data: {values: timeline},
    mark: timelineMark, encoding: {x: timeX,
                             y: {field: "queue", type: "quantitative", title: "waiting jobs"},
                             color: {field: "scheduler", type: "nominal"}}});
  chart(s, "s-utilization", {title: "Utilization (per " + per(S.bin_hours) + ")", data: {values: timeline},
    mark: timelineMark, encoding: {x: timeX,
                             y: {field: "utilization", type: "quantitative"},
                             color: {field: "scheduler", type: "nominal"}}});
  // Per month, for the wait and the bounded slowdown: the means, and each scheduler's deviation from the month's
  // mean over the schedulers (Talby's Figure 7).
  const monthly = (suffix, field, name, unit) => {
    chart(s, "s-monthly-" + suffix, {title: "Mean " + name + " per month", data: {values: S.monthly},
      mark: {type: "line", point: true},
      encoding: {x: {field: "month", type: "ordinal"}, y: {field: field, type: "quantitative", title: name + unit},
                 color: {field: "scheduler", type: "nominal"}}});
    chart(s, suffix === "wait" ? "s-deviation" : "s-deviation-" + suffix,
      {title: name[0].toUpperCase() + name.slice(1) + ": deviation from the month's mean over the schedulers" +
              (suffix === "wait" ? " (Talby Fig. 7)" : ""),
       data: {values: S.monthly}, mark: "bar",
       encoding: {x: {field: "month", type: "ordinal"}, xOffset: {field: "scheduler"},
                  y: {field: field + "_deviation", type: "quantitative", title: name + " deviation", axis: {format: "%"}},
                  color: {field: "scheduler", type: "nominal"}}});
  };
  monthly("wait", "wait", "wait", " (s)");
  monthly("bsld", "bsld", "bounded slowdown", "");
  // Who gains and who pays: each job class's mean under each scheduler (simulate --by-class).
  const L = S.by_class_limits;
  const classAxis = "class (share of the jobs): short <= " + L.limits.split(",")[0] + ", narrow <= " + L.narrow_procs +
    (L.narrow_procs == 1 ? " processor" : " processors");
  const classes = S.by_class.map(c => ({...c, label: c.class + " (" + fmt(100 * c.share, 0) + "%)"}));
  chart(s, "s-class-wait", {title: "Mean wait by job class", data: {values: classes}, mark: "bar",
    encoding: {x: {field: "label", type: "nominal", sort: null, title: classAxis, axis: {labelAngle: 0}},
               xOffset: {field: "scheduler"}, y: {field: "wait_mean", type: "quantitative", title: "mean wait (s)"},
               color: {field: "scheduler", type: "nominal"}}});
  chart(s, "s-class-bsld", {title: "Mean bounded slowdown by job class", data: {values: classes}, mark: "bar",
    encoding: {x: {field: "label", type: "nominal", sort: null, title: classAxis, axis: {labelAngle: 0}},
               xOffset: {field: "scheduler"},
               y: {field: "bounded_slowdown_mean", type: "quantitative", title: "mean bounded slowdown"},
               color: {field: "scheduler", type: "nominal"}}});
  chart(s, "s-cdf", {title: "Wait time CDF", data: {values: S.wait_cdf.map(p => ({...p, wait1: p.wait + 1}))},
    mark: "line", encoding: {x: {field: "wait1", type: "quantitative", scale: {type: "log"}, title: "wait + 1 (s)"},
                             y: {field: "fraction", type: "quantitative"}, color: {field: "scheduler", type: "nominal"}}});
  if (S.accuracy.length) {
    chart(s, "s-accuracy", {title: "Prediction accuracy of " + S.predictor + " (runtime / prediction, mean and median)",
      data: {values: S.accuracy.flatMap(a => [{scheduler: a.scheduler, statistic: "mean", value: a.relative_accuracy.mean},
                                               {scheduler: a.scheduler, statistic: "median", value: a.relative_accuracy.median}])},
      mark: "bar", encoding: {x: {field: "scheduler", type: "nominal"}, xOffset: {field: "statistic"},
                              y: {field: "value", type: "quantitative", title: "relative accuracy"},
                              color: {field: "statistic", type: "nominal"}}});
  }
}

// Marks drawn per chart, one count per mark (layer) of its Vega scenegraph, axes, legends and titles left out. The
// browser test requires every count to be positive: a chart, or a layer of it, with no data is a failure.
window.schedlabMarkCounts = function () {
  const counts = {};
  for (const [id, view] of Object.entries(window.schedlabViews)) {
    const layers = [];
    (function walk(item) {
      if (!item) return;
      if (item.role === "mark" && item.marktype !== "group") layers.push((item.items || []).length);
      (item.items || []).forEach(walk);
    })(view.scenegraph().root);
    counts[id] = layers;
  }
  return counts;
};
Promise.all(pending).then(() => { window.schedlabReady = true; },
                          e => { console.error(e); window.schedlabReady = "error: " + e; });
</script>
</body></html>
)HTML";

// JSON inside <script type="application/json">: "</" must not appear as such.
std::string script_safe(std::string s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<' && i + 1 < s.size() && s[i + 1] == '/') {
      out += "<\\/";
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

// JavaScript inline: only "</script" would end the element early (in a string or regex literal; "<\/" means the
// same there).
std::string script_safe_code(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<' && i + 7 < s.size() && s[i + 1] == '/' &&
        (s.compare(i + 2, 6, "script") == 0 || s.compare(i + 2, 6, "SCRIPT") == 0)) {
      out += "<\\/";
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

std::string render_report(const nlohmann::json& data, const std::string& libraries) {
  std::string page = kHead;
  page += script_safe_code(libraries);
  page += "\n</script>\n<script type=\"application/json\" id=\"schedlab-data\">";
  nlohmann::json with_version = data;
  with_version["schedlab_version"] = base::kVersion;  // which schedlab drew it, for whoever reads the page later
  page += script_safe(base::json_text(with_version));
  page += "</script>\n";
  page += kBody;
  return page;
}

}  // namespace schedlab::experiments
