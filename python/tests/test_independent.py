"""The library's analyses against independent implementations in pandas/NumPy, over whole real logs: each
definition (include/schedlab/analysis/*.h) written again from its text, without the library's code, so that a
wrong bin, a job counted twice or a sign error in either shows as a difference."""
import os

import numpy as np
import pandas as pd
import pytest

import schedlab

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACES = os.path.join(ROOT, "..", "shared", "traces")
KTH = os.path.join(ROOT, "data", "KTH-SP2-1996-2.swf.gz")


def whole(x):
    """Whole seconds as the library takes a fraction: rounded half away from zero (pandas' round is half to even)."""
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def logs():
    """The bundled KTH, and two shared logs with unknown values (-1 runtimes, sizes) when they are there."""
    out = [KTH]
    for name in ("SDSC-Par-1996-3.1-cln.swf.gz", "LANL-CM5-1994-4.1-cln.swf.gz"):
        p = os.path.join(TRACES, name)
        if os.path.exists(p):
            out.append(p)
    return out


def attribute(df, name):
    """(submit times, values) of a per-job attribute, as analysis/attribute.h defines it: jobs with a known
    submit time in stable submit order; runtime = field 4 when >= 0; procs = requested processors when > 0,
    else allocated, known when > 0; cpu = runtime x procs; interarrival = the submit time minus the previous
    job's (unknown for the first); a job whose value is unknown is left out."""
    d = df[df.submit_time >= 0].sort_values("submit_time", kind="stable")
    submit = whole(d.submit_time.to_numpy(np.float64)).astype(np.int64)
    runtime = whole(d.run_time.to_numpy(np.float64))
    size = np.where(d.requested_procs > 0, d.requested_procs, d.allocated_procs).astype(np.float64)
    if name == "jobs":
        return submit, np.ones(len(submit))
    if name == "runtime":
        keep = runtime >= 0
        return submit[keep], runtime[keep]
    if name == "procs":
        keep = size > 0
        return submit[keep], size[keep]
    if name == "cpu":
        keep = (runtime >= 0) & (size > 0)
        return submit[keep], (runtime * size)[keep]
    assert name == "interarrival"
    return submit[1:], np.diff(submit).astype(np.float64)


