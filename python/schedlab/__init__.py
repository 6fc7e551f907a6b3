"""schedlab for Python: workload logs as pandas DataFrames, scheduler simulations and parameter sweeps, computed
by schedlab's C++ library (docs/python.md).

    import schedlab
    df, header = schedlab.read_swf("data/KTH-SP2-1996-2.swf.gz")
    r = schedlab.simulate(df[df.requested_procs <= 64], scheduler="easy", procs=100)
    r.metrics["metrics"]["wait"]["mean"], r.jobs.head()

A log is a path (read by the library) or a DataFrame with the SWF's 18 columns (job_number, submit_time, ...;
missing columns are -1): filter in pandas, simulate the result. Errors raise ValueError (bad input, with the
library's message) or OSError (files). Simulations and sweeps release the GIL, so threads run them in parallel.
"""
import collections
import contextvars
import difflib
import functools
import inspect
import io
import json
import numbers
import os
import re
import sys
import warnings

import numpy as np
import pandas as pd

from . import _core

__all__ = ["read_swf", "read_log", "read_sacct", "names", "write_swf", "filter_log", "stats", "simulate", "Result",
           "Scheduler", "Predictor", "Job", "sweep",
           "sweep_collect", "schedulers", "predictors", "locality", "temporal", "runs", "flurries", "sessions",
           "predict", "predict_next", "compare", "generate_estimates", "generate_locality", "generate_talby", "diversity", "categorize",
           "estimate_bins", "fit_estimates", "compare_estimates", "scramble", "profiler_ingest", "profiler_query",
           "profiler_compare", "generate_profiler_experiment", "distance", "report", "report_sweep", "show_progress",
           "FIELDS"]

FIELDS = list(_core.field_names())
__version__ = _core.version  # the library's, as `schedlab --version` prints it
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _data_file(name):
    """A file the package ships beside its modules (the report's plotting libraries, the bundled KTH log), so that
    an installed package works without the source or build tree."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{path} is missing: the schedlab package ships it; build it again (make python) or "
                                "install it again (cmake --install)")
    return path


def _warn(message):
    """A warning that names the user's line: the first frame outside this package, however deep in the module
    (and behind its keyword-checking wrappers) it is raised."""
    frame, level = sys._getframe(1), 2  # stacklevel 1 is this function, 2 its caller
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame, level = frame.f_back, level + 1
    warnings.warn(_SPEAKING.get()(message), stacklevel=level)


# The library's messages name the CLI's flags ("--procs 0 must be ..."); from Python they name the keyword of the
# function called ("procs=0 must be ..."). The flags a function names otherwise than '-' as '_':
_KEYWORD_OF_FLAG = {
    "filter_log": {"from": "from_"}, "generate_locality": {"from": "log"}, "scramble": {"from": "log"},
    "locality": {"attr": "attribute"}, "diversity": {"attr": "attribute"}, "simulate": {"class-limits": "by_class"},
    "compare": {"class-limits": "by_class"}, "profiler_query": {"exe": "executable"},
    "report_sweep": {"sweep": "results"},
}
_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*)( (?:-?\d[\w.:,+-]*|'[^']*'))?")
_SPEAKING = contextvars.ContextVar("schedlab_speaking", default=lambda message: message)
_IN_CALL = contextvars.ContextVar("schedlab_in_call", default=False)


def _speaker(func_name, keywords):
    """What turns a message's flags into `func_name`'s keywords: only a flag the function has as a keyword (the
    others, e.g. sacct's own options, stay as written), its value after '=' ("--procs 64" -> "procs=64")."""
    renamed = _KEYWORD_OF_FLAG.get(func_name, {})

    def keyword(match):
        name = renamed.get(match.group(1), match.group(1).replace("-", "_"))
        if name not in keywords:
            return match.group(0)
        return name + ("=" + match.group(2)[1:] if match.group(2) else "")

    return lambda message: _FLAG.sub(keyword, message) if isinstance(message, str) else message


def _path(p):
    """A path for the library: os.fspath's str, or its bytes when the name is not UTF-8 (os.fsdecode gave it
    lone surrogates, which the library's std::string cannot take as str)."""
    p = os.fspath(p)
    if len(p) == 0:  # an unset variable: the library took "" as "not given" (save_job_model) or as no file
        raise ValueError("an empty path: a file name was expected")
    if isinstance(p, str):
        try:
            p.encode("utf-8")
        except UnicodeEncodeError:
            return os.fsencode(p)
    return p


def _log(log, header=None, keep_partial_executions=False):
    """A library Log from a path, a DataFrame (with optional header lines), read_swf's (DataFrame, header) or a Log.
    A preempted job's partial-execution lines are left out (a job is its summary line), unless
    `keep_partial_executions` (a copy: write_swf, filter_log)."""
    if isinstance(log, _core.Log):
        return log
    if isinstance(log, (str, os.PathLike)):
        return _warn_header_problems(_core.read_log(_path(log), keep_partial_executions))
    # What read_swf returns, passed on whole ("log = schedlab.read_swf(path); schedlab.simulate(log)"): its header
    # goes with it.
    if _is_read_swf_pair(log):
        return _log(log[0], header if header is not None else log[1], keep_partial_executions)
    if isinstance(log, pd.DataFrame):
        lines = header if header is not None else log.attrs.get("swf_header", [])
        # Header lines go back as the bytes they were read from: a byte that is not UTF-8 came as a lone surrogate.
        lines = [l.encode("utf-8", "surrogateescape") if isinstance(l, str) else l for l in lines]
        _warn_misnamed_columns(log.columns)
        return _core.log_from_columns({c: _column(log[c]) for c in FIELDS if c in log.columns}, lines,
                                      keep_partial_executions)
    raise TypeError(f"a log is a path, a pandas DataFrame or what read_swf returns, not {type(log).__name__}")


def _norm(name):
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _warn_misnamed_columns(columns):
    """A column that is not an SWF field but looks like a missing one ("runtime", "Submit Time", "wait", "procs")
    is most likely meant as it: say so. Missing fields are read as -1 (unknown), so a misnamed run_time excluded
    every job as a negative runtime and a misnamed requested_time ran the log without estimates. Other extra
    columns (the user's own) are left alone."""
    missing = [f for f in FIELDS if f not in columns]
    if not missing:
        return
    for column in columns:
        if not isinstance(column, str) or column in FIELDS:
            continue
        n = _norm(column)
        if not n:
            continue
        close = [f for f in missing if _norm(f) == n or (len(n) >= 4 and (_norm(f).startswith(n) or
                                                                          _norm(f).endswith(n)))]
        if not close:
            close = [f for f in missing
                     if difflib.SequenceMatcher(None, n, _norm(f)).ratio() >= 0.8]
        if close:
            meant = " or ".join(repr(f) for f in close)
            _warn(f"column {column!r} is not an SWF column, and {meant} is missing (read as -1, unknown): "
                  f"did you mean {meant}? (rename it: df.rename(columns={{{column!r}: {close[0]!r}}}))")


def _is_read_swf_pair(log):
    """True for what read_swf returns, (DataFrame, header lines): one log, not a list of two."""
    return isinstance(log, tuple) and len(log) == 2 and isinstance(log[0], pd.DataFrame) and isinstance(log[1], list)


def _log_list(log):
    """The logs of a parameter that takes one log or a list of them: a path, DataFrame, Log or read_swf's pair is
    one (the pair was taken for a list of two, its header list then refused as a log)."""
    if isinstance(log, (str, os.PathLike, pd.DataFrame, _core.Log)) or _is_read_swf_pair(log):
        return [log]
    return list(log)


def _logs(logs):
    """Library Logs from a list of logs, as _log each."""
    return [_log(log) for log in logs]


def _warn_header_problems(log):
    """The header's values that do not parse (e.g. "; MaxProcs: abc"), which the library ignores, and a time zone
    the system does not know, as warnings (the CLI prints them on standard error); and the partial-execution lines
    of preempted jobs left out of a log read from a file (the CLI's note), and the malformed lines a read with
    skip_invalid skipped, by reason (the CLI's note)."""
    for w in log.header_warnings:
        _warn(w)
    if log.partial_executions_note:
        _warn(log.partial_executions_note)
    if log.skipped_note:
        _warn(log.skipped_note)
    return log


def _column(series):
    """A column's values for the library. A nullable numeric column (Int64, Float64, as read_csv or a merge
    makes them) gives its missing values as NaN, which the library reads as -1, like NaN in a float column."""
    if pd.api.types.is_datetime64_any_dtype(series.dtype) or pd.api.types.is_timedelta64_dtype(series.dtype):
        # Their nanoseconds would read as out of range (or worse, as seconds): say what the column must hold.
        how = "(df.{0} - start).dt.total_seconds()" if pd.api.types.is_datetime64_any_dtype(series.dtype) \
            else "df.{0}.dt.total_seconds()"
        raise TypeError(f"column {series.name}: {series.dtype} values; SWF columns hold seconds"
                        f"{' from the log start' if series.name == 'submit_time' else ''} (e.g. "
                        + how.format(series.name) + ")")
    if pd.api.types.is_extension_array_dtype(series.dtype) and pd.api.types.is_numeric_dtype(series.dtype):
        return series.to_numpy(dtype="float64", na_value=float("nan"))
    return series.to_numpy()


def _frame(log):
    """A library Log as a DataFrame (the header in df.attrs["swf_header"])."""
    df = pd.DataFrame(_core.log_columns(log), columns=FIELDS)
    df.attrs["swf_header"] = list(log.header_lines)
    return df


def read_swf(path, keep_partial_executions=False, skip_invalid=False, threads=0):
    """Read an SWF log (plain or gzip; a name ending in .csv or .csv.gz is read as the CSV `schedlab convert` writes).
    Returns (DataFrame, header): the 18 SWF columns (int64; float64 for a
    field where the log wrote fractions, kept exactly) and the header lines. The header is also in
    df.attrs["swf_header"], so the DataFrame can be written or simulated as it is. A preempted job's
    partial-execution lines (status 2-4 after its summary line, docs/conventions.md) are left out, their number in
    df.attrs["partial_executions"], unless `keep_partial_executions` (a copy of the file, line for line; every
    other function leaves them out again). A malformed line raises ValueError naming the file, line and field,
    unless `skip_invalid` (the CLI's --skip-invalid): then it is skipped, counted by reason in df.attrs["skipped"]
    ({"non_numeric": 1, ...}) and warned about. `threads`: the threads that parse the text (0, the default: every
    core; 1: line by line on the calling thread, e.g. in each process of a pool); the result is the same for any."""
    _check_bool(keep_partial_executions, "keep_partial_executions")
    _check_bool(skip_invalid, "skip_invalid")
    threads = _whole(threads, "threads", 32)
    log = _warn_header_problems(_core.read_log(_path(path), keep_partial_executions, skip_invalid, threads))
    df = _frame(log)
    df.attrs["partial_executions"] = log.partial_executions
    df.attrs["skipped"] = log.skipped
    return df, df.attrs["swf_header"]


def _check_bool(value, name):
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__}")


