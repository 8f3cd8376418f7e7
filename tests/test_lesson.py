"""The lesson of doc/widgets/step-by-step.md says what the data of its
workflow show: every number and claim of its example is computed here, on
the Parity3+3 that the workflow's generator makes, with the methods of the
workflow's widgets."""
import io
from pathlib import Path

import numpy as np
import pytest
from orangecanvas.scheme.readwrite import loads, parse_ows_stream
from Orange.preprocess.score import InfoGain

from orangecontrib.relief import ReliefF, tutorials
from orangecontrib.relief.arrays import table_arrays
from orangecontrib.relief.core.steps import ReliefSteps, references
from orangecontrib.relief.generators import GENERATORS

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "doc" / "widgets" / "step-by-step.md"
WORKFLOW = Path(tutorials.__file__).parent / "relief-step-by-step.ows"


def node_settings(qualified_name):
    """The stored settings of the workflow's node of that widget (as a
    literal or a pickle, as the canvas stored them)."""
    description = parse_ows_stream(io.BytesIO(WORKFLOW.read_bytes()))
    node = next(n for n in description.nodes
                if n.qualified_name.endswith(qualified_name))
    return loads(node.data.data, node.data.format)


@pytest.fixture(scope="module")
def lesson():
    """The page's example text (one line), the workflow's data, and the
    steps of a pass with Relief and with the workflow's ReliefF."""
    settings = node_settings("OWReliefGenerator")
    # what the generator widget makes of these settings
    data = GENERATORS[settings.pop("problem")](
        seed=settings.pop("random_seed"), **settings)
    k = node_settings("OWRelief")["k_relieff"]
    arrays = table_arrays(data, "lesson")
    n = len(data)
    passes = {variant: ReliefSteps(arrays.X, arrays.y, arrays.discrete,
                                   variant=variant, k_nearest=k)
              for variant in ("Relief", "ReliefF")}
    steps = {variant: stepper.steps(references(n, n))
             for variant, stepper in passes.items()}
    text = PAGE.read_text(encoding="utf-8")
    example = " ".join(text[text.index("## Example"):].split())
    relevant = np.array([bool(v.attributes["relevant"])
                         for v in data.domain.attributes])
    return example, data, k, relevant, passes, steps


def updates(steps):
    return np.array([step.update for step in steps])


def test_the_workflow_makes_the_data_the_lesson_describes(lesson):
    example, data, k, relevant, *_ = lesson
    assert f"Parity3+3 with {len(data)} instances" in example
    assert f"ReliefF (k = {k})" in example
    names = [v.name for v in data.domain.attributes]
    assert names == ["x1", "x2", "x3", "x1_copy", "x2_copy", "x3_copy",
                     *(f"irr{i}" for i in range(1, 7))]
    assert relevant.sum() == 6


def test_the_relevant_bits_never_lose_and_gain_in_every_step(lesson):
    example, data, _, relevant, _, steps = lesson
    relief = steps["Relief"]
    for step in relief:
        bits = step.diffs[:3]
        assert not bits[:, step.is_hit].any()  # the hits have the same bits
        # every miss one other
        np.testing.assert_array_equal(bits[:, ~step.is_hit].sum(axis=0), 1)
        np.testing.assert_array_equal(step.diffs[:3], step.diffs[3:6])
    moves = updates(relief)
    assert not (moves[:, relevant] < 0).any()
    assert (moves[:, relevant] > 0).any(axis=1).all()
    n = len(data)
    assert f"the relevant bits never lose (in none of the {n} steps)" \
        in example
    assert f"in every one of the {n} steps a relevant bit and its copy " \
           "gain" in example
    tied_hits = sum(step.is_hit.sum() > 1 for step in relief)
    tied_misses = sum((~step.is_hit).sum() > 1 for step in relief)
    assert f"the near hit is tied in {tied_hits} of the {n} steps and the " \
           f"near miss in {tied_misses}" in example
    for step in relief:  # the tied share the one place
        np.testing.assert_allclose([step.shares[step.is_hit].sum(),
                                    step.shares[~step.is_hit].sum()], 1)


@pytest.mark.parametrize("variant", ["Relief", "ReliefF"])
def test_the_random_bits_move_both_ways(lesson, variant):
    example, data, k, relevant, _, steps = lesson
    moves = updates(steps[variant])[:, ~relevant]
    n = len(data)
    assert (moves < 0).any(axis=1).all()
    assert "At every near hit some random bit loses (in all " \
           f"{n} steps)" in example
    gains = int((moves > 0).any(axis=1).sum())
    assert 0 < gains < n
    if variant == "Relief":
        assert f"differs in a random bit as well in {gains} of the {n} " \
               "steps" in example
        first = dict(zip([v.name for v in data.domain.attributes],
                         steps[variant][0].update))
        gainers = [name for name, move in first.items()
                   if name.startswith("irr") and move > 0]
        assert gainers == ["irr3", "irr4"]
        assert first["irr3"] == first["irr4"] == 0.25
        assert "at step 1, irr3 and irr4 gain +0.25 each" in example
    else:
        assert f"With ReliefF (k = {k}) a random bit gains in {gains} of " \
               f"the {n} steps" in example


def test_after_a_pass_the_relevant_bits_lead(lesson):
    example, data, k, relevant, passes, steps = lesson
    names = np.array([v.name for v in data.domain.attributes])
    relief = passes["Relief"].weights(steps["Relief"])
    relieff = passes["ReliefF"].weights(steps["ReliefF"])
    for weights in (relief, relieff):
        assert weights[relevant].min() > weights[~relevant].max()
    above = names[~relevant & (relief > 0)]
    assert list(above) == ["irr6"]
    assert f"with Relief irr6 ends at {relief[names == 'irr6'][0]:+.3f}, " \
           "above 0" in example
    assert (relieff[~relevant] < 0).all()
    assert f"with ReliefF (k = {k}) all six end below 0" in example
    # the Relief widget's scorer in the workflow: the same ranking
    np.testing.assert_array_equal(ReliefF(k_nearest=k)(data), relieff)


def test_information_gain_sees_nothing_in_the_bits(lesson):
    example, data, _, relevant, *_ = lesson
    gains = InfoGain()(data)
    np.testing.assert_allclose(gains[relevant], 0, atol=1e-12)
    assert (gains[~relevant] > 0).all()
    assert "gives x1, x2, x3 and their copies 0" in example
    assert "ranks all six random bits above them" in example
