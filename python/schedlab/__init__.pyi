# Type stubs of the schedlab Python module (python/schedlab/__init__.py).
import os
from typing import Any, Optional, Union

import pandas as pd

from . import _core

FIELDS: list[str]
LogLike = Union[str, os.PathLike, pd.DataFrame, _core.Log]

def read_swf(path: Union[str, os.PathLike]) -> tuple[pd.DataFrame, list[str]]: ...
def write_swf(df: pd.DataFrame, path: Union[str, os.PathLike], header: Optional[list[str]] = ...) -> None: ...
def stats(log: LogLike, procs: Optional[int] = ...) -> dict[str, Any]: ...

class Result:
    metrics: dict[str, Any]
    @property
    def jobs(self) -> pd.DataFrame: ...

def simulate(log: LogLike, scheduler: str = ..., predictor: str = ..., procs: Optional[int] = ...,
             load: Optional[float] = ..., *, correction: str = ..., arrival_scale: float = ...,
             kill_at_estimate: bool = ..., extend_estimates: bool = ..., warmup_fraction: float = ...,
             bsld_tau: int = ..., seed: int = ..., check: bool = ...) -> Result: ...
def sweep(spec: Union[str, os.PathLike], threads: int = ...) -> pd.DataFrame: ...
def schedulers() -> dict[str, str]: ...
def predictors() -> dict[str, str]: ...