def show_progress(on=True, after=2.0):
    """The progress of long calls on sys.stderr, as the CLI shows it (on by default): `simulate`, `compare`,
    `report`, `predict`, `sweep`, `temporal`, the bootstraps of `locality` and `diversity`, and `sessions`'
    k-means. Nothing for a call shorter than `after` seconds; then a line every 10 s ("schedlab sweep: 12/40 runs
    done, 0.6 runs/s, ETA 47s"), or a bar redrawn in place and erased at the end when sys.stderr is a terminal."""
    if not isinstance(on, bool):
        raise TypeError(f"on must be True or False, not {type(on).__name__} {on!r}")
    after = float(after)
    if not after >= 0 or after == float("inf"):
        raise ValueError(f"after must be a number of seconds >= 0, not {after!r}")
    _core.set_progress(on, after)


def read_log(path, skip_invalid=False, threads=0):
    """Read a log into the library once, for many calls (every function that takes a log takes it): no DataFrame
    is built, and each call then starts from the records in memory. `skip_invalid` and `threads`: as read_swf's
    (the counts in the Log's `skipped`)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"read_log takes a path, not {type(path).__name__} (a DataFrame is a log as it is)")
    _check_bool(skip_invalid, "skip_invalid")
    threads = _whole(threads, "threads", 32)
    if skip_invalid or threads != 0:
        return _warn_header_problems(_core.read_log(_path(path), False, skip_invalid, threads))
    return _log(path)


def read_sacct(path, procs=None, timezone="", keep_unstarted=False, keep_partial_executions=False):
    """Read Slurm accounting output (`sacct -P ...`, docs/slurm.md) as an SWF log, as `schedlab convert --from
    sacct`: (DataFrame, header). The reader's counts (rows, jobs, unstarted, unfinished, steps left out,
    heterogeneous-job components merged into their job, requeued jobs of `sacct -D` folded into one job each, jobs
    submitted at their Eligible time (held), rows per state, jobs whose Start came before their Submit or End before Start, set to 0 and warned about) are in
    df.attrs["sacct"]. `procs`: the machine size (default: the largest allocation); `timezone`: the zone sacct
    printed its times in (default: TZ, else the machine's). A requeued job's runs (partial-execution lines after its
    summary line) are left out, their number in df.attrs["partial_executions"], unless `keep_partial_executions`
    (the log as `convert` writes it)."""
    if not isinstance(keep_partial_executions, bool):
        raise TypeError(f"keep_partial_executions must be True or False, not {type(keep_partial_executions).__name__}")
    log, counts, sacct_warnings = _core.read_sacct(_path(path), _whole_or_none(procs, "procs"),
                                                   _text(timezone, "timezone", True), bool(keep_unstarted),
                                                   keep_partial_executions)
    for w in sacct_warnings:  # the CLI's words (swf::sacct_warnings)
        _warn(w)
    df = _frame(log)
    df.attrs["sacct"] = counts
    df.attrs["partial_executions"] = log.partial_executions
    return df, df.attrs["swf_header"]


def names(log, kind="users"):
    """The names a log converted from Slurm's sacct keeps in its header ("; Note: users: 1=alice, ..."): a dict
    number -> name of `kind` ("users", "groups", "partitions"); empty when the header has none. With a DataFrame:
    df.user_id.map(schedlab.names(df)) gives each job's user name."""
    if kind not in ("users", "groups", "partitions"):
        raise ValueError(f"kind must be 'users', 'groups' or 'partitions', not {kind!r}")
    return _core.header_names_by_id(_log(log), kind)


def write_swf(df, path, header=None):
    """Write a DataFrame with SWF columns as an SWF log (".gz" compresses; a name ending in .csv or .csv.gz writes
    the CSV of `schedlab convert`). `header`: the header lines (default:
    df.attrs["swf_header"])."""
    _core.write_log(_log(df, header, keep_partial_executions=True), _path(path))


def _time(value, name):
    """A point in the log for filter(): a text as `schedlab filter` takes it ("1996-10-01", "1996-10-01T08:00",
    "+3d") or a number of seconds from the log's start."""
    if value is None:
        return ""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        seconds = _whole(value, name)
        if seconds < 0:
            raise ValueError(f"{name} must be >= 0 seconds from the log's start, not {value!r}")
        return f"+{seconds}"
    return str(value)


def _ints(values, name):
    if values is None:
        return None
    if isinstance(values, (numbers.Integral, str)):
        values = [values]
    return {_whole(v, name) for v in values}


def _ids(values, name, log, kind):
    """Ids for filter_log: whole numbers, or names the log's header maps (a log converted from sacct: "; Note: users:
    1=alice, ..."), as `schedlab filter --users alice` takes them."""
    if values is None:
        return None
    if isinstance(values, (numbers.Integral, str)):
        values = [values]
    values = list(values)
    names = [v for v in values if isinstance(v, str)]
    ids = {_whole(v, name) for v in values if not isinstance(v, str)}
    return ids | _core.ids_of_names(log, name, names, kind) if names else ids


def filter_log(log, from_=None, to=None, users=None, exclude_users=None, min_procs=None, max_procs=None,
               status=None, queue=None, partition=None, drop_flurries=False, flurry_factor=3.0, flurry_min_jobs=500):
    """Keep the jobs that pass every criterion, as `schedlab filter` (docs/logs.md; not named `filter`, which a
    star import would take from Python's builtins): a DataFrame whose header records the filter as "; Note:"
    lines (write_swf gives the CLI's file) and whose attrs["filter"] holds the counts (records, kept, excluded by
    reason, flurries dropped). `from_`/`to`: "YYYY-MM-DD[THH:MM[:SS]]" in the
    log's time zone, "+3d" from the log's start, or seconds; `to` is exclusive. Lists of ids: users,
    exclude_users, status, queue, partition; users and partitions also by the names a log converted from sacct
    keeps in its header (users=["alice"], partition="gpu")."""
    lg = _log(log, keep_partial_executions=True)
    out, counts, hints = _core.filter(lg, _time(from_, "from_"), _time(to, "to"), _ids(users, "users", lg, "users"),
                               _ids(exclude_users, "exclude_users", lg, "users") or set(),
                               _whole_or_none(min_procs, "min_procs"),
                               _whole_or_none(max_procs, "max_procs"), _ints(status, "status"),
                               _ints(queue, "queue"), _ids(partition, "partition", lg, "partitions"), bool(drop_flurries),
                               float(flurry_factor), _whole(flurry_min_jobs, "flurry_min_jobs"))
    for hint in hints:  # a window that keeps no job (what the log spans), ids no record has (the log's own)
        _warn(hint)
    df = _frame(out)
    df.attrs["filter"] = counts
    return df


def stats(log, procs=None):
    """Everything `schedlab stats --json` reports about a log, as a dict."""
    return _core.stats(_log(log), _whole_or_none(procs, "procs"))


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

    @property
    def by_class(self):
        """The metrics of the four job classes (simulate(by_class=True)) as a DataFrame indexed by class; None when
        they were not asked for."""
        by_class = self.metrics.get("by_class")
        if by_class is None:
            return None
        columns = ["class", "jobs", "share", "work_share", "wait_mean", "response_mean", "slowdown_mean",
                   "bounded_slowdown_mean", "backfilled", "backfilled_share"]
        return pd.DataFrame(by_class["classes"], columns=columns).set_index("class")

    def __repr__(self):
        m = self.metrics.get("metrics", {})
        predictor = self.metrics.get("predictor", "estimate")  # named when it is not the default
        return (f"Result({self.metrics.get('scheduler')}"
                f"{'' if predictor == 'estimate' else ', predictor ' + predictor}, "
                f"wait mean {m.get('wait', {}).get('mean'):.1f} s, "
                f"bounded slowdown mean {m.get('bounded_slowdown', {}).get('mean'):.2f})")


class Scheduler:
    """A scheduling policy written in Python, mirroring sim/scheduler.h: subclass it and pass an instance to
    simulate(). The engine calls, at every instant where something happened, on_termination(state, job) for each
    finished job, on_arrival(state, job) for each arriving one, then schedule(state) once, which returns the ids
    of the waiting jobs to start now, in order (each must fit in the processors left by the previous ones) — or,
    defined as schedule(state, decision), fills decision.start, decision.reservations ([(job id, time)]: promises
    the engine checks) and decision.wake_at (call me again at this time), as sim/scheduler.h's Decision.

    state: now, free, total (processors), queue [(id, procs, submit, prediction)] in queue order, running
    [(id, procs, start, prediction, expected_end)] by predicted end. Schedulers see predictions, never runtimes.
    The engine checks its invariants (as `simulate --check`) on every decision.

    Preemption: decision.suspend lists running jobs to suspend now (before decision.start); a suspended job
    waits at the back of the queue, state.attained gives {id: seconds it has run}, and it resumes, listed in
    decision.start, on the processors it left: state.resumable is the set of suspended jobs whose processors
    are all free now; decision.keep_free_for lists suspended jobs whose processors new jobs should avoid.
    on_suspend(state, job) is called for each suspension. `overrun` says what happens to a job
    that outlives its prediction: "keep" (it runs on), "kill" or "suspend" (re-queued with a fresh prediction);
    `resume_delay`: seconds a resumed job holds its processors before it makes progress again.
    """

    name = "python"
    overrun = "keep"
    resume_delay = 0

    def schedule(self, state):
        raise NotImplementedError("a Scheduler subclass defines schedule(state) -> job ids to start now")


Job = collections.namedtuple("Job", ["id", "job_number", "submit", "procs", "estimate", "has_estimate", "user",
                                     "group", "executable", "queue", "partition"])
Job.__doc__ = """A job as a Predictor sees it: id (its index in the simulation, what update() takes), job_number (SWF
field 1), submit (seconds, after load scaling), procs, estimate (the user's, field 9; the runtime when the log has
none: has_estimate False), user, group, executable, queue, partition (fields 12-16, -1 unknown). Never the
runtime: a predictor learns it from on_termination (now - start)."""


class Predictor:
    """A runtime predictor written in Python, mirroring predict/predictor.h: subclass it and pass an instance as
    the predictor of simulate(), compare() or predict(). The engine calls on_arrival(now, job) when a job enters
    the queue, which returns its predicted runtime (an int >= 0, seconds from its start), and, when defined,
    on_start(now, job, prediction), on_termination(now, job, start) (the job ran now - start seconds) and
    on_deadline_miss(now, job, start, prediction) (it is still running at start + prediction). Within one
    instant: terminations, then arrivals, then starts; deadline misses after the arrivals. `job` is a
    schedlab.Job: never the runtime.

    Any hook may give a waiting or running job a new prediction with self.update(job_id, seconds); the engine
    applies them when the hook returns (updates for jobs no longer waiting or running are ignored; a running job's
    prediction is never below the time it has run). Hooks other than on_arrival return nothing.

    A job that outlives its prediction counts as ending now until the prediction changes: give a correction
    (correction="tsafrir", as the papers do) or raise the prediction in on_deadline_miss. Each simulation runs
    a copy of the instance (copy.deepcopy), so runs are independent and repeatable and the instance is left as
    it was. `name` is what results call it (default: the class's name).
    """

    name = "python"

    def on_arrival(self, now, job):
        raise NotImplementedError("a Predictor subclass defines on_arrival(now, job) -> predicted runtime (int seconds)")

    def update(self, job_id, prediction):
        """A new prediction (seconds from the job's start, >= 0) for a waiting or running job, applied when the
        hook that gave it returns."""
        prediction = _whole(prediction, "update()'s prediction")
        if prediction < 0:
            raise ValueError(f"update()'s prediction must be >= 0 seconds, not {prediction}")
        self.__dict__.setdefault("_schedlab_updates", []).append((_whole(job_id, "update()'s job_id", 32), prediction))


def _plugin_name(plugin, base):
    """What results call a Python scheduler or predictor: its `name`, else its class's name (the base's default,
    "python", told two of them apart by nothing). An empty or non-text name is refused by name: results showed
    ":correction=tsafrir" for an empty one, and pybind11 said only "incompatible constructor arguments"."""
    name = plugin.name
    if not isinstance(name, str) or not name:
        raise TypeError(f"{base.__name__} {type(plugin).__name__}: name must be a non-empty text, not "
                        f"{type(name).__name__} {name!r}")
    return name if name != base.name else type(plugin).__name__


def _predictor(predictor, correction, optional=True):
    """A predictor argument as the library takes it: (spec text, None, correction) or ("", a Python predictor
    handle, correction); `optional`: None and "" mean the default."""
    correction = _text(correction, "correction", True)
    if isinstance(predictor, Predictor):
        name = _plugin_name(predictor, Predictor)
        return "", _core.PythonPredictor(predictor, name, Job), correction
    if isinstance(predictor, type) and issubclass(predictor, Predictor):
        raise TypeError(f"predictor: an instance of {predictor.__name__} is needed, not the class "
                        f"(predictor={predictor.__name__}())")
    return _text(predictor, "predictor", optional), None, correction


def _schedulers(schedulers):
    """A list of schedulers as the library takes it: the specs (a Python scheduler's place holds its name) and the
    Python schedulers (None in the places of the specs)."""
    if isinstance(schedulers, (str, Scheduler)):
        raise TypeError(f"schedulers must be a list of specs or schedlab.Scheduler instances, not "
                        f"{type(schedulers).__name__} {schedulers!r}")
    names, objects = [], []
    for s in schedulers:
        if isinstance(s, Scheduler):
            names.append(_plugin_name(s, Scheduler))
            objects.append(s)
        elif isinstance(s, type) and issubclass(s, Scheduler):
            raise TypeError(f"schedulers[]: an instance of {s.__name__} is needed, not the class ({s.__name__}())")
        else:
            names.append(_text(s, "schedulers[]"))
            objects.append(None)
    return names, objects


def _threads(threads, python_runs):
    """The threads of a call whose `python_runs` simulations call into Python at every event: with two or more, the
    default (0, every core) is one thread, since each call takes the GIL and threads only contend for it (KTH,
    compare of four schedulers with a Python predictor: 2.3 s on one thread, 3.6 s on two)."""
    threads = _whole(threads, "threads", 32)
    return 1 if threads == 0 and python_runs >= 2 else threads


def _python_runs(scheduler_objects, predictor_object):
    """How many of a compare's or a report's simulations call Python: all of them with a Python predictor (each
    scheduler runs a copy), else one per Python scheduler."""
    return len(scheduler_objects) if predictor_object is not None else sum(o is not None for o in scheduler_objects)


def simulate(log, scheduler="easy", predictor="", procs=None, load=None, *, correction="", arrival_scale=1.0,
             kill_at_estimate=False, extend_estimates=False, warmup_fraction=0.0, bsld_tau=10, seed=0, check=False,
             by_class=False, feedback=False):
    """Simulate a scheduler on a log, as `schedlab simulate`: the options are named as its flags
    (warmup_fraction=0.01, kill_at_estimate=True, ...). `feedback=True`: a job that names a preceding job (SWF
    fields 17-18) is submitted its think time after that job's simulated end. `scheduler`: a name, spec or preset of
    schedulers(), or a schedlab.Scheduler instance; `predictor`: a predictor spec (default: the estimate) or a
    schedlab.Predictor instance. `by_class`: True (or the limits, "RUNTIME,PROCS" as --class-limits: "30m,16") adds the metrics of
    short/long x narrow/wide jobs, metrics["by_class"]. Returns a Result."""
    predictor, predictor_object, correction = _predictor(predictor, correction)
    by_class = _by_class(by_class)
    load = _real_or_none(load, "load")
    if isinstance(scheduler, Scheduler):
        name = _plugin_name(scheduler, Scheduler)
        metrics, jobs = _core.simulate_python(_log(log), scheduler, name,
                                              predictor, predictor_object, correction, _whole_or_none(procs, "procs"),
                                              load, float(arrival_scale), bool(kill_at_estimate),
                                              bool(extend_estimates), float(warmup_fraction),
                                              _whole(bsld_tau, "bsld_tau"), _seed(seed), by_class, bool(feedback))
        return _warned(Result(metrics, jobs))
    metrics, jobs = _core.simulate(_log(log), _text(scheduler, "scheduler"), predictor, predictor_object, correction,
                                   _whole_or_none(procs, "procs"), load, float(arrival_scale),
                                   bool(kill_at_estimate), bool(extend_estimates), float(warmup_fraction),
                                   _whole(bsld_tau, "bsld_tau"), _seed(seed), bool(check), by_class, bool(feedback))
    return _warned(Result(metrics, jobs))


def _by_class(value):
    """by_class=: True (the default limits), False/None (none) or the limits as --class-limits writes them."""
    if value is True:
        return "1h,8"
    if value is False or value is None:
        return ""
    if not isinstance(value, str) or not value:
        raise TypeError(f"by_class must be True, False or the limits as a text (\"1h,8\"), not {value!r}")
    return value


def _warned(result):
    """The result, once its warnings (a predictor that left jobs overdue, ...) are given as Python warnings."""
    for w in result.metrics.get("warnings", []):
        _warn(w)
    return result


def _toml_value(value, key, objects=None):
    """`value` as TOML text. A Python scheduler or predictor in a list of schedulers or predictors (or an include or
    exclude table's) stands there by its name, and goes into `objects` ({"schedulers": {name: instance},
    "predictors": {...}}) for the library."""
    if isinstance(value, (Predictor, Scheduler)):
        kind = "predictors" if isinstance(value, Predictor) else "schedulers"
        if objects is None or key not in (kind, f"include.{kind[:-1]}", f"exclude.{kind[:-1]}"):
            raise TypeError(f"sweep spec: {key}: a Python {'Predictor' if kind == 'predictors' else 'Scheduler'} "
                            f"({type(value).__name__}) goes in the list of {kind}")
        name = _plugin_name(value, Predictor if kind == "predictors" else Scheduler)
        if key.startswith("exclude."):  # matched by its name; not run
            return json.dumps(name, ensure_ascii=False)
        if objects[kind].get(name, value) is not value:
            raise ValueError(f"sweep spec: {key}: two {kind} named '{name}' (rows name a run by it): give each its "
                             f"own name")
        objects[kind][name] = value
        return json.dumps(name, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, (str, os.PathLike)):
        return json.dumps(os.fspath(value), ensure_ascii=False)  # a TOML basic string: JSON's escapes
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v, key, objects) for v in value) + "]"
    raise TypeError(f"sweep spec: {key}: a text, number, boolean or list, not {type(value).__name__}")


