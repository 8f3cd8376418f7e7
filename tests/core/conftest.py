"""Fixtures of the core's tests."""
import pytest

#: a cluster's configuration for tests: no statistical profiler in its
#: workers (it samples every worker's stack every 10 ms while the cluster
#: lives, for a dashboard that no test opens)
LEAN_WORKERS = {"distributed.worker.profile.enabled": False}


@pytest.fixture(scope="module")
def client():
    """A client of a LocalCluster of two worker processes (one thread
    each), as a real cluster's workers are processes of their own; the
    cluster ends with the test file that asked for it, not with the whole
    run (its processes would outlive their tests by the run's length)."""
    distributed = pytest.importorskip("distributed")
    import dask

    with dask.config.set(LEAN_WORKERS), distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True,
            dashboard_address=None, silence_logs=40) as cluster:
        with distributed.Client(cluster) as connected:
            yield connected
