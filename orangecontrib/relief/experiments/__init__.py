"""Experiments of the papers the add-on implements, runnable from the
command line (``orange-relief experiment <name>``) and from widgets.

Every experiment has one shape: a frozen ``Settings`` dataclass (the
paper's design by default; checked when made), ``run(settings, *, jobs,
progress_callback, should_stop)`` and the ``Results`` it returns, which
write their files (``results.write(out)``) and summarise themselves
(``results.summary()``).  No experiment parses arguments: the command
line (:mod:`orangecontrib.relief.cli`) and the widgets build the settings.
"""
import csv
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from functools import partial
from multiprocessing import get_context

from ..core import engines, termination
from ..core.progress import Interrupted, report


def check_at_least(settings, minimum, *names):
    """Raise ValueError, naming the field, if one of the fields `names` of
    `settings` is below `minimum`."""
    for name in names:
        value = getattr(settings, name)
        if value < minimum:
            raise ValueError(f"{name} must be at least {minimum}, got {value}")


def check_some_of(name, chosen, allowed):
    """Raise ValueError, naming the field `name`, unless `chosen` are one
    or more of `allowed`."""
    unknown = [value for value in chosen if value not in allowed]
    if unknown or not chosen:
        raise ValueError(f"{name} must be some of {', '.join(allowed)}, got "
                         f"{unknown or 'none'}")


def check_one_of(settings, name, allowed):
    """Raise ValueError, naming the field, unless the field `name` of
    `settings` is one of `allowed`."""
    value = getattr(settings, name)
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, got "
                         f"{value!r}")


def check_folds(settings, n_instances, dataset):
    """Raise ValueError unless the `n_instances` instances of `dataset` (a
    name for the message) fill every one of ``settings.folds`` folds, and
    the smallest training part every one of ``settings.inner_folds``.

    The experiments' folds are stratified where they can be, but always
    as even as the instances allow (a class too small for the folds is
    dealt over as many as it fills): the test parts differ by at most one
    instance, so every one has at least ``n // folds`` and every training
    part at least ``n - ceil(n / folds)``, whatever the classes.
    """
    if settings.folds > n_instances:
        raise ValueError(f"folds must be at most {n_instances}, the "
                         f"instances of {dataset}, got {settings.folds}")
    smallest_training = n_instances - -(-n_instances // settings.folds)
    if settings.inner_folds > smallest_training:
        raise ValueError(
            f"inner_folds must be at most {smallest_training}, the "
            f"instances of the smallest training part of {dataset} with "
            f"folds {settings.folds}, got {settings.inner_folds}")


class Progress:
    """Counts the finished units of a run: reports the fraction done to
    `progress_callback` and, when `should_stop()` says so, stops the run
    with :class:`~orangecontrib.relief.core.progress.Interrupted`."""

    def __init__(self, total, progress_callback=None, should_stop=None):
        self.total = total
        self.count = 0
        self.progress_callback = progress_callback
        self.should_stop = should_stop

    def check(self):
        """Raise Interrupted if the run should stop."""
        if self.should_stop is not None and self.should_stop():
            raise Interrupted

    def done(self, count=1):
        """`count` more units are finished."""
        self.count += count
        report(self.progress_callback, self.count / max(self.total, 1))


@contextmanager
def fastest_engine():
    """Run the block on the compiled engine, on a single thread, where it
    is prepared, and on the vectorised one until then (its preparation
    starting in the background): an experiment's thousands of small
    problems gain nothing from sharing threads (both restored
    afterwards)."""
    with engines.preferring_compiled(), single_compiled_thread():
        yield


@contextmanager
def single_compiled_thread():
    """The compiled engine's kernels on one thread in the block, where it
    is prepared (else numba need not be imported)."""
    if not engines.preparation.is_ready():
        yield
        return
    import numba

    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(threads)


def single_thread_worker():
    """Initializer of a worker process of :func:`run_in_processes`: the
    fastest engine on one thread (there is a process per core), unless
    the engine is forced."""
    os.environ["NUMBA_NUM_THREADS"] = "1"
    if engines.setting() not in engines.ENGINES:  # a forced engine is kept
        os.environ[engines.VARIABLE] = engines.PREFER_COMPILED


def run_in_processes(worker, argument, tasks, jobs, on_done, *,
                     initializer=single_thread_worker, poll=None):
    """Run ``worker(argument, task)`` for every task in `jobs` spawned
    processes, calling ``on_done(task, result)`` here as each one finishes.

    `worker` and `argument` must pickle (a module-level function, plain
    values).  `poll()`, if given, runs after every finished batch and at
    least every half second; it may raise to stop the run.  On any
    exception (Ctrl-C, SIGTERM, a stop asked for) the tasks not started
    yet are cancelled and the worker processes ended at once: none is
    left behind.  The workers leave Ctrl-C to this process and end with
    it, however it ends (:func:`.termination.worker_start`).
    """
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn"),
                             initializer=partial(_start_worker,
                                                 initializer)) as pool:
        pending = {pool.submit(worker, argument, task): task for task in tasks}
        try:
            while pending:
                finished, _ = wait(pending,
                                   timeout=None if poll is None else 0.5,
                                   return_when=FIRST_COMPLETED)
                for future in finished:
                    task = pending.pop(future)
                    on_done(task, future.result())
                if poll is not None:
                    poll()
        except BaseException:
            end_workers(pool)
            raise


def _start_worker(initializer):
    termination.worker_start()
    initializer()


def end_workers(pool):
    """End the workers of the process `pool` now and cancel its tasks not
    started yet, rather than let the pool wait for the running ones."""
    # the executor lists its processes and its managing thread only in
    # these attributes
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    for process in processes:
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join()
    # the managing thread closes its wake-up pipe as it ends; the
    # interpreter's exit writes to that pipe, so an exit racing the close
    # printed "OSError: Bad file descriptor" (Python 3.11): wait for it
    if manager is not None:
        manager.join(timeout=10.0)


def write_csv(path, rows):
    """Write the dicts `rows` to the CSV file `path`, one column per key
    (in the order the keys first appear, empty where a row lacks one);
    return `path`."""
    fields = list(dict.fromkeys(key for row in rows for key in row))
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=fields, restval="")
        writer.writeheader()
        writer.writerows(rows)
    return path