def _spec_text(spec, objects):
    """A spec given as a dict ({"logs": [...], "schedulers": [...], "include": [{...}], ...}) as its TOML text:
    its keys are the file's, "include" and "exclude" lists of tables; Python schedulers and predictors by their
    names, collected into `objects`."""
    lines, tables = [], []
    for key, value in spec.items():
        if key in ("include", "exclude"):
            for table in (value if isinstance(value, (list, tuple)) else [value]):
                if not isinstance(table, dict):
                    raise TypeError(f"sweep spec: {key}: a list of dicts, not {type(table).__name__}")
                tables.append(f"[[{key}]]")
                tables += [f"{k} = {_toml_value(v, f'{key}.{k}', objects)}" for k, v in table.items()]
        else:
            lines.append(f"{key} = {_toml_value(value, key, objects)}")
    return "\n".join(lines + tables) + "\n"


def sweep(spec, threads=0, output=None):
    """Run a sweep (docs/sweeps.md): `spec` is a path to a TOML file, the TOML text itself, or a dict of the same
    keys ({"logs": ["a.swf"], "schedulers": ["easy"], "exclude": [{"scheduler": "easy", "load": 0.9}]}; relative
    logs from the working directory). Returns a DataFrame, one row per run in run order, with the columns of
    `schedlab sweep`'s CSV.

    With `output` (a .csv or .jsonl path) the rows are also written there as `schedlab sweep -o` writes them, and a
    second call with the same output resumes: the runs already in it are not run again (ValueError if the spec
    changed since). The DataFrame is then the whole file.

    In a dict, the lists of schedulers and predictors may hold schedlab.Scheduler and schedlab.Predictor instances
    beside specs: each run works on a copy, the rows name it by its name (which must differ from the built-in
    ones), and a resumed output takes rows of that name as its runs: give your plug-in a new name when its code
    changes. Such a sweep runs on one thread unless `threads` is 1 or more (the plug-ins' calls take the GIL)."""
    objects = {"schedulers": {}, "predictors": {}}
    if isinstance(spec, dict):
        spec = _spec_text(spec, objects)
    elif not isinstance(spec, (str, os.PathLike)):
        raise TypeError(f"spec is a path, a TOML text or a dict, not {type(spec).__name__}")
    # A one-line text without '=' is a file name, existing or not (a missing file was parsed as TOML: "saw '/'").
    is_path = isinstance(spec, os.PathLike) or (isinstance(spec, str) and (
        os.path.exists(spec) or ("\n" not in spec and "=" not in spec and spec.strip() != "")))
    path = _path(spec) if is_path else ""
    plugins = (objects["schedulers"], {name: _predictor(p, "")[1] for name, p in objects["predictors"].items()})
    # The runs naming a plug-in call into Python: a sweep of them has several as a rule (the product of its lists).
    if objects["schedulers"] or objects["predictors"]:
        threads = _threads(threads, python_runs=2)
    else:
        threads = _whole(threads, "threads", 32)
    if output is not None:
        output = _path(output)
        if output in ("-", b"-"):  # the rows are the DataFrame returned; the library would print them
            raise ValueError("output='-': the sweep's rows are the DataFrame returned; output=None writes no file")
        jsonl = os.fsdecode(output).endswith(".jsonl")
        *_, log_warnings = _core.sweep_to_file("" if path else spec, path, threads, output, jsonl, *plugins)
        for w in log_warnings:
            _warn(w)
        return _read_sweep_output(output, jsonl)
    csv, log_warnings = _core.sweep("" if path else spec, path, threads, *plugins)
    for w in log_warnings:
        _warn(w)
    return _read_sweep_output(io.BytesIO(csv), False)