def acf(origin, times, values, width, lag, count):
    """Autocorrelation at `lag` of bins of `width` s from `origin` (temporal.h): for jobs the count per bin, every
    bin present; otherwise the mean per bin, empty bins absent. Mean and variance over the present bins; the
    products over the pairs (t, t + lag) both present, divided by the number of pairs."""
    frame = pd.DataFrame({"bin": (times - origin) // width, "v": values})
    nbins = int((times.max() - origin) // width) + 1
    if count:
        series = frame.groupby("bin").v.size().reindex(range(nbins), fill_value=0).astype(float)
    else:
        series = frame.groupby("bin").v.mean().reindex(range(nbins))  # NaN = absent
    x = series.to_numpy()
    present = ~np.isnan(x)
    mean = x[present].mean()
    var = ((x[present] - mean) ** 2).sum() / present.sum()
    a, b = x[:-lag], x[lag:]
    pairs = ~np.isnan(a) & ~np.isnan(b)
    if pairs.sum() == 0 or var == 0:
        return float("nan")
    return float(((a[pairs] - mean) * (b[pairs] - mean)).sum() / pairs.sum() / var)


@pytest.mark.parametrize("path", logs(), ids=os.path.basename)
def test_temporal_autocorrelations_equal_an_independent_computation(path):
    df, _ = schedlab.read_swf(path)
    got = schedlab.temporal(df, hurst=False)
    origin = int(df.submit_time[df.submit_time >= 0].min())
    assert got["jobs"] == int((df.submit_time >= 0).sum())
    cells = {("locality", "lag1_15m"): (900, 1), ("locality", "lag1_150m"): (9000, 1),
             ("daily", "lag_12h"): (21600, 2), ("daily", "lag_24h"): (21600, 4), ("weekly", "lag_7d"): (86400, 7)}
    for series in ("runtime", "procs", "cpu", "interarrival", "jobs"):
        times, values = attribute(df, series)
        for (group, key), (width, lag) in cells.items():
            want = acf(origin, times, values, width, lag, series == "jobs")
            assert got["series"][series][group][key] == pytest.approx(want, rel=1e-9, abs=1e-12), \
                (series, group, key)


def log_levels(lo, hi, count=20):
    """Up to `count` distinct log-spaced integers in [lo, hi] (analysis/hurst.h)."""
    if hi < lo:
        return []
    return sorted(set(int(np.floor(v + 0.5)) for v in np.exp(np.linspace(np.log(lo), np.log(hi), count))))


def slope(x, y):
    return float(np.polyfit(np.asarray(x, float), np.asarray(y, float), 1)[0]) if len(x) >= 3 else float("nan")


def hurst_variance_time(x, lo=100, hi=50000):
    """log Var(X^(m)) against log m over non-overlapping blocks of m values: slope -beta, H = 1 - beta / 2."""
    lx, ly = [], []
    for m in log_levels(lo, min(hi, len(x) // 10)):
        var = x[:len(x) // m * m].reshape(-1, m).mean(axis=1).var()
        if var > 0:
            lx.append(np.log(m))
            ly.append(np.log(var))
    return 1 + slope(lx, ly) / 2


def hurst_rs(x, lo=100, hi=50000):
    """The mean R/S over non-overlapping blocks of n values (blocks without spread left out) against n, log-log."""
    lx, ly = [], []
    for n in log_levels(max(lo, 2), min(hi, len(x) // 2)):
        blocks = x[:len(x) // n * n].reshape(-1, n)
        dev = blocks - blocks.mean(axis=1, keepdims=True)
        w = np.cumsum(dev, axis=1)
        r = np.maximum(w.max(axis=1), 0) - np.minimum(w.min(axis=1), 0)
        sd = np.sqrt((dev ** 2).mean(axis=1))
        rs = r[sd > 0] / sd[sd > 0]
        if len(rs) and rs.sum() > 0:
            lx.append(np.log(n))
            ly.append(np.log(rs.mean()))
    return slope(lx, ly)


def hurst_periodogram(x, fraction=0.1):
    """The periodogram's slope s over the lowest 10% of the frequencies of the longest 5-smooth prefix, log-log:
    H = (1 - s) / 2."""
    def smooth(n):
        for p in (2, 3, 5):
            while n % p == 0:
                n //= p
        return n == 1
    n = len(x)
    while n > 0 and not smooth(n):
        n -= 1
    y = x[:n] - x[:n].mean()
    top = max(3, int(fraction * n / 2))
    j = np.arange(1, top + 1)
    power = np.abs(np.fft.rfft(y)[1:top + 1]) ** 2 / (2 * np.pi * n)
    keep = power > 0
    return (1 - slope(np.log(2 * np.pi * j[keep] / n), np.log(power[keep]))) / 2


@pytest.mark.parametrize("path", logs(), ids=os.path.basename)
def test_hurst_estimates_equal_an_independent_computation(path):
    """temporal.h's self-similarity: 1-minute bins from the first submit, the jobs per minute and the sums of
    runtime, procs and cpu per minute (0 when none), the inter-arrival times in job order; each through the three
    estimators of analysis/hurst.h written again in NumPy (np.fft for the periodogram), and their average."""
    df, _ = schedlab.read_swf(path)
    got = schedlab.temporal(df)["series"]
    origin = int(df.submit_time[df.submit_time >= 0].min())
    for series in ("runtime", "procs", "cpu", "interarrival", "jobs"):
        times, values = attribute(df, series)
        if series == "interarrival":
            x = values
        else:
            span = int((attribute(df, "jobs")[0].max() - origin) // 60) + 1
            x = np.bincount((times - origin) // 60, weights=values, minlength=span).astype(float)
        want = {"variance_time": hurst_variance_time(x), "rs": hurst_rs(x), "periodogram": hurst_periodogram(x)}
        want["average"] = float(np.nanmean(list(want.values())))
        for key, value in want.items():
            assert got[series]["hurst"][key] == pytest.approx(value, rel=1e-7), (series, key)
        assert 0.3 < want["average"] < 1.1  # a real log's series: long-range dependent, near the thesis's .67-.77


def sessions_of(df, procs, threshold=1200):
    """Sessions as trace/sessions.h defines them, and their variables as analysis/session_vars.h does: per user
    (known submit and user) the jobs in stable submit order; a new session at the user's first job or when submit -
    the previous job's recorded end >= threshold (end = submit + wait + runtime, unknown parts 0). One row per
    session, ordered by (start, user): user, start, J, D, the medians and 5-95% widths (type 7) of runtime and of
    size x 128 / procs (unknown ones as 0), the medians of inter-arrival and think times (0 for one job)."""
    d = df[(df.submit_time >= 0) & (df.user_id >= 0)].sort_values("submit_time", kind="stable")
    d = d.assign(end=d.submit_time + whole(d.wait_time.clip(lower=0)) + whole(d.run_time.clip(lower=0)),
                 runtime=whole(d.run_time.clip(lower=0)).astype(float),
                 size=np.where(d.requested_procs > 0, d.requested_procs, d.allocated_procs).clip(min=0) * 128.0 / procs)
    d = d.sort_values(["user_id", "submit_time"], kind="stable")
    by_user = d.groupby("user_id", sort=False)
    d["interarrival"] = d.submit_time - by_user.submit_time.shift()
    d["think"] = d.submit_time - by_user.end.shift()
    d["session"] = (d.think.isna() | (d.think >= threshold)).cumsum()
    g = d.groupby("session")
    rows = pd.DataFrame({"user": g.user_id.first(), "start": g.submit_time.first(), "J": g.size(),
                         "D": g.end.max() - g.submit_time.first(), "Rm": g.runtime.median(),
                         "Ri": g.runtime.quantile(0.95) - g.runtime.quantile(0.05), "Pm": g["size"].median(),
                         "Pi": g["size"].quantile(0.95) - g["size"].quantile(0.05)})
    # Inter-arrival and think times within a session: the session's first job has none.
    inner = d[d.session == d.session.shift()].groupby("session")
    rows["Im"] = inner.interarrival.median().reindex(rows.index, fill_value=0.0)
    rows["Ii"] = (inner.interarrival.quantile(0.95) - inner.interarrival.quantile(0.05)).reindex(rows.index,
                                                                                                 fill_value=0.0)
    rows["Tm"] = inner.think.median().reindex(rows.index, fill_value=0.0)
    rows["Ti"] = (inner.think.quantile(0.95) - inner.think.quantile(0.05)).reindex(rows.index, fill_value=0.0)

    def unique(values):
        """Values more than 5% above the previous unique one, ascending (exactly: 21 is not more than 5% above
        20)."""
        count, last = 0, None
        for v in sorted(values):
            if last is None or v * 100 > last * 105:
                count, last = count + 1, v
        return count
    raw_size = np.where(d.requested_procs > 0, d.requested_procs, d.allocated_procs).clip(min=0)
    d["raw_size"] = raw_size.astype(np.int64)
    d["raw_runtime"] = whole(d.run_time.clip(lower=0)).astype(np.int64)
    rows["UP"] = g.raw_size.agg(unique)
    rows["UR"] = g.raw_runtime.agg(unique)
    rows["end"] = g.end.max()
    rows["first_estimate"] = g.apply(lambda x: x.requested_time.iloc[0] if x.requested_time.iloc[0] > 0
                                     else x.run_time.iloc[0])
    rows["first_size"] = g.raw_size.first()
    return rows.sort_values(["start", "user"], kind="stable").reset_index(drop=True)


def local_share(start, end, inside):
    """Share of [start, end] (local seconds) in the parts `inside(day)` gives for each day ([lo, hi) offsets in
    the day, or None); the start's own state for a zero-length span."""
    if end <= start:
        lo_hi = inside(start // 86400)
        return float(lo_hi is not None and lo_hi[0] <= start % 86400 < lo_hi[1])
    covered = 0
    for day in range(start // 86400, end // 86400 + 1):
        lo_hi = inside(day)
        if lo_hi is None:
            continue
        lo, hi = max(start, day * 86400 + lo_hi[0]), min(end, day * 86400 + lo_hi[1])
        covered += max(0, hi - lo)
    return covered / (end - start)


def workday(day):
    return (day + 3) % 7 < 5  # day 0, 1970-01-01, was a Thursday (3 = Monday-based index)


@pytest.mark.parametrize("path", logs(), ids=os.path.basename)
def test_session_variables_equal_an_independent_computation(path):
    df, header = schedlab.read_swf(path)
    summary, rows, _ = schedlab.sessions((df, header), rows=True)
    procs = schedlab.stats((df, header))["machine"]["procs"]
    assert summary["logs"][0]["machine_procs"] == procs
    want = sessions_of(df, procs)
    assert len(rows) == len(want)
    zone = next((l.split(":", 1)[1].strip() for l in header if "TimeZoneString" in l), "UTC")
    unix_start = int(next(l.split(":", 1)[1] for l in header if "UnixStartTime" in l))
    local = pd.to_datetime(unix_start + want.start, unit="s", utc=True).dt.tz_convert(zone)
    minute = local.dt.hour * 60 + local.dt.minute
    want["SD"] = ((minute >= 7 * 60 + 30) & (minute < 17 * 60 + 30)).astype(int)  # starts in daytime, local
    want["SW"] = (local.dt.dayofweek < 5).astype(int)  # starts Monday to Friday
    # Shares of [start, end] in daytime and on workdays, in local seconds with the start's UTC offset throughout.
    offset = local.apply(lambda t: int(t.utcoffset().total_seconds()))
    local_start = (unix_start + want.start + offset).astype(np.int64)
    local_end = (unix_start + want.end + offset).astype(np.int64)
    daytime = lambda day: (7 * 3600 + 1800, 17 * 3600 + 1800)
    want["PD"] = [local_share(a, b, daytime) for a, b in zip(local_start, local_end)]
    want["PW"] = [local_share(a, b, lambda day: (0, 86400) if workday(day) else None)
                  for a, b in zip(local_start, local_end)]
    # The online classifier (§9.6) from the session's first job: estimate above half the longest runtime the
    # header allows (else the longest estimate) BHD; size above half the machine BHP; then weekend IW, workday
    # daytime IWD, else IWN.
    limit = next((int(l.split(":", 1)[1]) for l in header if l.lstrip("; ").startswith("MaxRuntime:")), 0)
    if limit <= 0:
        limit = int(np.where(df.requested_time > 0, df.requested_time, df.run_time).max())
    online = np.where(2 * want.first_estimate > limit, "BHD",
                      np.where(2 * want.first_size > procs, "BHP",
                               np.where(want.SW == 0, "IW", np.where(want.SD == 1, "IWD", "IWN"))))
    assert schedlab.sessions((df, header), rows=True, online=True)[1].online_class.tolist() == online.tolist()
    for key in want.columns.drop(["end", "first_estimate", "first_size"]):
        np.testing.assert_allclose(rows[key].to_numpy(float), want[key].to_numpy(float), rtol=1e-9, atol=1e-9,
                                   err_msg=key)


def test_compare_equals_an_independent_computation_from_each_schedule():
    """`compare` (experiments/compare.h) recomputed from each scheduler's per-job schedule (simulate().jobs) and the
    log: 30-day periods from the first submit, each period's attributes (type-7 quartiles), the per-period means
    of wait and bounded slowdown, periods won, gaps, gains against the baseline (the last listed), correlations."""
    names = ["easy", "fcfs", "conservative", "maui"]  # maui with its defaults is EASY: every period a shared best
    got = schedlab.compare(KTH, names)
    df, _ = schedlab.read_swf(KTH)
    period = 30 * 86400
    jobs = {}
    for name in names:
        j = schedlab.simulate(KTH, name).jobs
        assert (j.submit.to_numpy() == df.submit_time.to_numpy()).all()  # KTH: every record a job, in log order
        jobs[name] = j.assign(user=df.user_id.to_numpy(), period=(j.submit - j.submit.min()) // period,
                              w=j.start - j.submit,
                              bsld=np.maximum(1.0, (j.end - j.submit) / np.maximum(j.end - j.start, 10)))
    base = jobs[names[0]]
    periods = sorted(base.period.unique())
    assert [p["index"] for p in got["periods"]] == periods

    def quartiles(x):
        q1, q2, q3 = np.percentile(x, [25, 50, 75])
        return q2, q3 - q1

    means = {m: {n: np.array([jobs[n][jobs[n].period == p][m].mean() for p in periods]) for n in names}
             for m in ("w", "bsld")}
    attributes = {k: [] for k in ("jobs", "users", "load", "runtime", "procs", "work", "interarrival")}
    for p, row in zip(periods, got["periods"]):
        j = base[base.period == p]
        runtime, procs = j.runtime.to_numpy(float), j.procs.to_numpy(float)
        want = {"jobs": len(j), "users": j.user.nunique(), "load": (runtime * procs).sum() / (100 * period)}
        for key, values in (("runtime", runtime), ("procs", procs), ("work", runtime * procs),
                            ("interarrival", np.diff(j.submit.to_numpy()).astype(float))):
            want[key + "_median"], want[key + "_iqr"] = quartiles(values)
        for key, value in want.items():
            assert row[key] == pytest.approx(value, rel=1e-12), (p, key)
        for n in names:
            assert row["schedulers"][n]["wait"] == pytest.approx(means["w"][n][periods.index(p)], rel=1e-12)
            assert row["schedulers"][n]["bounded_slowdown"] == pytest.approx(means["bsld"][n][periods.index(p)],
                                                                              rel=1e-12)
        for key in attributes:
            attributes[key].append(want[key] if key in want else want[key + "_median"])
    baseline = names[-1]
    assert got["baseline"] == baseline
    for s in got["schedulers"]:
        n = s["name"]
        for metric, m in (("wait", "w"), ("bounded_slowdown", "bsld")):
            whole = jobs[n][m].mean()
            lowest = [min(means[m][x][i] for x in names) for i in range(len(periods))]
            sharing = [sum(means[m][x][i] == lowest[i] for x in names) for i in range(len(periods))]
            at_lowest = [means[m][n][i] == lowest[i] for i in range(len(periods))]
            won = sum(1 for i in range(len(periods)) if at_lowest[i] and sharing[i] == 1)
            shared = sum(1 for i in range(len(periods)) if at_lowest[i] and sharing[i] > 1)
            assert s[metric]["mean"] == pytest.approx(whole, rel=1e-12)
            assert s[metric]["periods_won"] == won
            assert s[metric]["periods_shared_best"] == shared
            assert s[metric]["period_sd"] == pytest.approx(np.std(means[m][n]), rel=1e-9)
            b_whole = jobs[baseline][m].mean()
            assert s[metric]["performance_gain"] == pytest.approx((b_whole - whole) / b_whole, rel=1e-9, abs=1e-12)
            sd_b = np.std(means[m][baseline])
            assert s[metric]["stability_gain"] == pytest.approx((sd_b - np.std(means[m][n])) / sd_b, rel=1e-9,
                                                                abs=1e-12)
        if n != baseline:
            diff = means["w"][n] - means["w"][baseline]
            corr = s["correlations_with_baseline_difference"]
            for key in ("jobs", "users", "load"):
                if not diff.any():  # the same schedule as the baseline's: no correlation is defined
                    assert corr[key]["absolute"] is None and corr[key]["relative"] is None
                    continue
                assert corr[key]["absolute"] == pytest.approx(np.corrcoef(attributes[key], diff)[0, 1], rel=1e-9)
                assert corr[key]["relative"] == pytest.approx(
                    np.corrcoef(attributes[key], diff / means["w"][baseline])[0, 1], rel=1e-9)
    for gap in got["wait_gaps"]:
        a, b = means["w"][gap["a"]], means["w"][gap["b"]]
        assert gap["tied"] == int((a == b).sum())  # won by neither
        for side, wins, mine, other in (("won_by_a", a < b, a, b), ("won_by_b", b < a, b, a)):
            measured = wins & (mine > 0)  # a gap over a winner's mean of 0 is none
            rel = (other[measured] - mine[measured]) / mine[measured]
            assert gap[side]["periods"] == int(wins.sum())
            assert gap[side]["periods_with_gap"] == int(measured.sum())
            if measured.any():
                assert gap[side]["mean_gap"] == pytest.approx(rel.mean(), rel=1e-9)
                assert gap[side]["max_gap"] == pytest.approx(rel.max(), rel=1e-9)
            else:
                assert gap[side]["mean_gap"] is None and gap[side]["max_gap"] is None
    assert any(g["tied"] == len(periods) for g in got["wait_gaps"])  # easy and maui: the ties were exercised


def shared_logs():
    """Every shared log, or the bundled KTH alone where they are absent."""
    found = sorted(os.path.join(TRACES, f) for f in os.listdir(TRACES) if f.endswith(".swf.gz")) \
        if os.path.isdir(TRACES) else []
    return found or [KTH]


@pytest.mark.parametrize("path", shared_logs(), ids=os.path.basename)
def test_stats_equal_an_independent_computation(path):
    """`stats` (analysis/summary.h) against pandas: the distributions over the records whose value is known,
    the estimate shares and popularity, the distinct ids, the power-of-two share and the offered load."""
    df, header = schedlab.read_swf(path)
    got = schedlab.stats((df, header))
    procs = got["machine"]["procs"]
    runtime = whole(df.run_time)
    size = pd.Series(np.where(df.requested_procs > 0, df.requested_procs, df.allocated_procs), index=df.index)
    estimate = whole(df.requested_time)
    submit = whole(df.submit_time)
    known_submit = np.sort(submit[submit >= 0].to_numpy())
    with_estimate = estimate > 0
    accuracy = (runtime / estimate)[(runtime >= 0) & with_estimate]
    series = {"runtime": runtime[runtime >= 0], "size": size[size > 0], "estimate": estimate[with_estimate],
              "interarrival": pd.Series(np.diff(known_submit)), "wait": whole(df.wait_time)[df.wait_time >= 0],
              "accuracy": accuracy}
    for name, values in series.items():
        d = got["distributions"][name]
        v = values.to_numpy(float)
        assert d["count"] == len(v), name
        if len(v) == 0:
            assert d["mean"] is None, name
            continue
        q = dict(zip(("p10", "p25", "median", "p75", "p90", "p99"), np.percentile(v, [10, 25, 50, 75, 90, 99])))
        want = {"min": v.min(), "max": v.max(), "mean": v.mean(), **q}
        for key, value in want.items():
            assert d[key] == pytest.approx(value, rel=1e-9, abs=1e-9), (name, key)
        assert d["cv"] == pytest.approx(v.std() / v.mean(), rel=1e-9), name  # population standard deviation
    if len(accuracy):
        over = ((runtime > estimate) & (runtime >= 0) & with_estimate).sum() / len(accuracy)
        assert got["estimates"]["runtime_over_estimate_share"] == pytest.approx(over, rel=1e-12)
    popularity = estimate[with_estimate].value_counts().to_numpy()
    assert got["estimates"]["distinct"] == len(popularity)
    for share, key in ((0.5, "popular_for_50pct"), (0.9, "popular_for_90pct")):
        cumulative = np.cumsum(popularity)
        want = int(np.argmax(cumulative >= share * cumulative[-1]) + 1) if len(popularity) else 0
        assert got["estimates"][key] == want, key
    # The limit: the largest value at least 1 in 2,000 of the jobs with an estimate used; the jobs above it.
    counts = estimate[with_estimate].value_counts()
    limit = int(counts[counts >= 0.0005 * counts.sum()].index.max()) if len(counts) else 0
    assert got["estimates"]["limit"] == limit
    assert got["estimates"]["at_limit"] == (int(counts[limit]) if len(counts) else 0)
    assert got["estimates"]["above_limit"] == int((estimate[with_estimate] > limit).sum())
    assert got["estimates"]["largest"] == (int(estimate[with_estimate].max()) if len(counts) else 0)
    for field, key in (("user_id", "users"), ("group_id", "groups"), ("executable", "executables"),
                       ("queue", "queues"), ("partition", "partitions")):
        assert got["distinct"][key] == df[field][df[field] >= 0].nunique(), key
    sized = size[size > 0].to_numpy()
    assert got["power_of_two_share"] == pytest.approx(((sized & (sized - 1)) == 0).mean(), rel=1e-12)
    valid = (submit >= 0) & (runtime >= 0) & (size > 0) & (size <= procs)
    assert got["valid_jobs"] == int(valid.sum())
    span = submit[valid].max() - submit[valid].min()
    load = (size[valid] * runtime[valid]).sum() / (procs * span)
    assert got["offered_load"] == pytest.approx(load, rel=1e-12)


@pytest.mark.parametrize("path", shared_logs(), ids=os.path.basename)
def test_flurries_and_runs_equal_an_independent_computation(path):
    """Flurries (trace/flurries.h: a (user, week) with more than factor x any other user's jobs that week and more
    than min_jobs) and runs (analysis/runs.h: maximal sequences of a user's consecutive jobs of the same size, and
    executable when matched, in stable submit order; unplaceable jobs neither join nor break a run)."""
    df, header = schedlab.read_swf(path)
    log = (df, header)
    known = df[(df.submit_time >= 0) & (df.user_id >= 0)]
    week = (known.submit_time - df.submit_time[df.submit_time >= 0].min()) // (7 * 86400)
    counts = known.groupby([week.rename("week"), known.user_id]).size().rename("jobs").reset_index()
    for factor, min_jobs in ((3.0, 500), (2.0, 100)):  # the second finds 2-86 flurries in each shared log
        # The largest count of any other user that week: the week's largest, or for the user holding it (the first
        # in count order) the second largest (equal to it on a tie), 0 when alone.
        c = counts.sort_values(["week", "jobs"], ascending=[True, False], kind="stable")
        by_week = c.groupby("week").jobs
        first, second = by_week.transform("max"), by_week.transform(lambda j: j.iloc[1] if len(j) > 1 else 0)
        top = np.where(by_week.cumcount() == 0, second, first)
        hit = c[(c.jobs > factor * top) & (c.jobs > min_jobs)].assign(top=top[(c.jobs > factor * top) &
                                                                              (c.jobs > min_jobs)])
        hit = hit.sort_values(["week", "user_id"])
        want = [(int(w), int(u), int(j), j / max(t, 1)) for w, u, j, t in zip(hit.week, hit.user_id, hit.jobs, hit.top)]
        got = schedlab.flurries(log, factor=factor, min_jobs=min_jobs)["flurries"]
        assert [(f["week"], f["user"], f["jobs"]) for f in got] == [t[:3] for t in want], (factor, min_jobs)
        assert [f["ratio"] for f in got] == pytest.approx([t[3] for t in want], rel=1e-12)
    size = pd.Series(np.where(df.requested_procs > 0, df.requested_procs, df.allocated_procs), index=df.index)
    for size_only in (True, False):
        keep = (df.submit_time >= 0) & (df.user_id >= 0) & (size > 0)
        if not size_only:
            keep &= df.executable >= 0
            if not keep.any():
                with pytest.raises(ValueError, match="no job has an executable number"):
                    schedlab.runs(log, size_only=False)
                continue
        d = df[keep].assign(size=size[keep]).sort_values("submit_time", kind="stable")
        d = d.sort_values("user_id", kind="stable")
        key = d["size"].astype(str) if size_only else d["size"].astype(str) + "/" + d.executable.astype(str)
        new_run = (d.user_id != d.user_id.shift()) | (key != key.shift())
        lengths = new_run.cumsum().value_counts()
        got = schedlab.runs(log, size_only=size_only)
        assert got["runs"] == len(lengths) and got["jobs"] == len(d)
        assert got["histogram"] == [[int(k), int(v)] for k, v in lengths.value_counts().sort_index().items()]
        assert got["longest"] == lengths.max()
        assert got["jobs_in_repeated_runs_share"] == pytest.approx(lengths[lengths >= 2].sum() / len(d), rel=1e-12)


def history_predictions(df, rule):
    """The prediction at arrival of each job of a replayed log (predict/replay.h: each job ends at submit + wait
    + runtime; at one instant terminations come before arrivals, in job id order) by a user-history rule, capped by
    the estimate (the runtime when there is none): "user-last2" = the user's finished jobs with the 2 latest
    (submit, id), their mean in whole seconds (truncated), one alone its runtime, none the estimate; "ruh" = the
    median of the user's last 3 terminated jobs by (end, id), fewer than 3 the estimate."""
    import bisect
    n = len(df)
    submit = df.submit_time.to_numpy()
    runtime = df.run_time.to_numpy()
    end = submit + df.wait_time.to_numpy() + runtime
    estimate = np.where(df.requested_time > 0, df.requested_time, runtime)
    out = np.empty(n, dtype=np.int64)
    for _, ids in pd.Series(np.arange(n)).groupby(df.user_id.to_numpy()):
        ids = ids.to_numpy()  # job ids (= rows: KTH is in submit order) of one user, ascending
        by_end = sorted(ids, key=lambda i: (end[i], i))
        finished = []  # (submit, id, runtime) of the finished jobs, sorted
        k = 0
        for i in ids:
            while k < len(by_end) and end[by_end[k]] <= submit[i]:
                j = by_end[k]
                bisect.insort(finished, (submit[j], j, runtime[j]))
                k += 1
            if rule == "user-last2":
                last = finished[-2:]
                p = estimate[i] if not last else last[0][2] if len(last) == 1 else (last[0][2] + last[1][2]) // 2
            else:
                last = [runtime[j] for j in by_end[max(0, k - 3):k]]
                p = estimate[i] if len(last) < 3 else sorted(last)[1]
            out[i] = min(p, estimate[i])
    return out


@pytest.mark.parametrize("rule", ["user-last2", "ruh"])
def test_history_predictors_equal_an_independent_replay(rule):
    """`predict` with user-last2 and ruh (no propagation, no correction: one prediction per job) on KTH against
    history_predictions, and the accuracy of each job and of the whole log (predict/accuracy.h) from them."""
    df, _ = schedlab.read_swf(KTH)
    summary, jobs = schedlab.predict(KTH, predictor=rule, jobs=True)
    want = history_predictions(df, rule)
    assert summary["accuracy"]["predictions_per_job"] == 1.0
    assert (jobs.initial_prediction.to_numpy() == want).all()
    runtime = df.run_time.to_numpy()
    ra = np.where(runtime == want, 1.0, np.where((runtime <= 0) | (want <= 0), 0.0,
                                                 np.minimum(runtime, want) / np.maximum(np.maximum(runtime, want), 1)))
    error = np.abs(runtime - want).astype(float)
    np.testing.assert_allclose(jobs.relative_accuracy, ra, rtol=1e-12)
    np.testing.assert_allclose(jobs.absolute_error, error, rtol=1e-12)
    accuracy = summary["accuracy"]
    assert accuracy["relative_accuracy"]["mean"] == pytest.approx(ra.mean(), rel=1e-9)
    assert accuracy["relative_accuracy"]["median"] == pytest.approx(np.median(ra), rel=1e-12)
    assert accuracy["absolute_error"]["mean"] == pytest.approx(error.mean(), rel=1e-9)
    assert accuracy["absolute_error"]["median"] == pytest.approx(np.median(error), rel=1e-12)
    assert accuracy["underestimated_share"] == pytest.approx((want < runtime).mean(), rel=1e-12)
    assert summary["deadline_misses"] == int((want < runtime).sum())


@pytest.mark.parametrize("scheduler", ["fcfs", "easy", "easy-sjbf", "conservative", "lewf", "easy-preemptive"])
def test_simulation_metrics_equal_an_independent_computation(scheduler):
    """simulate's metrics (sim/metrics.h) from its own per-job schedule: wait, response, slowdown and bounded
    slowdown (runtime = the time run, end - start without suspension), the first 1% by (end, id) left out of
    the averages; utilization and makespan over every job. A preemptive scheduler's suspended jobs are checked
    by utilization alone (their time run is not in the per-job table)."""
    r = schedlab.simulate(KTH, scheduler, warmup_fraction=0.01, bsld_tau=60)
    j = r.jobs
    m = r.metrics["metrics"]
    span = j.end.max() - j.submit.min()
    assert m["makespan"] == span
    assert m["utilization"] == pytest.approx((j.procs * j.runtime).sum() / (100 * span), rel=1e-12)
    ordered = j.sort_values(["end", "job_id"], kind="stable").iloc[int(0.01 * len(j)):]
    # Backfilled: a job of the averages that started while a job submitted before it (or in the same second
    # with a lower job number) had not started yet.
    arrival = j.sort_values(["submit", "job_id"], kind="stable")
    latest_ahead = arrival.start.cummax().shift(fill_value=-1)
    passed = arrival.job_id[arrival.start.to_numpy() < latest_ahead.to_numpy()]
    assert m["backfilled"] == int(passed.isin(ordered.job_id).sum())
    assert m["backfilled_share"] == pytest.approx(m["backfilled"] / len(ordered), rel=1e-12)
    if scheduler == "fcfs":
        assert m["backfilled"] == 0
    else:
        assert m["backfilled"] > 0.3 * len(ordered)  # KTH's queue: most jobs pass one that waits
    if r.metrics["metrics"]["suspensions"]:
        return
    # Loss of capacity: the processors idle while a job waited (submitted, not started), over the makespan.
    times = np.concatenate([j.submit, j.start, j.end])
    waiting = np.concatenate([np.ones(len(j)), -np.ones(len(j)), np.zeros(len(j))])
    busy = np.concatenate([np.zeros(len(j)), j.procs, -j.procs])
    order = np.argsort(times, kind="stable")
    times, waiting, busy = times[order], np.cumsum(waiting[order]), np.cumsum(busy[order])
    last = np.r_[times[1:] != times[:-1], True]  # the state after every change at an instant
    times, waiting, busy = times[last], waiting[last], busy[last]
    idle = ((100 - busy[:-1]) * np.diff(times) * (waiting[:-1] > 0)).sum()
    assert m["loss_of_capacity"] == pytest.approx(idle / (100 * span), rel=1e-9)
    assert 0.05 < m["loss_of_capacity"] < 1 - m["utilization"]
    wait = ordered.start - ordered.submit
    response = ordered.end - ordered.submit
    ran = ordered.end - ordered.start
    values = {"wait": wait, "response": response, "slowdown": np.maximum(1, response / np.maximum(ran, 1)),
              "bounded_slowdown": np.maximum(1, response / np.maximum(ran, 60))}
    assert r.metrics["jobs"]["warmup_excluded"] == int(0.01 * len(j))
    for name, v in values.items():
        v = v.to_numpy(float)
        want = {"mean": v.mean(), "median": np.median(v), "p90": np.percentile(v, 90), "max": v.max()}
        for key, value in want.items():
            assert m[name][key] == pytest.approx(value, rel=1e-9), (name, key)


def fcfs_with_feedback(df, procs):
    """FCFS written again from the rule of simulate --feedback (sim/simulate.h): a job that names an earlier job
    (field 17) is submitted its think time (field 18) after that job's end; the others at their submit time. At each
    instant: the ends, then the arrivals by (time, job order), then FCFS starts the queue's head while it fits.
    Returns each job's (submit, start) by job number."""
    import heapq
    from collections import deque
    df = df.sort_values(["submit_time", "job_number"], kind="stable").reset_index(drop=True)
    index = {n: i for i, n in enumerate(df.job_number)}
    size = np.where(df.requested_procs > 0, df.requested_procs, df.allocated_procs)
    run = df.run_time.to_numpy()
    followers = {}
    arrivals = []
    for i, (pre, think) in enumerate(zip(df.preceding_job, df.think_time)):
        a = index.get(pre, -1) if pre >= 0 else -1
        if 0 <= a < i:
            followers.setdefault(a, []).append((i, think))
        else:
            arrivals.append((int(df.submit_time[i]), i))
    heapq.heapify(arrivals)
    ends, queue, free = [], deque(), procs
    submit, start = {}, {}
    while arrivals or ends:
        t = min(arrivals[0][0] if arrivals else np.inf, ends[0][0] if ends else np.inf)
        while ends and ends[0][0] == t:
            _, i = heapq.heappop(ends)
            free += size[i]
            for f, think in followers.get(i, []):
                heapq.heappush(arrivals, (t + int(think), f))
        while arrivals and arrivals[0][0] == t:
            _, i = heapq.heappop(arrivals)
            submit[i] = t
            queue.append(i)
        while queue and size[queue[0]] <= free:
            i = queue.popleft()
            free -= size[i]
            start[i] = t
            heapq.heappush(ends, (t + int(run[i]), i))
    numbers = df.job_number.to_numpy()
    return {numbers[i]: (submit[i], start[i]) for i in range(len(df))}


def test_feedback_equals_an_independent_fcfs():
    """simulate(feedback=True) under FCFS against fcfs_with_feedback, job by job, on KTH with each job following its
    user's previous job when it was submitted after that one's logged end (think time 0-20 min, from the job
    number), so that followers arrive at the instants other jobs end and start."""
    df, _ = schedlab.read_swf(KTH)
    df = df.sort_values(["submit_time", "job_number"]).reset_index(drop=True)
    prev = df.groupby("user_id").shift(1)
    ended = prev.submit_time + prev.wait_time.clip(lower=0) + prev.run_time
    follows = prev.job_number.notna() & (df.submit_time >= ended)
    df.loc[follows, "preceding_job"] = prev.loc[follows, "job_number"].astype("int64")
    df.loc[follows, "think_time"] = (df.job_number[follows] * 7919) % 1201
    want = fcfs_with_feedback(df, 100)
    jobs = schedlab.simulate(df, "fcfs", feedback=True).jobs
    assert len(jobs) == len(want) and follows.sum() > 5000
    got = {n: (s, b) for n, s, b in zip(jobs.job_id, jobs.submit, jobs.start)}
    differ = [n for n in want if want[n] != got[n]]
    assert not differ, f"{len(differ)} jobs differ, first {differ[0]}: {want[differ[0]]} != {got[differ[0]]}"


@pytest.mark.parametrize("scheduler", ["easy", "easy-sjbf", "conservative"])
def test_metrics_by_job_class_equal_an_independent_computation(scheduler):
    """simulate(by_class=...) (sim/job_classes.h) from its own per-job schedule: short = runtime <= 30 min, narrow =
    at most 16 processors; per class the jobs of the averages (the first 1% by (end, id) left out), their shares of
    jobs and work, the means of wait, response, slowdown and bounded slowdown, and the backfilled jobs."""
    r = schedlab.simulate(KTH, scheduler, warmup_fraction=0.01, bsld_tau=60, by_class="30m,16")
    assert r.metrics["by_class"]["short_runtime"] == 1800 and r.metrics["by_class"]["narrow_procs"] == 16
    j = r.jobs
    ordered = j.sort_values(["end", "job_id"], kind="stable").iloc[int(0.01 * len(j)):]
    arrival = j.sort_values(["submit", "job_id"], kind="stable")
    latest_ahead = arrival.start.cummax().shift(fill_value=-1)
    passed = set(arrival.job_id[arrival.start.to_numpy() < latest_ahead.to_numpy()])
    names = np.where(ordered.runtime <= 1800, "short", "long").astype(object) + " " + \
        np.where(ordered.procs <= 16, "narrow", "wide").astype(object)
    got = r.by_class
    assert list(got.index) == ["short narrow", "short wide", "long narrow", "long wide"]
    work = ordered.procs * (ordered.end - ordered.start)
    for name, group in ordered.groupby(names):
        row = got.loc[name]
        response = group.end - group.submit
        ran = group.end - group.start
        assert row.jobs == len(group)
        assert row.share == pytest.approx(len(group) / len(ordered), rel=1e-12)
        assert row.work_share == pytest.approx(work[group.index].sum() / work.sum(), rel=1e-12)
        assert row.wait_mean == pytest.approx((group.start - group.submit).mean(), rel=1e-9)
        assert row.response_mean == pytest.approx(response.mean(), rel=1e-9)
        assert row.slowdown_mean == pytest.approx(np.maximum(1, response / np.maximum(ran, 1)).mean(), rel=1e-9)
        assert row.bounded_slowdown_mean == pytest.approx(np.maximum(1, response / np.maximum(ran, 60)).mean(),
                                                          rel=1e-9)
        assert row.backfilled == int(group.job_id.isin(passed).sum())
    assert got.jobs.sum() == len(ordered) and got.jobs.min() > 0


@pytest.mark.parametrize("path", shared_logs(), ids=os.path.basename)
def test_categorize_equals_an_independent_computation(path):
    """categorize (analysis/categories.h): per key, groups of >= 6 jobs with a known run time (partial-execution
    lines and jobs of unknown key left out), the mean of their jobs and the job-weighted mean of the groups'
    C.V. (sample standard deviation / mean), groups whose jobs all ran 0 s left out."""
    df, header = schedlab.read_swf(path)
    got = {k["key"]: k for k in schedlab.categorize((df, header))["keys"]}
    size = pd.Series(np.where(df.requested_procs > 0, df.requested_procs, df.allocated_procs), index=df.index)
    d = df.assign(size=size, runtime=whole(df.run_time))
    d = d[~d.status.isin([2, 3, 4]) & (d.runtime >= 0)]
    keys = {"system": [], "user": ["user_id"], "queue": ["queue"], "parallelism": ["size"],
            "executable": ["executable"], "executable+user+parallelism": ["executable", "user_id", "size"]}
    for key, columns in keys.items():
        k = d
        for c in columns:
            k = k[k[c] > 0] if c == "size" else k[k[c] >= 0]
        groups = k.groupby(columns).runtime if columns else k.assign(one=0).groupby("one").runtime
        n, mean, sd = groups.size(), groups.mean(), groups.std(ddof=1)
        keep = (n >= 6) & (mean > 0)
        assert got[key]["groups"] == int(keep.sum()), key
        assert got[key]["jobs"] == int(n[keep].sum()), key
        if keep.any():
            cv = (sd / mean)[keep]
            assert got[key]["weighted_cv"] == pytest.approx((cv * n[keep]).sum() / n[keep].sum(), rel=1e-9), key
            assert got[key]["mean_runtime"] == pytest.approx((mean * n)[keep].sum() / n[keep].sum(), rel=1e-9), key


@pytest.mark.parametrize("path", logs(), ids=os.path.basename)
def test_locality_of_sampling_equals_an_independent_computation(path):
    """analyze locality without bootstrap (analysis/locality.h): r = 24 global bins, boundary k the smallest value
    whose cumulative share exceeds k/r (a value on a boundary in the upper bin, so that the bins below hold k/r
    exactly when ties allow), each bin's share; 3-day slices from the series' first submit time (an inter-arrival
    series starts at the second job); a slice usable when N / r >= 5; m = max over bins of |o - N p| / (N (1 - p));
    M'_max and M'_med over the usable slices."""
    df, header = schedlab.read_swf(path)
    r = 24
    for name in ("runtime", "procs", "interarrival"):
        got = schedlab.locality((df, header), attribute=name, bootstrap=0)
        times, values = attribute(df, name)
        v = np.sort(values)
        through = np.searchsorted(v, v, side="right")  # values <= each value
        bounds = [v[np.argmax(through * r > k * len(v))] for k in range(1, r)]  # integers: exact on a tie
        np.testing.assert_array_equal(got["bins"]["bounds"], bounds, err_msg=name)
        which = np.searchsorted(np.array(bounds), values, side="right")  # the number of boundaries <= value
        shares = np.bincount(which, minlength=r) / len(values)
        np.testing.assert_allclose(got["bins"]["shares"], shares, rtol=1e-12, err_msg=name)
        first = int(times.min())
        slice_of = (times - first) // (3 * 86400)
        ms = {}
        for s in np.unique(slice_of):
            bins = which[slice_of == s]
            n = len(bins)
            if n / r < 5:
                continue
            o = np.bincount(bins, minlength=r)
            p = shares
            dev = np.where(p > 0, np.abs(o - n * p) / (n * np.where(p < 1, 1 - p, 1)), 0)
            ms[int(s)] = dev.max()
        usable = [x for x in got["series"] if x["usable"]]
        assert [x["index"] for x in usable] == sorted(ms), name
        np.testing.assert_allclose([x["m"] for x in usable], [ms[i] for i in sorted(ms)], rtol=1e-12, err_msg=name)
        assert got["m_prime"]["max"] == pytest.approx(max(ms.values()), rel=1e-12)
        assert got["m_prime"]["median"] == pytest.approx(np.median(list(ms.values())), rel=1e-12)


@pytest.mark.parametrize("path", logs(), ids=os.path.basename)
def test_user_variables_equal_an_independent_computation(path):
    """sessions --users-output (analysis/session_classes.h, user_variables): per user over the jobs with a known
    submit time and user, PD / PW the shares of jobs submitted in local daytime 07:30-17:30 / Monday-Friday (each
    job in its own UTC offset), Pm and Rm the medians of the 128-normalised size and of the runtime (unknown as
    0), J, Im the median inter-arrival time of the user's submits, JW = J per week of max(span, 1 day), pBHD the
    share of the user's sessions the session classification called BHD."""
    df, header = schedlab.read_swf(path)
    _, sessions, users = schedlab.sessions((df, header), classify=True, rows=True)
    procs = schedlab.stats((df, header))["machine"]["procs"]
    zone = next((l.split(":", 1)[1].strip() for l in header if "TimeZoneString" in l), "UTC")
    unix_start = int(next(l.split(":", 1)[1] for l in header if "UnixStartTime" in l))
    d = df[(df.submit_time >= 0) & (df.user_id >= 0)].copy()
    local = pd.to_datetime(unix_start + d.submit_time, unit="s", utc=True).dt.tz_convert(zone)
    minute = local.dt.hour * 60 + local.dt.minute
    d["day"] = ((minute >= 7 * 60 + 30) & (minute < 17 * 60 + 30)).astype(float)
    d["work"] = (local.dt.dayofweek < 5).astype(float)
    d["size"] = np.where(d.requested_procs > 0, d.requested_procs, d.allocated_procs).clip(min=0) * 128.0 / procs
    d["runtime"] = whole(d.run_time.clip(lower=0)).astype(float)
    rows = []
    for user, u in d.groupby("user_id"):
        submits = np.sort(u.submit_time.to_numpy(np.int64))
        span = max(submits[-1] - submits[0], 86400) / (7 * 86400)
        mine = sessions[sessions.user == user]
        rows.append({"user": user, "PD": u.day.mean(), "Pm": u["size"].median(), "Rm": u.runtime.median(),
                     "J": len(u), "PW": u.work.mean(),
                     "Im": float(np.median(np.diff(submits))) if len(submits) > 1 else 0.0, "JW": len(u) / span,
                     "pBHD": (mine["class"] == "BHD").mean()})
    want = pd.DataFrame(rows)
    assert users.user.tolist() == want.user.tolist()
    for key in ("PD", "Pm", "Rm", "J", "PW", "Im", "JW", "pBHD"):
        np.testing.assert_allclose(users[key].to_numpy(float), want[key].to_numpy(float), rtol=1e-9, atol=1e-12,
                                   err_msg=key)


def test_diversity_equals_an_independent_computation():
    """analyze diversity without bootstrap (analysis/diversity.h): each log's values against two pools of every
    log's values, job-weighted (weight 1) and same-weight (weight 1 / N_l): per pool r = 24 bins, boundary k the
    smallest value whose cumulative weight exceeds k/r of the total, each bin's weighted share; a log's m is
    max |o - N p| / (N (1 - p)) over its counts, and the bin reaching it."""
    paths = logs()
    if len(paths) < 2:
        pytest.skip("the shared logs are absent")
    r = 24
    for name in ("runtime", "procs", "interarrival"):
        got = schedlab.diversity(paths, attribute=name, bootstrap=0)
        values = [attribute(schedlab.read_swf(p)[0], name)[1] for p in paths]
        pooled = np.concatenate(values)
        for pool, weight in (("job_weighted", [np.ones(len(v)) for v in values]),
                             ("same_weight", [np.full(len(v), 1.0 / len(v)) for v in values])):
            w = np.concatenate(weight)
            order = np.argsort(pooled, kind="stable")
            v, cum = pooled[order], np.cumsum(w[order])
            last = np.r_[v[1:] != v[:-1], True]  # the last of each run of equal values: the weight through it
            distinct, through = v[last], cum[last]
            total = through[-1]
            bounds = [distinct[np.argmax(through > k / r * total)] for k in range(1, r)]
            np.testing.assert_array_equal(got["bins"][pool]["bounds"], bounds, err_msg=(name, pool))
            which = np.searchsorted(np.array(bounds), pooled, side="right")
            shares = np.bincount(which, weights=w, minlength=r) / total
            np.testing.assert_allclose(got["bins"][pool]["shares"], shares, rtol=1e-9, err_msg=(name, pool))
            start = 0
            for row, v_log in zip(got["logs"], values):
                n = len(v_log)
                o = np.bincount(which[start:start + n], minlength=r)
                start += n
                dev = np.where(shares > 0, np.abs(o - n * shares) / (n * (1 - shares)), 0)
                assert row["jobs"] == n
                assert row[pool] == pytest.approx(dev.max(), rel=1e-9), (name, pool, row["path"])
                assert row["top_bin_" + pool] == int(np.argmax(dev)), (name, pool, row["path"])


def test_log_distance_equals_an_independent_computation():
    """analyze distance (analysis/log_distance.h): per attribute the two-sample KS statistic (the largest gap
    between the two empirical CDFs, over every value of either) and both medians, sizes and CPU work as fractions
    of each log's machine; the estimate with the runtime standing in where a log has none."""
    logs_ = logs()
    if len(logs_) < 2:
        pytest.skip("needs a shared log beside KTH")
    a_path, b_path = logs_[0], logs_[1]
    got = schedlab.distance(a_path, b_path)
    frames = [schedlab.read_swf(p)[0] for p in (a_path, b_path)]
    procs = [got["a"]["procs"], got["b"]["procs"]]
    for name in ("runtime", "procs", "cpu", "interarrival", "estimate"):
        series = []
        for df, machine in zip(frames, procs):
            if name == "estimate":
                d = df[df.submit_time >= 0]
                v = np.where(d.requested_time > 0, whole(d.requested_time), whole(d.run_time))
                v = v[v >= 0].astype(float)
            else:
                v = attribute(df, name)[1]
                if name in ("procs", "cpu"):
                    v = v / machine
            series.append(np.sort(v))
        a, b = series
        grid = np.union1d(a, b)
        ks = np.max(np.abs(np.searchsorted(a, grid, side="right") / len(a) -
                           np.searchsorted(b, grid, side="right") / len(b)))
        cell = got["attributes"][name]
        assert (cell["count_a"], cell["count_b"]) == (len(a), len(b)), name
        assert cell["ks"] == pytest.approx(ks, rel=1e-12), name
        assert cell["median_a"] == pytest.approx(np.median(a), rel=1e-12), name
        assert cell["median_b"] == pytest.approx(np.median(b), rel=1e-12), name


@pytest.mark.parametrize("path", shared_logs(), ids=os.path.basename)
def test_estimate_bins_equal_an_independent_computation(path):
    """estimates bins (model/estimate_bins.h): one bin per distinct estimate (field 9 > 0), popularity rank by
    descending count then ascending value, time rank by value, the cover of each fraction (the fewest most popular
    bins holding at least it), T_max and its rank and share."""
    df, header = schedlab.read_swf(path)
    estimate = whole(df.requested_time)
    estimate = estimate[estimate > 0]
    got = schedlab.estimate_bins((df, header), top=10)
    assert got["without_estimate"] == len(df) - len(estimate)
    if len(estimate) == 0:
        assert got["jobs"] == 0 and got["modes"] == []
        return
    counts = estimate.value_counts()
    table = pd.DataFrame({"value": counts.index.astype(int), "jobs": counts.to_numpy()})
    table = table.sort_values(["jobs", "value"], ascending=[False, True], kind="stable").reset_index(drop=True)
    table["time_rank"] = table.value.rank(method="first").astype(int)
    assert got["jobs"] == len(estimate) and got["distinct"] == len(table)
    top = table.head(10)
    assert [(m["value"], m["jobs"], m["popularity_rank"], m["time_rank"]) for m in got["modes"]] == \
        [(int(v), int(j), i + 1, int(t)) for i, (v, j, t) in enumerate(zip(top.value, top.jobs, top.time_rank))]
    cumulative = np.cumsum(table.jobs.to_numpy())
    for cover in got["cover"]:
        assert cover["bins"] == int(np.argmax(cumulative >= cover["fraction"] * len(estimate)) + 1), cover
    t_max = table.value.max()
    assert got["t_max"] == t_max
    assert got["t_max_popularity_rank"] == int(table.index[table.value == t_max][0]) + 1
    assert got["t_max_share"] == pytest.approx(table.jobs[table.value == t_max].iloc[0] / len(estimate), rel=1e-12)


def test_filter_equals_an_independent_selection():
    """filter (trace/filter.h) against a pandas selection: the date window in the log's zone (KTH: Europe/
    Stockholm, across a DST change), users, size bounds (requested processors, else allocated) and status; each
    excluded record counted under the first criterion in the documented order."""
    df, header = schedlab.read_swf(KTH)
    unix_start = int(next(l.split(":", 1)[1] for l in header if "UnixStartTime" in l))
    lo = pd.Timestamp("1996-10-20", tz="Europe/Stockholm").timestamp() - unix_start  # DST ends on the 27th
    hi = pd.Timestamp("1997-04-01T06:30", tz="Europe/Stockholm").timestamp() - unix_start  # and begins on 3/30
    users = sorted(df.user_id.unique())[::3]
    got = schedlab.filter_log(df, from_="1996-10-20", to="1997-04-01T06:30", exclude_users=users, min_procs=2,
                              max_procs=32, status=[1])
    size = np.where(df.requested_procs > 0, df.requested_procs, df.allocated_procs)
    criteria = [("before_from", df.submit_time < lo), ("not_before_to", df.submit_time >= hi),
                ("user", df.user_id.isin(users)), ("below_min_procs", size < 2), ("above_max_procs", size > 32),
                ("status", df.status != 1)]
    left = pd.Series(True, index=df.index)
    counts = {}
    for name, out in criteria:
        counts[name] = int((left & out).sum())
        left &= ~out
    pd.testing.assert_frame_equal(got.reset_index(drop=True), df[left].reset_index(drop=True), check_like=True)
    excluded = {k: v for k, v in got.attrs["filter"]["excluded"].items() if v}
    assert excluded == {k: v for k, v in counts.items() if v}, (excluded, counts)


@pytest.mark.parametrize("path", logs(), ids=os.path.basename)
def test_fcfs_equals_an_independent_simulation(path):
    """FCFS (no backfilling) simulated plainly: jobs in (submit, id) order, each starting at the first instant at
    or after its submit and its predecessor's start when enough processors are free (jobs ending at an instant
    free their processors before starts at it)."""
    import heapq
    r = schedlab.simulate(path, "fcfs")
    j = r.jobs.sort_values(["submit", "job_id"], kind="stable")
    procs = r.metrics["procs"]
    running = []  # (end, procs)
    free, now = procs, 0
    want = {}
    for job_id, submit, size, runtime in zip(j.job_id, j.submit, j.procs, j.runtime):
        now = max(now, submit)
        while running and running[0][0] <= now:
            free += heapq.heappop(running)[1]
        while free < size:
            end, p = heapq.heappop(running)
            now = max(now, end)
            free += p
            while running and running[0][0] <= now:
                free += heapq.heappop(running)[1]
        want[job_id] = now
        free -= size
        heapq.heappush(running, (now + runtime, size))
    assert (j.start.to_numpy() == np.array([want[i] for i in j.job_id])).all()


@pytest.mark.parametrize("path", logs(), ids=os.path.basename)
def test_profiler_fit_equals_an_independent_weighted_least_squares(tmp_path, path):
    """The profiler's execution-time function (predict/profiler.h) at the system level and, where the log names
    executables, for its busiest one, against NumPy: jobs with a runtime >= 0 and a size > 0 (not partial lines);
    processor buckets ceil(log2 p); per bucket the mean runtime, the mean size and the variance of the mean s²/n (a
    one-job bucket takes the pooled within-bucket variance, every s² at least 1 s²); T(p) = a/p + b + c p by
    weighted least squares, and the standard error of T(p) from (X'V^-1 X)^-1."""
    db = tmp_path / "p.db"
    schedlab.profiler_ingest(db, path)
    df, _ = schedlab.read_swf(path)
    size = np.where(df.requested_procs > 0, df.requested_procs, df.allocated_procs)
    d = df.assign(size=size, runtime=whole(df.run_time).astype(float))
    d = d[(d.runtime >= 0) & (d["size"] > 0) & ~d.status.isin([2, 3, 4])]
    d = d.assign(bucket=np.ceil(np.log2(d["size"])).astype(int))
    levels = [(-1, d)]
    fitted = d[d.executable >= 0].groupby("executable").bucket.nunique()
    if (fitted >= 3).any():  # the busiest executable run at three or more bucket sizes (a fit needs three)
        counts = d[d.executable.isin(fitted[fitted >= 3].index)].executable.value_counts()
        levels.append((int(counts.index[0]), d[d.executable == counts.index[0]]))
    for executable, jobs in levels:
        g = jobs.groupby("bucket")
        n, y, pbar, s2 = g.size(), g.runtime.mean(), g["size"].mean(), g.runtime.var(ddof=1)
        pooled = ((n - 1) * s2.fillna(0)).sum() / (n - 1).sum()
        s2 = np.maximum(s2.where(n > 1, pooled), 1.0)
        x = np.column_stack([1 / pbar, np.ones(len(n)), pbar])
        w = n / s2
        cov = np.linalg.inv(x.T @ (x * w.to_numpy()[:, None]))
        coef = cov @ (x.T @ (w * y).to_numpy())
        fits = 0
        for procs in (1, 8, 64, 256):
            got = schedlab.profiler_query(db, user=-1, executable=executable, procs=procs)
            x0 = np.array([1 / procs, 1, procs])
            if x0 @ coef > 0:  # a fit not positive at p is not used: the bucket's mean, or the next level
                fits += 1
                assert got["method"] == "fit" and got["level"] == ("system" if executable < 0 else "exe"), got
                assert [got["function"][k] for k in "abc"] == pytest.approx(list(coef), rel=1e-6)
                assert got["estimate"] == pytest.approx(x0 @ coef, rel=1e-9)
                assert got["std_error"] == pytest.approx(np.sqrt(x0 @ cov @ x0), rel=1e-6)
                assert got["samples"] == len(jobs)
            elif executable < 0:  # the last level: the bucket's mean when it has two jobs, else nothing
                b = int(np.ceil(np.log2(procs)))
                if n.get(b, 0) >= 2:
                    assert got["method"] == "bucket_mean" and got["samples"] == n[b], got
                    assert got["estimate"] == pytest.approx(y[b], rel=1e-9)
                    assert got["std_error"] == pytest.approx(np.sqrt(g.runtime.var(ddof=1)[b] / n[b]), rel=1e-9)
                else:
                    assert got == {"ok": False, "held": len(jobs)}  # the system's jobs could not answer
        assert fits > 0
