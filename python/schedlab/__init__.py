"""schedlab for Python: workload logs as pandas DataFrames, scheduler simulations and parameter sweeps, computed
by schedlab's C++ library (docs/python.md).

    import schedlab
    df, header = schedlab.read_swf("data/KTH-SP2-1996-2.swf.gz")
    r = schedlab.simulate(df[df.requested_procs <= 64], scheduler="easy", procs=100)
    r.metrics["wait"]["mean"], r.jobs.head()

A log is a path (read by the library) or a DataFrame with the SWF's 18 columns (job_number, submit_time, ...;
missing columns are -1): filter in pandas, simulate the result. Errors raise ValueError (bad input, with the
library's message) or OSError (files). Simulations and sweeps release the GIL, so threads run them in parallel.
"""
import io
import os

import pandas as pd

from . import _core

__all__ = ["read_swf", "write_swf", "stats", "simulate", "Result", "Scheduler", "sweep", "schedulers",
           "predictors", "FIELDS"]

FIELDS = list(_core.field_names())


def _log(log, header=None):
    """A library Log from a path, a DataFrame (with optional header lines) or a Log."""
    if isinstance(log, _core.Log):
        return log
    if isinstance(log, (str, os.PathLike)):
        return _core.read_log(os.fspath(log))
    if isinstance(log, pd.DataFrame):
        lines = header if header is not None else log.attrs.get("swf_header", [])
        return _core.log_from_columns({c: log[c].to_numpy() for c in FIELDS if c in log.columns}, list(lines))
    raise TypeError(f"a log is a path or a pandas DataFrame, not {type(log).__name__}")


def read_swf(path):
    """Read an SWF log (plain or gzip). Returns (DataFrame, header): the 18 SWF columns (int64; float64 for a
    field where the log wrote fractions, kept exactly) and the header lines. The header is also in
    df.attrs["swf_header"], so the DataFrame can be written or simulated as it is."""
    log = _core.read_log(os.fspath(path))
    df = pd.DataFrame(_core.log_columns(log), columns=FIELDS)
    header = list(log.header_lines)
    df.attrs["swf_header"] = header
    return df, header


def write_swf(df, path, header=None):
    """Write a DataFrame with SWF columns as an SWF log (".gz" compresses). `header`: the header lines (default:
    df.attrs["swf_header"])."""
    _core.write_log(_log(df, header), os.fspath(path))


def stats(log, procs=None):
    """Everything `schedlab stats --json` reports about a log, as a dict."""
    return _core.stats(_log(log), procs)


class Result:
    """A simulation's outcome: `metrics` (dict, the keys of `schedlab simulate --json`) and `jobs` (DataFrame, the
    per-job CSV's columns: job_id, submit, start, end, procs, runtime, estimate, killed, wait, prediction)."""

    def __init__(self, metrics, jobs_csv):
        self.metrics = metrics
        self._jobs_csv = jobs_csv
        self._jobs = None

    @property
    def jobs(self):
        if self._jobs is None:
            self._jobs = pd.read_csv(io.BytesIO(self._jobs_csv))
        return self._jobs

    def __repr__(self):
        m = self.metrics.get("metrics", {})
        return (f"Result({self.metrics.get('scheduler')}, wait mean {m.get('wait', {}).get('mean'):.1f} s, "
                f"bounded slowdown mean {m.get('bounded_slowdown', {}).get('mean'):.2f})")


class Scheduler:
    """A scheduling policy written in Python, mirroring sim/scheduler.h: subclass it and pass an instance to
    simulate(). The engine calls, at every instant where something happened, on_termination(state, job) for each
    finished job, on_arrival(state, job) for each arriving one, then schedule(state) once, which returns the ids
    of the waiting jobs to start now, in order (each must fit in the processors left by the previous ones).

    state: now, free, total (processors), queue [(id, procs, submit, prediction)] in queue order, running
    [(id, procs, start, prediction, expected_end)] by predicted end. Schedulers see predictions, never runtimes.
    The engine checks its invariants (as `simulate --check`) on every decision.
    """

    name = "python"

    def schedule(self, state):
        raise NotImplementedError("a Scheduler subclass defines schedule(state) -> job ids to start now")


def simulate(log, scheduler="easy", predictor="", procs=None, load=None, *, correction="", arrival_scale=1.0,
             kill_at_estimate=False, extend_estimates=False, warmup_fraction=0.0, bsld_tau=10, seed=0, check=False):
    """Simulate a scheduler on a log, as `schedlab simulate`: the options are named as its flags
    (warmup_fraction=0.01, kill_at_estimate=True, ...). `scheduler`: a name, spec or preset of schedulers(), or
    a schedlab.Scheduler instance; `predictor`: a predictor spec (default: the estimate). Returns a Result."""
    if isinstance(scheduler, Scheduler):
        if correction or extend_estimates or bsld_tau != 10:
            raise ValueError("correction, extend_estimates and bsld_tau are not available with a Python scheduler")
        metrics, jobs = _core.simulate_python(_log(log), scheduler, getattr(scheduler, "name", "python"),
                                              predictor or "", procs, load, float(arrival_scale),
                                              bool(kill_at_estimate), float(warmup_fraction), int(seed))
        return Result(metrics, jobs)
    metrics, jobs = _core.simulate(_log(log), scheduler, predictor or "", correction or "", procs, load,
                                   float(arrival_scale), bool(kill_at_estimate), bool(extend_estimates),
                                   float(warmup_fraction), int(bsld_tau), int(seed), bool(check))
    return Result(metrics, jobs)


def sweep(spec, threads=0):
    """Run a sweep (docs/sweeps.md): `spec` is a path to a TOML file or the TOML text itself. Returns a DataFrame,
    one row per run in run order, with the columns of `schedlab sweep`'s CSV."""
    path = os.fspath(spec) if isinstance(spec, os.PathLike) or (isinstance(spec, str) and os.path.exists(spec)) \
        else ""
    rows = _core.sweep("" if path else spec, path, int(threads))
    return pd.DataFrame(rows, columns=list(_core.sweep_columns()))


def schedulers():
    """The registered schedulers: {name: description}."""
    return dict(_core.schedulers())


def predictors():
    """The registered predictors: {name: description}."""
    return dict(_core.predictors())