def sweep_collect(directory, output):
    """Merge the shards of a `schedlab sweep --slurm DIR` job array into `output` (the rows a local run writes;
    ValueError naming the missing shards, or shards of another run set). Returns the merged DataFrame."""
    output = _path(output)
    _core.sweep_collect(_path(directory), output)
    return _read_sweep_output(output, _read_manifest_format(_path(directory)) == "jsonl")


def _read_manifest_format(directory):
    with open(os.path.join(os.fsdecode(directory), "sweep.json")) as f:
        return json.load(f)["format"]


def _read_sweep_output(path, jsonl):
    """The rows of a sweep as one DataFrame whatever their source (the CSV text of a sweep in memory, a CSV file, a
    JSON lines file), with the column types read_csv gives the CSV: a number column is int64 when every value is
    a whole number and none is missing, float64 otherwise (a sweep in memory had object columns of None, and the
    JSON lines float64 where the CSV had int64)."""
    if not isinstance(path, io.IOBase):
        path = os.fsdecode(path)  # pandas takes str paths (os.fsdecode's, for a name that is not UTF-8)
    columns = list(_core.sweep_columns())
    if jsonl:
        df = pd.read_json(path, lines=True, dtype=False) if os.path.getsize(path) else pd.DataFrame(columns=columns)
        for c in df.columns:
            s = df[c]
            if s.dtype == np.float64 and s.notna().all() and np.isfinite(s).all() and (s == np.floor(s)).all():
                df[c] = s.astype(np.int64)
    else:
        df = pd.read_csv(path, keep_default_na=False, na_values=[""])
    # Run order, as without an output: a row deleted by hand and run again by a resume sits at the file's end.
    return df[columns].sort_values("run", kind="stable").reset_index(drop=True)


