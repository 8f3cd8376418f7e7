"""Data on which STIR can give no verdict, for the tests of every entry
point: the core, the Orange scorer, the Relief widget, the command line
and the scikit-learn selectors."""
import numpy as np

#: each case: what it is -> the cause the message names
CASES = {
    "three instances": "single instance",
    "a constant attribute": "do not vary",
    "a class of one instance": "single instance",
}


def degenerate(case):
    """(X, y, the attributes without a verdict) of `case`: four numeric
    attributes, two classes (three in the last case)."""
    rng = np.random.default_rng(3)
    if case == "three instances":
        return rng.random((3, 4)), np.array([0.0, 1.0, 0.0]), [0, 1, 2, 3]
    X, y = rng.random((40, 4)), (np.arange(40) % 2).astype(float)
    if case == "a constant attribute":
        X[:, 2] = 0.5
        return X, y, [2]
    y[7] = 2  # a class of one instance
    return X, y, [0, 1, 2, 3]


def degenerate_table(case):
    """`case` as an Orange table (attributes a0..a3, class c0..c2) and the
    attributes without a verdict."""
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

    X, y, without = degenerate(case)
    domain = Domain([ContinuousVariable(f"a{i}") for i in range(4)],
                    DiscreteVariable("class", values=("c0", "c1", "c2")))
    return Table.from_numpy(domain, X, y), without
