"""Experiments of the papers the add-on implements, runnable from the
command line (``orange-relief experiment <name>``) and from widgets."""
import csv
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from multiprocessing import get_context


@contextmanager
def one_numba_thread():
    """Run the block with numba on a single thread (restored afterwards):
    the experiments' many tiny problems do not gain from sharing threads."""
    import numba

    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(threads)


def single_thread_worker():
    """Initializer of a worker process of :func:`run_in_processes`: numba
    on one thread (there is a process per core)."""
    import numba

    numba.set_num_threads(1)


def run_in_processes(worker, argument, tasks, jobs, on_done, *,
                     initializer=single_thread_worker, poll=None):
    """Run ``worker(argument, task)`` for every task in `jobs` spawned
    processes, calling ``on_done(task, result)`` here as each one finishes.

    `worker` and `argument` must pickle (a module-level function, plain
    values).  `poll()`, if given, runs after every finished batch and at
    least every half second; it may raise to stop the run.  On any
    exception the tasks not started yet are cancelled.
    """
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn"),
                             initializer=initializer) as pool:
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
            for future in pending:
                future.cancel()
            raise


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