def schedulers():
    """The registered schedulers: {name: description}."""
    return dict(_core.schedulers())


def predictors():
    """The registered predictors: {name: description}."""
    return dict(_core.predictors())


def _whole(value, name, bits=64):
    """A whole number for an integer parameter: an int (NumPy's too) or a float without a fraction. int() would
    cut 2.7 to 2 without a word; a fraction, a bool or a text is an error naming the parameter, and so is a number
    beyond the library's `bits`-bit integer (pybind11 said only 'incompatible function arguments')."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        whole = int(value)
    elif isinstance(value, numbers.Real) and not isinstance(value, bool) and float(value).is_integer():
        whole = int(value)
    elif isinstance(value, numbers.Real) and not isinstance(value, bool):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    else:
        raise TypeError(f"{name} must be a whole number, not {type(value).__name__} {value!r}")
    if bits is not None and not -2 ** (bits - 1) <= whole < 2 ** (bits - 1):
        raise ValueError(f"{name} must be at most {2 ** (bits - 1) - 1} (and at least {-2 ** (bits - 1)}), "
                         f"not {value!r}")
    return whole


def _text(value, name, optional=False):
    """A text parameter (a name or a spec). Anything else is a TypeError naming the parameter (pybind11 said only
    'incompatible function arguments'); with `optional`, None and "" are "not given"."""
    if optional and value is None:
        return ""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a text, not {type(value).__name__} {value!r}")
    return value


def _real_or_none(value, name):
    """A number parameter that may be left out (None)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {type(value).__name__} {value!r}")
    return float(value)


