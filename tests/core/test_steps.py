"""Relief one reference at a time (core.steps): the steps add up to the
estimators' weights, and each step shows the neighbours and diffs it used."""
import numpy as np
import pytest

from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.variants.estimators import relief, relieff
from orangecontrib.relief.core.steps import (STAGES, Lesson, ReliefSteps,
                                             references)
from orangecontrib.relief.core.formulas.diffs import pair_diffs
from tests.core.engines import each_engine

DIFFS = ("linear", "squared", "ramp")


def mixed_data(n=48, n_classes=3, seed=0, missing=0.1):
    """Numeric and nominal columns, some values missing, n_classes classes."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.random(n), rng.integers(0, 3, n),
                         rng.random(n) * 10 - 5, rng.integers(0, 2, n),
                         np.round(rng.random(n), 1)]).astype(float)
    X[rng.random(X.shape) < missing] = np.nan
    y = rng.integers(0, n_classes, n).astype(float)
    discrete = np.array([False, True, False, True, False])
    return X, y, discrete


@each_engine
@pytest.mark.parametrize("diff", DIFFS)
def test_every_instance_in_order_gives_the_deterministic_weights(engine,
                                                                  diff):
    X, y, discrete = mixed_data()
    with forced(engine):
        stepper = ReliefSteps(X, y, discrete, k_nearest=3, diff=diff)
        steps = stepper.steps(references(stepper.n_instances,
                                         stepper.n_instances))
        expected = relieff(X, y, discrete, k_nearest=3, diff=diff)
        assert np.array_equal(stepper.weights(steps), expected)


@each_engine
def test_sampled_references_give_the_sampled_weights(engine):
    X, y, discrete = mixed_data(seed=1)
    with forced(engine):
        stepper = ReliefSteps(X, y, discrete, k_nearest=4)
        for m in (1, 7, 70):
            steps = stepper.steps(references(len(y), m, sampled=True,
                                             random_state=5))
            expected = relieff(X, y, discrete, k_nearest=4, n_iterations=m,
                               random_state=5)
            assert np.array_equal(stepper.weights(steps), expected), m


def test_relief_steps_give_relief():
    X, y, discrete = mixed_data(n_classes=2, seed=2)
    stepper = ReliefSteps(X, y, discrete, variant="Relief", k_nearest=9)
    steps = stepper.steps(references(len(y), 20, sampled=True,
                                     random_state=3))
    assert all(len(s.hits) == 1 and len(s.misses) == 1 for s in steps)
    assert np.array_equal(
        stepper.weights(steps),
        relief(X, y, discrete, n_iterations=20, random_state=3))


def test_rows_with_an_unknown_class_are_left_out_as_the_estimator_does():
    X, y, discrete = mixed_data(seed=3)
    y[[0, 5, 6]] = np.nan
    stepper = ReliefSteps(X, y, discrete, k_nearest=2)
    assert stepper.n_instances == len(y) - 3
    np.testing.assert_array_equal(stepper.kept_rows,
                                  np.flatnonzero(~np.isnan(y)))
    steps = stepper.steps(references(stepper.n_instances,
                                     stepper.n_instances))
    assert np.array_equal(stepper.weights(steps),
                          relieff(X, y, discrete, k_nearest=2))


def test_stepping_back_returns_the_previous_weights():
    X, y, discrete = mixed_data(seed=4)
    stepper = ReliefSteps(X, y, discrete, k_nearest=3)
    steps = stepper.steps(references(len(y), 12, sampled=True,
                                     random_state=0))
    after_11 = relieff(X, y, discrete, k_nearest=3, n_iterations=11)
    assert np.array_equal(stepper.weights(steps[:-1]), after_11)
    assert not np.allclose(stepper.weights(steps), after_11)
    assert np.array_equal(stepper.weights([]), np.zeros(X.shape[1]))


def test_the_weights_are_the_mean_of_the_updates():
    X, y, discrete = mixed_data(seed=5)
    stepper = ReliefSteps(X, y, discrete, k_nearest=3)
    steps = stepper.steps([3, 17, 3, 40])
    np.testing.assert_allclose(
        stepper.weights(steps), np.mean([s.update for s in steps], axis=0),
        rtol=0, atol=1e-15)


def test_a_step_shows_its_hits_misses_diffs_and_coefficients():
    rng = np.random.default_rng(6)
    X = rng.random((30, 4)) * [1, 2, 5, 10]
    y = np.repeat([0.0, 1.0, 2.0], [10, 12, 8])
    k = 3
    step = ReliefSteps(X, y, k_nearest=k).step(4)
    own = y[4]
    assert step.reference == 4
    assert len(step.hits) == k and len(step.misses) == 2 * k
    np.testing.assert_array_equal(y[step.hits], own)
    assert (y[step.misses] != own).all()
    np.testing.assert_array_equal(step.neighbours[:k], step.hits)
    np.testing.assert_array_equal(step.classes, y[step.neighbours])
    # the nearest by the Manhattan distance on range-scaled values
    scaled = (X - X.min(axis=0)) / np.ptp(X, axis=0)
    distance = np.abs(scaled - scaled[4]).sum(axis=1)
    distance[4] = np.inf
    for klass in (0, 1, 2):
        members = np.flatnonzero(y == klass)
        nearest = members[np.argsort(distance[members], kind="stable")[:k]]
        np.testing.assert_array_equal(step.neighbours[step.classes == klass],
                                      nearest)
    np.testing.assert_allclose(step.diffs,
                               np.abs(scaled[step.neighbours] - scaled[4]).T,
                               atol=1e-15)
    priors = np.array([10, 12, 8]) / 30
    expected = np.where(step.classes == own, -1.0,
                        priors[step.classes] / (1 - priors[0])) / k
    np.testing.assert_allclose(step.coefficients, expected, rtol=1e-15)
    np.testing.assert_allclose(step.update, step.diffs @ step.coefficients,
                               atol=1e-15)


@each_engine
@pytest.mark.parametrize("diff", DIFFS)
def test_distances_and_runners_up_are_those_of_the_search(engine, diff):
    """Each neighbour's distance is the sum of its diffs; the runner-up of
    a class is its nearest instance not chosen, no nearer than the chosen
    ones (ties: the lower index was chosen)."""
    X, y, discrete = mixed_data(seed=9)
    X[:, 4] = np.round(X[:, 4] * 3)  # ties
    with forced(engine):
        stepper = ReliefSteps(X, y, discrete, k_nearest=3, diff=diff)
        for reference in (0, 7, 30):
            step = stepper.step(reference)
            all_diffs = pair_diffs(stepper.data.exact, reference,
                                   np.arange(len(y)))
            distance = all_diffs.sum(axis=0)
            distance[reference] = np.inf
            np.testing.assert_allclose(step.distances,
                                       distance[step.neighbours], atol=1e-12)
            assert list(step.runner_up_classes) == list(
                dict.fromkeys(step.classes))
            for runner, klass, far in zip(step.runners_up,
                                          step.runner_up_classes,
                                          step.runner_up_distances):
                chosen = step.neighbours[step.classes == klass]
                others = np.setdiff1d(np.flatnonzero(
                    stepper.data.exact.groups == klass), [*chosen, reference])
                assert runner == others[np.argmin(distance[others])]
                assert far == pytest.approx(distance[runner], abs=1e-12)
                assert far >= step.distances[step.classes == klass].max()
            np.testing.assert_array_equal(step.runner_up_diffs,
                                          all_diffs[:, step.runners_up])


def test_a_class_with_no_other_instance_has_no_runner_up():
    X, y, discrete = mixed_data(n=20, seed=10, missing=0)
    y[:] = 0
    y[[2, 9]] = 1
    step = ReliefSteps(X, y, discrete, k_nearest=1).step(2)
    # the hit is the only other instance of class 1
    np.testing.assert_array_equal(step.runner_up_classes, [0])
    assert len(step.runners_up) == 1 and step.runners_up[0] not in (
        2, *step.neighbours)


def test_a_lesson_goes_a_stage_at_a_time_and_back():
    X, y, discrete = mixed_data(seed=11)
    stepper = ReliefSteps(X, y, discrete, k_nearest=2)
    lesson = Lesson()
    assert lesson.complete and lesson.next_stage == "reference"
    assert lesson.applied == []
    lesson.begin(stepper.step(5))
    shown = [STAGES[lesson.stage]]
    while not lesson.complete:
        assert lesson.applied == []  # no update before its stage
        lesson.advance()
        shown.append(STAGES[lesson.stage])
    assert shown == list(STAGES)
    assert [s.reference for s in lesson.applied] == [5]
    lesson.begin(stepper.step(8))
    lesson.advance()
    lesson.begin(stepper.step(9))  # a new reference replaces the unfinished
    assert [s.reference for s in lesson.steps] == [5, 9]
    assert (lesson.stage, lesson.next_stage) == (0, "neighbours")
    lesson.finish()
    assert [s.reference for s in lesson.applied] == [5, 9]
    lesson.back()  # the update undone: step 9 at its diffs
    assert STAGES[lesson.stage] == "diffs"
    assert [s.reference for s in lesson.applied] == [5]
    for _ in range(3):
        lesson.back()
    assert [s.reference for s in lesson.steps] == [5] and lesson.complete
    lesson.back()
    lesson.back()
    assert [s.reference for s in lesson.steps] == [5]
    lesson.reset()
    lesson.back()
    assert lesson.steps == [] and lesson.complete


def test_a_lesson_redone_keeps_its_references_and_stage():
    X, y, discrete = mixed_data(seed=12)
    lesson = Lesson()
    narrow = ReliefSteps(X, y, discrete, k_nearest=2)
    for reference in (3, 4, 6):
        lesson.begin(narrow.step(reference))
        lesson.finish()
    lesson.back()
    wider = ReliefSteps(X, y, discrete, k_nearest=4)
    lesson.redo(wider)
    assert [s.reference for s in lesson.steps] == [3, 4, 6]
    assert STAGES[lesson.stage] == "diffs"
    assert np.array_equal(wider.weights(lesson.applied),
                          wider.weights(wider.steps([3, 4])))


def test_a_class_smaller_than_k_gives_what_it_has():
    X, y, discrete = mixed_data(n=20, seed=7)
    y[:] = 0
    y[[2, 9]] = 1
    step = ReliefSteps(X, y, discrete, k_nearest=5).step(2)
    assert len(step.hits) == 1 and len(step.misses) == 5
    np.testing.assert_allclose(step.coefficients[:1], -1.0)


def test_references_in_order_and_sampled():
    np.testing.assert_array_equal(references(4, 6), [0, 1, 2, 3, 0, 1])
    assert len(references(4, 0)) == 0
    long = references(10, 50, sampled=True, random_state=2)
    np.testing.assert_array_equal(
        references(10, 20, sampled=True, random_state=2), long[:20])
    assert len(set(long)) > 5


def test_inputs_are_not_modified():
    X, y, discrete = mixed_data(seed=8)
    copies = X.copy(), y.copy(), discrete.copy()
    stepper = ReliefSteps(X, y, discrete)
    stepper.weights(stepper.steps([0, 1]))
    for before, after in zip(copies, (X, y, discrete)):
        np.testing.assert_array_equal(before, after)


def test_bad_choices_are_named():
    X, y, discrete = mixed_data(n_classes=3)
    with pytest.raises(ReliefInputError, match="two classes"):
        ReliefSteps(X, y, discrete, variant="Relief")
    with pytest.raises(ReliefInputError, match="variant"):
        ReliefSteps(X, y, discrete, variant="RReliefF")
    with pytest.raises(ReliefInputError, match="k_nearest"):
        ReliefSteps(X, y, discrete, k_nearest=0)
    with pytest.raises(ReliefInputError, match="single class"):
        ReliefSteps(X, np.zeros(len(y)), discrete)
    with pytest.raises(ReliefInputError, match="reference"):
        ReliefSteps(X, y, discrete).step(len(y))
