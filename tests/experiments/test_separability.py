"""The separability experiment (Prat & Belanche 2006, sections 4-5):
eq. 5.1/5.2, the design of Fig. 5, seeding, the parallel run, progress and
the results' files (all with small knobs)."""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core import drelieff, pdrelieff, relieff
from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.experiments import separability as sep

SMALL = sep.Settings(problems=("MajorityN", "NonMonotonic"), max_relevant=3,
                   n_datasets=2, n_instances=40, k_nearest=5)


@pytest.fixture(scope="module")
def small_results():
    return sep.run(SMALL)


def test_separability_is_eq_5_1():
    weights = [0.3, -0.1, 0.25, 0.4, 0.05]
    relevant = [True, True, False, False, True]
    assert sep.separability(weights, relevant) == pytest.approx(0.3 - 0.4)


def test_full_design_size_is_the_papers():
    settings = sep.Settings()
    cells = settings.cells()
    assert len(cells) == 6 * sum(2 * n for n in range(1, 51))
    # eq. 4.1: 76,500 runs (data sets x algorithms) per problem
    assert settings.n_runs * len(sep.ALGORITHMS) == 6 * 76500
    assert {(n, m) for p, n, m in cells if p == "ModuloP"} == {
        (n, m) for n in range(1, 51) for m in range(1, 2 * n + 1)}
    tasks = settings.tasks()
    assert sum(len(t[2]) for t in tasks) == len(cells)
    smaller = sep.Settings(max_relevant=5, relevant_step=2)
    assert smaller.relevant_counts() == [1, 3, 5]


def test_results_cover_the_design(small_results):
    columns = small_results.columns
    assert small_results.settings == SMALL
    assert len(small_results) == SMALL.n_runs
    assert set(columns) == set(sep.COLUMNS)
    assert_array_equal(columns["n_attributes"],
                       columns["n_relevant"] + columns["n_irrelevant"])
    for name in sep.ALGORITHMS:
        assert np.isfinite(columns[name]).all()
        assert (np.abs(columns[name]) <= 2).all()


def test_a_run_is_the_public_functions_on_the_generated_data():
    settings = SMALL
    data = sep.generate(settings, "MajorityN", 2, 3, 1)
    got = sep.algorithm_weights(data.X, data.y, data.discrete, settings)
    kw = dict(k_nearest=settings.k_nearest)
    assert_array_equal(got[0], relieff(data.X, data.y, data.discrete, **kw))
    assert_array_equal(got[1], drelieff(data.X, data.y, data.discrete, **kw))
    assert_array_equal(got[2], pdrelieff(data.X, data.y, data.discrete, **kw))


def test_seeds_follow_the_cell_not_the_knobs(small_results):
    """A smaller design computes a subset of the larger one's runs."""
    part = sep.run(sep.Settings(problems=("NonMonotonic",), max_relevant=2,
                                n_datasets=1, n_instances=40, k_nearest=5))
    big = small_results.columns
    for row in part.rows():
        problem, n, m, _, d = row[:5]
        match = ((big["problem"] == problem) & (big["n_relevant"] == n)
                 & (big["n_irrelevant"] == m) & (big["dataset"] == d))
        assert match.sum() == 1
        for a, name in enumerate(sep.ALGORITHMS):
            assert big[name][match][0] == row[5 + a]


def test_single_class_data_sets_are_drawn_again():
    settings = sep.Settings(problems=("RDG1-boolean",), n_instances=2)
    for d in range(20):
        data = sep.generate(settings, "RDG1-boolean", 1, 1, d)
        assert len(np.unique(data.y)) == 2


def test_processes_give_the_same_numbers(small_results):
    parallel = sep.run(SMALL, jobs=2)
    for name in sep.COLUMNS:
        assert_array_equal(parallel.columns[name],
                           small_results.columns[name])


def test_progress_and_stop():
    seen = []
    sep.run(SMALL, progress_callback=seen.append)
    assert len(seen) == SMALL.n_runs
    assert_allclose(seen, np.arange(1, SMALL.n_runs + 1) / SMALL.n_runs)
    with pytest.raises(Interrupted):
        sep.run(SMALL, should_stop=lambda: True)


def test_curves_are_means_and_running_sums(small_results):
    data = sep.curves(small_results)
    assert list(data) == ["MajorityN", "NonMonotonic"]
    x, per_algorithm = data["MajorityN"]
    assert_array_equal(x, np.arange(2, 10))  # 1+1 .. 3+6
    columns = small_results.columns
    rows = (columns["problem"] == "MajorityN") & (columns["n_attributes"] == 4)
    for name in sep.ALGORITHMS:
        mean, accumulated = per_algorithm[name]
        assert mean[2] == pytest.approx(columns[name][rows].mean())
        assert_allclose(accumulated, np.cumsum(mean))


def test_csv_round_trip_and_figures(small_results, tmp_path):
    path = tmp_path / "s.csv"
    small_results.write_csv(path)
    back = sep.Results.read_csv(path)
    for name in sep.COLUMNS:
        if name in sep.ALGORITHMS:
            assert_allclose(back.columns[name], small_results.columns[name],
                            rtol=1e-9)
        else:
            assert_array_equal(back.columns[name], small_results.columns[name])
    sep.plot_figures(back, tmp_path / "a.png", tmp_path / "b.png")
    for name in ("a.png", "b.png"):
        assert (tmp_path / name).read_bytes()[:4] == b"\x89PNG"
    lines = back.summary().splitlines()
    # a header, a line per problem, the legend and the number of runs
    assert len(lines) == 1 + 2 + 2
    assert lines[1].startswith("MajorityN") and "NonMonotonic" in lines[2]


def test_results_write_the_csv_and_both_figures(small_results, tmp_path):
    paths = small_results.write(tmp_path / "out")
    assert [p.rsplit("/", 1)[-1] for p in map(str, paths)] == [
        "separability.csv", "separability.png",
        "accumulated_separability.png"]
    back = sep.Results.read_csv(paths[0])
    assert_allclose(back.columns["ReliefF"], small_results.columns["ReliefF"],
                    rtol=1e-9)
    for path in paths[1:]:
        with open(path, "rb") as file:
            assert file.read(4) == b"\x89PNG"


def test_bad_settings():
    with pytest.raises(ValueError):
        sep.Settings(problems=("nope",))
    with pytest.raises(ValueError):
        sep.Settings(max_relevant=0)
    with pytest.raises(ValueError, match="n_instances must be at least 2"):
        sep.Settings(n_instances=1)
    # numpy's seeds are non-negative
    with pytest.raises(ValueError, match="seed must be at least 0, got -1"):
        sep.Settings(seed=-1)