def _whole_or_none(value, name):
    return None if value is None else _whole(value, name)


def _seed(seed):
    """A seed: a whole number >= 0 (the library's seeds are unsigned 64-bit numbers)."""
    value = _whole(seed, "seed", None)  # unsigned 64-bit: its own range, checked below
    if value < 0 or value >= 2 ** 64:
        raise ValueError(f"seed must be a whole number from 0 to 2**64 - 1, not {seed!r}")
    return value


def _seconds(duration, name):
    """Seconds from a number of seconds or a duration text ("90", "15m", "1.5h", "1h30m"), by the library's rule
    (rounded to whole seconds; negative, infinite or unknown units are a ValueError naming `name`)."""
    if isinstance(duration, bool):
        raise TypeError(f"{name}: a duration is a number of seconds or a text such as '3d', not a bool")
    if isinstance(duration, numbers.Integral):
        text = str(int(duration))
    elif isinstance(duration, numbers.Real):
        text = f"{float(duration):f}"
    else:
        text = str(duration)
    return _core.parse_duration(text, name)


def locality(log, attribute="runtime", slice="3d", bins=24, bootstrap=1000, seed=1, shift=0, threads=0,
             expected="share"):
    """Locality of sampling (`schedlab analyze locality --json`): M'_max, M'_med, the bootstrap baseline, M.
    `shift`: of the slice boundaries from the first submit; `expected`: "share" or "uniform" counts."""
    return _core.locality(_log(log), _text(attribute, "attribute"), _seconds(slice, "slice"), _whole(bins, "bins", 32),
                          _whole(bootstrap, "bootstrap", 32), _seed(seed), _whole(threads, "threads", 32),
                          _seconds(shift, "shift"), _text(expected, "expected"))


def temporal(log, hurst=True):
    """Temporal structure (`schedlab analyze temporal --json`): locality, daily and weekly cycles, Hurst."""
    return _core.temporal(_log(log), bool(hurst))


def runs(log, size_only=False):
    """Runs of repeated jobs and the fitted theta (`schedlab analyze runs --json`)."""
    return _core.runs(_log(log), not size_only)


def flurries(log, factor=3.0, min_jobs=500):
    """Flurries: (user, week) bursts (`schedlab flurries --json`)."""
    return _core.flurries(_log(log), float(factor), _whole(min_jobs, "min_jobs"))


def sessions(log, classify=False, think_time="20m", online=False, pca=False, seed=1, restarts=10, transform="none",
             rows=False):
    """User sessions, their variables and (classify=True) the session and user classes (`schedlab sessions
    --json`); online=True adds the online heuristic class of each session, pca=True the principal components.
    `log`: one log, or a list of them pooled as the CLI pools several. `think_time`: the session boundary,
    seconds or a duration text as --think-time. `seed`, `restarts`, `transform` ("none" or "log"): the k-means
    options of --classify. rows=True returns (summary, sessions, users): one DataFrame row per session (as -o
    writes) and, with classify=True, one per user with its variables and class (as --users-output; else None)."""
    logs = _log_list(log)
    if not logs:
        raise ValueError("sessions: give at least one log")
    names = [_path(l) if isinstance(l, (str, os.PathLike)) else f"log {i + 1}" for i, l in enumerate(logs)]
    summary, session_csv, user_csv = _core.sessions(
        _logs(logs), names, bool(classify), _seconds(think_time, "think_time"), bool(online), bool(pca),
        _seed(seed), _whole(restarts, "restarts", 32), _text(transform, "transform"), bool(rows))
    if not rows:
        return summary
    users = pd.read_csv(io.StringIO(user_csv)) if user_csv is not None else None
    return summary, pd.read_csv(io.StringIO(session_csv)), users


def predict_next(log, user, job_procs=1, estimate=None, predictor="estimate", *, executable=-1, group=-1, queue=-1,
                 partition=-1, correction="", procs=None, extend_estimates=False, warmup_fraction=0.0, seed=0):
    """How long will this user's next job run? (`schedlab predict LOG --next user=U,procs=N,estimate=E --json`): the
    log's own schedule replayed through the predictor (a spec or a schedlab.Predictor instance), then a job of `user`
    on `job_procs` processors with `estimate` (seconds or a duration text, "4h"; None: no estimate) arrives a second
    after the log's last job ended. Returns a dict: "prediction" (seconds; None when the predictor fell back to an
    estimate the job does not have), "submit", "user_jobs" and the predictor's accuracy on them. `procs` is the
    machine size, as in predict(). `user`, `group` and `partition` may also be the names a log converted from sacct
    keeps in its header (user="alice")."""
    predictor, predictor_object, correction = _predictor(predictor, correction, optional=False)
    if estimate is not None:
        estimate = _seconds(estimate, "estimate")
    lg = _log(log)

    def one(value, name, kind):  # a number, or a name the header maps
        if isinstance(value, str):
            return next(iter(_core.ids_of_names(lg, name, [value], kind)))
        return _whole(value, name, 32)
    out = _core.predict_next(lg, predictor, predictor_object, correction, _whole_or_none(procs, "procs"),
                             float(warmup_fraction), _seed(seed), bool(extend_estimates), one(user, "user", "users"),
                             _whole(job_procs, "job_procs", 32), estimate, _whole(executable, "executable", 32),
                             one(group, "group", "groups"), _whole(queue, "queue", 32),
                             one(partition, "partition", "partitions"))
    for w in out.get("warnings", []):
        _warn(w)
    return out


def predict(log, predictor="estimate", correction="", procs=None, extend_estimates=False, warmup_fraction=0.0,
            seed=0, jobs=False):
    """Replay the log's own schedule through a runtime predictor (`schedlab predict --json`; the default
    predictor is the CLI's; a schedlab.Predictor instance too). jobs=True returns (summary, DataFrame): the per-job
    accuracy of --jobs-out."""
    predictor, predictor_object, correction = _predictor(predictor, correction, optional=False)
    summary, csv = _core.predict(_log(log), predictor, predictor_object, correction, _whole_or_none(procs, "procs"),
                                 float(warmup_fraction), _seed(seed), bool(extend_estimates), bool(jobs))
    for w in summary.get("warnings", []):  # a predictor raising missed predictions one second at a time
        _warn(w)
    return (summary, pd.read_csv(io.StringIO(csv))) if jobs else summary


def compare(log, schedulers, predictor="", procs=None, load=None, period="30d", baseline="", threads=0, *,
            correction="", kill_at_estimate=False, extend_estimates=False, arrival_scale=1.0, bsld_tau=10,
            warmup_fraction=0.0, seed=0, by_class=False, feedback=False):
    """Several schedulers on one log, period by period (`schedlab compare --json`): means, months won, gaps,
    deviations, gains, correlations. `schedulers`: a list of specs and schedlab.Scheduler instances (run under the
    engine's invariant checks, as simulate() runs one); `predictor`: a spec or a schedlab.Predictor instance (each
    scheduler runs a copy of it). The simulation options are simulate()'s; with `by_class`, each scheduler's entry
    has its "by_class" list."""
    by_class = _by_class(by_class)
    names, objects = _schedulers(schedulers)
    predictor, predictor_object, correction = _predictor(predictor, correction)
    out = _core.compare(_log(log), names, objects, predictor, predictor_object,
                        _whole_or_none(procs, "procs"), _real_or_none(load, "load"), _seconds(period, "period"),
                        _text(baseline, "baseline", True), _threads(threads, _python_runs(objects, predictor_object)),
                        correction,
                        bool(kill_at_estimate), bool(extend_estimates), float(arrival_scale),
                        _whole(bsld_tau, "bsld_tau"), float(warmup_fraction), _seed(seed), by_class, bool(feedback))
    for w in out.get("warnings", []):
        _warn(w)
    return out


def generate_estimates(log, model, params="", seed=1):
    """The log with field 9 replaced by an estimate model's (`schedlab estimates generate`): (DataFrame, report).
    `params`: as `--params` on the command line, one item or a list of them merged left to right: "k=v,k=v" text,
    the path of a JSON file (a fitted model written by `schedlab estimates fit`) or a dict (fit_estimates'). The model's warnings (the
    CLI prints them) are issued as Python warnings and listed in report["warnings"]."""
    items = [params] if isinstance(params, (str, os.PathLike, dict)) else list(params)
    items = [json.dumps(i) if isinstance(i, dict) else _path(i) for i in items if not (isinstance(i, str) and i == "")]
    out, report = _core.estimates_generate(_log(log), _text(model, "model"), items, _seed(seed))
    for w in report.get("warnings", []):
        _warn(w)
    return _frame(out), report


def generate_locality(log, theta=2.5, jobs=0, max_repetitions=1000, repeat="job", arrivals="poisson", think=0,
                      seed=1, cut_tail=False):
    """Feitelson's locality model drawing from the log's jobs (`schedlab generate locality`): a DataFrame.
    `repeat`: "job", "runtime" or "size"; `arrivals`: "poisson" or "log"; `think`: seconds between repeats;
    `cut_tail`: drop the repeats that arrive after the last run has started (the header's Note says how many)."""
    return _frame(_core.generate_locality(_log(log), float(theta), _whole(jobs, "jobs"), _seed(seed),
                                          _whole(max_repetitions, "max_repetitions", 32), _text(repeat, "repeat"), _text(arrivals, "arrivals"),
                                          _whole(think, "think"), bool(cut_tail)))


def generate_talby(procs=None, cpu_work=None, jobs_per_day=None, load=None, weeks=104, seed=1, fit=None,
                   job_model=None, save_job_model=None, threads=0):
    """Talby's user/session model (`schedlab generate talby`): (DataFrame, report), the same log as the CLI's.
    The job layer is fitted on `fit` (default: the bundled KTH log, shipped in the package) or read from `job_model`
    (a file written by `save_job_model` or --save-job-model). The usage guideline's warnings (§14.1) are issued
    as Python warnings and listed in report["warnings"]."""
    if fit is not None and job_model is not None:
        raise ValueError("fit and job_model both give the job layer: use one")
    source = _path(fit) if fit is not None else "KTH-SP2-1996-2.swf.gz (bundled)"  # as the CLI names it
    if fit is None:
        fit = _data_file("KTH-SP2-1996-2.swf.gz")
    out, report = _core.generate_talby(_whole_or_none(procs, "procs"), _real_or_none(cpu_work, "cpu_work"),
                                       _real_or_none(jobs_per_day, "jobs_per_day"), _real_or_none(load, "load"),
                                       _whole(weeks, "weeks"), _seed(seed), _path(fit), source,
                                       _path(job_model) if job_model is not None else "",
                                       _path(save_job_model) if save_job_model is not None else "",
                                       _whole(threads, "threads", 32))
    for w in report["warnings"]:
        _warn(w)
    return _frame(out), report


def diversity(logs, attribute="runtime", bins=24, bootstrap=100, seed=1, threads=0, expected="share"):
    """Diversity between logs (`schedlab analyze diversity --json`): `logs` a list of paths or DataFrames."""
    logs = _log_list(logs)
    names = [_path(l) if isinstance(l, (str, os.PathLike)) else f"log {i + 1}" for i, l in enumerate(logs)]
    return _core.diversity(_logs(logs), names, _text(attribute, "attribute"), _whole(bins, "bins", 32),
                           _whole(bootstrap, "bootstrap", 32), _seed(seed), _text(expected, "expected"), _whole(threads, "threads", 32))


def categorize(log, min_jobs=6, max_jobs=0, parallelism="exact", groups=None, top=20):
    """Run-time variability per category key (`schedlab categorize --json`). `parallelism`: "exact" or "log2";
    `groups`: a key whose `top` largest groups are listed too."""
    return _core.categorize(_log(log), _whole(min_jobs, "min_jobs"), _whole(max_jobs, "max_jobs"),
                            _text(parallelism, "parallelism"), _text(groups, "groups", True), _whole(top, "top"))


def estimate_bins(log, top=20, max_estimate=None):
    """The modal structure of the estimates (`schedlab estimates bins --json`). `max_estimate`: leave out jobs
    whose estimate exceeds it (seconds or a duration text, e.g. "4h")."""
    limit = None if max_estimate is None else _seconds(max_estimate, "max_estimate")
    return _core.estimate_bins(_log(log), _whole(top, "top"), limit)


def fit_estimates(log, top=None, model="tsafrir", family=None, min_group_jobs=None, tmax=None):
    """An estimate model fitted to a log (`schedlab estimates fit`): the model file as a dict (what
    generate_estimates takes as params, saved with json.dump). `model`: "tsafrir" (one log; `top` popular
    values below T_max, default 2; `tmax` "limit", the largest estimate at least 1 in 2,000 jobs used (the
    default), "max", the largest, or seconds or a duration text such as "18h") or "song" (`log` may be a list of
    logs, pooled; `family` "beta" (the default) or "gamma"; `min_group_jobs`, default 10). The other model's
    parameters are refused (ValueError), not silently unused."""
    logs = _log_list(log)
    names = [_path(l) if isinstance(l, (str, os.PathLike)) else "DataFrame" for l in logs]
    choice = None
    if tmax is not None:
        choice = tmax if isinstance(tmax, str) and tmax in ("limit", "max") else str(_seconds(tmax, "tmax"))
    return _core.estimates_fit(_logs(logs), names, _text(model, "model"),
                               None if top is None else _whole(top, "top"),
                               None if family is None else _text(family, "family"),
                               None if min_group_jobs is None else _whole(min_group_jobs, "min_group_jobs"), choice)


def compare_estimates(real, model):
    """Two logs' estimate distributions compared (`schedlab estimates compare --json`)."""
    def name(log, role):
        return _path(log) if isinstance(log, (str, os.PathLike)) else f"the {role} log"
    return _core.estimates_compare(_log(real), _log(model), name(real, "real"), name(model, "model"))


def scramble(log, seed=1):
    """The log's jobs with every field but the submit time permuted (`schedlab generate scramble`)."""
    return _frame(_core.scramble(_log(log), _seed(seed)))


def profiler_ingest(db, logs, source=None):
    """Learn logs into the profiler's SQLite database (`schedlab profiler ingest --json`): a path or a DataFrame,
    or a list of them. `source`: the identity of the one log given (default: from its header's UnixStartTime,
    Computer and Installation, else a file's name; a DataFrame whose header has no UnixStartTime needs it)."""
    items = _log_list(logs)
    if not items:
        raise ValueError("profiler_ingest: give at least one log")
    items = [_path(l) if isinstance(l, (str, os.PathLike)) else _log(l) for l in items]
    out = _core.profiler_ingest(_path(db), items, _text(source, "source", True))
    for log in out["logs"]:
        for w in log["header_warnings"]:
            _warn(w)
    return out


def profiler_query(db, user, executable=-1, procs=1, elapsed=0, confidence=0.95):
    """The profiler's runtime estimate for a job (`schedlab profiler query --json`)."""
    return _core.profiler_query(_path(db), _whole(user, "user", 32), _whole(executable, "executable", 32),
                                _whole(procs, "procs"), _whole(elapsed, "elapsed"), float(confidence))


def profiler_compare(db, a, b, difference=0.0, confidence=0.95):
    """Welch's test of whether job a runs longer than job b by more than `difference` seconds (`schedlab profiler
    compare --json`). A job is (user, executable, procs, elapsed)."""
    return _core.profiler_compare(_path(db), [_whole(x, "a") for x in a], [_whole(x, "b") for x in b],
                                  float(difference), float(confidence))


def generate_profiler_experiment(jobs=200, mean_interarrival=150.0, seed=1, training_runs=0):
    """The synthetic workload of Gibbons's profiler experiment (`schedlab generate profiler-experiment`): a
    DataFrame; with training_runs > 0, (experiment, training): the profiler's training log of that many runs of
    each executable (--training-out; the CLI's default is 25)."""
    log, training = _core.generate_profiler_experiment(_whole(jobs, "jobs"), float(mean_interarrival), _seed(seed),
                                                       _whole(training_runs, "training_runs"))
    return (_frame(log), _frame(training)) if training is not None else _frame(log)


def distance(a, b):
    """How close two logs' job distributions are (`schedlab analyze distance --json`): KS statistics and medians
    per attribute, jobs per day and offered load of each."""
    return _core.distance(_log(a), _log(b))


def report(log, output, schedulers=("easy", "conservative"), predictor="", procs=None, threads=0, title=None, *,
           correction="", class_limits="1h,8", load=None, arrival_scale=1.0, feedback=False, kill_at_estimate=False,
           extend_estimates=False, warmup_fraction=0.0, bsld_tau=10, seed=0):
    """Write the HTML report of a log (`schedlab report LOG -o OUTPUT`, docs/report.md): its workload and the
    schedules of `schedulers` (specs and schedlab.Scheduler instances), with `predictor` (a spec or a
    schedlab.Predictor instance) and `correction`. `title`: shown on the page (default: the path, or "DataFrame").
    `class_limits`: "RUNTIME,PROCS" of the charts by job class. `load` or `arrival_scale`: the schedules at another
    offered load, as simulate's (the workload's sections show the log as it is); `feedback`, `kill_at_estimate` and
    `extend_estimates` as simulate's, and `warmup_fraction`, `bsld_tau` and `seed` too (the warm-up is left out of
    the summary table, the wait CDF and the by-class charts). The warnings the CLI prints (a predictor left
    uncorrected) are Python warnings."""
    if title is None:
        title = _path(log) if isinstance(log, (str, os.PathLike)) else "DataFrame"
    names, objects = _schedulers(schedulers)
    title = title if isinstance(title, bytes) else str(title)  # bytes: a path that is not UTF-8
    predictor, predictor_object, correction = _predictor(predictor, correction)
    for w in _core.report(_data_file("report-libs.js"), _log(log), _path(output), title,
                          names, objects, predictor, predictor_object, correction,
                          _whole_or_none(procs, "procs"), _threads(threads, _python_runs(objects, predictor_object)),
                          _text(class_limits, "class_limits"), _real_or_none(load, "load"), float(arrival_scale),
                          bool(feedback), bool(kill_at_estimate), bool(extend_estimates), float(warmup_fraction),
                          _whole(bsld_tau, "bsld_tau"), _seed(seed)):
        _warn(w)


def report_sweep(results, output, metric="wait_mean", x="", title=None):
    """Write the HTML page of a sweep's results (`schedlab report --sweep RESULTS -o OUTPUT --metric M --x X`):
    `results` is the CSV a sweep wrote; `title`: shown on the page (default: its path). An `x` of one value in every
    run (a plot of one point per line) is a Python warning, as the CLI warns of it."""
    for w in _core.report_sweep(_data_file("report-libs.js"), _path(results), _path(output), _text(metric, "metric"),
                                _text(x, "x", True), "" if title is None else str(title)):
        _warn(w)


def _suggest_keywords(func):
    """`func` with a mistyped keyword named with the nearest of its own ("simulate(df, warmup=0.01)": did you mean
    'warmup_fraction'?), where Python says only that the keyword is unexpected, and with its errors and warnings
    naming its keywords where the library's name the CLI's flags (the call the user made, not one the module
    makes inside it). The signature and docstring stay func's (help() and tab completion show them)."""
    params = inspect.signature(func).parameters
    names = [n for n, p in params.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    speak = _speaker(func.__name__, set(names))

    @functools.wraps(func)
    def call(*args, **kwargs):
        for key in kwargs:
            if key not in params:
                near = [n for n in names if n.startswith(key)] or difflib.get_close_matches(key, names, n=1)
                hint = f"; did you mean '{near[0]}'?" if near else f" (its keywords: {', '.join(names)})"
                raise TypeError(f"{func.__name__}() got an unexpected keyword argument '{key}'{hint}")
        if _IN_CALL.get():  # a function of the module called by another: the outer one speaks
            return func(*args, **kwargs)
        tokens = _IN_CALL.set(True), _SPEAKING.set(speak)
        try:
            return func(*args, **kwargs)
        except ValueError as e:
            if e.args:
                e.args = (speak(e.args[0]),) + e.args[1:]
            raise
        finally:
            _SPEAKING.reset(tokens[1])
            _IN_CALL.reset(tokens[0])
    return call


for _name in __all__:
    if inspect.isfunction(globals()[_name]):  # not the classes (Result, Scheduler, Predictor, Job) nor FIELDS
        globals()[_name] = _suggest_keywords(globals()[_name])
del _name
