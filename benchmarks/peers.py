"""The methods a benchmark runs: ours and the peers (Orange's built-in
ReliefF / RReliefF, fast-select, scikit-rebate), each behind one
interface (:class:`Method`), and how a peer's weights are compared with
ours."""
import importlib
import time

import numpy as np

ALL_METHODS = ("ours", "orange", "fast-select", "skrebate")
DEFAULT_OURS = "orangecontrib.relief.core"
#: the SWRF family (ours with scikit-rebate's convention, a categorical
#: class or its continuous endpoint; scikit-rebate the only peer that has
#: it)
SWRF = ("swrf", "swrf*", "multiswrf", "multiswrf*", "multiswrfdb",
        "multiswrfdb*")
#: mu-Relief (ours with scikit-rebate's convention and the run's k, a
#: categorical class; scikit-rebate the only peer that has it)
MURELIEF = "murelief"
#: Iter around ReliefF or MultiSURF (ours with scikit-rebate's stopping
#: rule, a categorical class; scikit-rebate the only peer that has it)
ITER = ("iter-relieff", "iter-multisurf")
#: the methods of a categorical class that only scikit-rebate has
SKREBATE_ONLY = (*SWRF, MURELIEF, *ITER)
#: what a run weighs: ReliefF (RReliefF for a numeric target) or a member
#: of the SURF family ("multisurf+stir": ours also sums what STIR tests)
#: or of the SWRF family, mu-Relief, or Iter
ALGORITHMS = ("relieff", "multisurf", "multisurf*", "surf", "surf*",
              "multisurf+stir", *SKREBATE_ONLY)


def surf_method(opts):
    """The SURF-family method of the run (None for ReliefF) and whether
    ours also computes STIR's sums."""
    algorithm = opts.get("algorithm", "relieff")
    if algorithm == "relieff":
        return None, False
    return algorithm.replace("+stir", ""), algorithm.endswith("+stir")


class Method:
    name = "?"
    jit = False
    regression = True       # has a regression (RReliefF-type) estimator
    missing = True          # accepts NaN in X
    requires = None         # module that must be importable (optional peers)

    def __init__(self, opts):
        self.opts = opts

    def available(self):
        if self.requires:
            try:
                importlib.import_module(self.requires)
            except ImportError:
                return False, "not installed"
        return True, ""

    def supports(self, spec):
        if spec.kind == "regression" and not self.regression:
            return False, "no regression estimator"
        if spec.missing and not self.missing:
            return False, "no missing-value support"
        return True, ""

    def memory_estimate(self, spec):
        """Bytes the method needs beyond its input (rough, for skipping)."""
        return 0

    def prepare(self, data):   # untimed
        return data

    def run(self, prepared):   # timed; returns float64 weights in column order
        raise NotImplementedError

    def settle(self, prepared, seconds):
        """Untimed calls after the first, until the method answers as it
        does after many calls (at most `seconds`); returns how many.  A
        peer answers alike from its second call on: none."""
        return 0

    def engines(self, calls):
        """The engine that answered each of the last `calls` calls (None:
        the method has one)."""
        return None

    def agreement(self, spec):
        """(kind, note): kind is 'exact' (compare max |diff|) or 'rank'."""
        return "rank", ""

    def all_pairs_only(self, spec):
        """(kind, note) of a peer that has no sampled references when ours
        samples (None when it may compare as usual): it weighs with every
        instance, so only the ranking can agree."""
        if spec.m is None:
            return None
        return "rank", (f"{self.name} has no sampled references: it weighs "
                        f"with all {spec.n} instances (m = n)")


class Ours(Method):
    name = "ours"
    jit = True

    def __init__(self, opts):
        super().__init__(opts)
        #: the engines' choices of each call (:meth:`run`)
        self.answered = []

    def core(self):
        return importlib.import_module(self.opts.get("ours_module", DEFAULT_OURS))

    def module(self, name):
        """The module `name` (dotted, e.g. "variants.surf") of ours' core."""
        return importlib.import_module(f"{self.core().__name__}.{name}")

    def available(self):
        try:
            self.core()
        except ImportError as exc:
            return False, f"not importable ({exc})"
        return True, ""

    def supports(self, spec):
        method = surf_method(self.opts)[0]
        if (method in SKREBATE_ONLY and method not in SWRF
                and spec.kind == "regression"):
            return False, "it weighs a categorical class"
        return super().supports(spec)

    def run(self, d):
        """Our weights, noting which engine answered
        (:func:`.engines.recording`; an older build without it: none)."""
        engines = self.module("engines")
        recording = getattr(engines, "recording", None)
        if recording is None:
            self.answered.append(())
            return self.weights(d)
        with recording() as choices:
            weights = self.weights(d)
        self.answered.append(tuple(choices))
        return weights

    def settle(self, prepared, seconds):
        """Untimed calls until ours answers on the engine that a process
        making many such calls ends on (a small call takes the compiled
        engine once its calls have paid for loading it, :func:`.engines.
        steady`), for at most `seconds`: the timed calls then measure that
        steady state, as a script that ranks many tables meets it."""
        calls, stop = 0, time.perf_counter() + seconds
        while (any(c.engine != c.steady for c in self.answered[-1])
               and time.perf_counter() < stop):
            self.run(prepared)
            calls += 1
        return calls

    def engines(self, calls):
        """The engines that answered each of the last `calls` calls, "+"
        between the engines of a call that chose more than once ("?"
        where the build notes none)."""
        return ["+".join(c.engine for c in choices) or "?"
                for choices in self.answered[-calls:]]

    def weights(self, d):
        core = self.core()
        spec = d["spec"]
        method, stir = surf_method(self.opts)
        if method == MURELIEF:
            murelief = self.module("variants.murelief")
            return murelief.murelief(d["X"], d["y"], d["discrete"],
                                     k_nearest=spec.k,
                                     convention="scikit-rebate")
        if method in ITER:
            iterative = self.module("variants.iterative")
            registry = self.module("registry")
            wrapped, options = (("ReliefF", {"k_nearest": spec.k})
                                if method == "iter-relieff"
                                else ("MultiSURF", {}))
            return iterative.iterated(
                registry.by_name(wrapped), d["X"], d["y"], d["discrete"],
                convergence="scikit-rebate", **options).scores
        if method in SWRF:
            swrf = self.module("variants.swrf")
            task = ("regression" if spec.kind == "regression"
                    else "classification")
            return swrf.swrf_weights(d["X"], d["y"], d["discrete"],
                                     method=method, task=task,
                                     convention="scikit-rebate")
        if method is not None:
            surf = self.module("variants.surf")
            task = "regression" if spec.kind == "regression" else "classification"
            return surf.neighbourhood_sums(d["X"], d["y"], d["discrete"],
                                           method=method, task=task,
                                           stir=stir).weights
        estimator = core.rrelieff if spec.kind == "regression" else core.relieff
        return np.asarray(estimator(d["X"], d["y"], d["discrete"],
                                    k_nearest=spec.k, n_iterations=spec.m,
                                    random_state=spec.seed), dtype=float)


class _OurReferences(np.random.RandomState):
    """Orange draws its references with ``rstate.randint(n, size=m)``; this
    state returns ours instead: every instance once (m = n), or the m that
    ours samples with the spec's seed, so that Orange weighs with exactly
    our references (the same work as its own sampling with replacement)."""

    def __init__(self, references):
        super().__init__(0)
        self.references = references

    def randint(self, low, high=None, size=None, dtype=int):
        return self.references.astype(dtype)


def our_references(spec):
    """The references ours takes for `spec` (its seed and m)."""
    from orangecontrib.relief.core.variants.estimators import (
        reference_instances)
    return reference_instances(spec.n, spec.m, spec.seed)


class OrangeBuiltin(Method):
    name = "orange"

    def supports(self, spec):
        if surf_method(self.opts)[0] is not None:
            return False, "no SURF family"
        return super().supports(spec)

    def memory_estimate(self, spec):
        return 2 * 8 * spec.n * spec.a + 16 * spec.n

    def prepare(self, d):
        from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                                 Table)
        spec = d["spec"]
        attrs = [DiscreteVariable(f"x{c}", values=[str(v) for v in range(nv)]) if nv
                 else ContinuousVariable(f"x{c}")
                 for c, nv in enumerate(d["n_values"])]
        if spec.kind == "regression":
            cls = ContinuousVariable("y")
        else:
            n_cls = int(np.nanmax(d["y"])) + 1
            cls = DiscreteVariable("y", values=[str(v) for v in range(n_cls)])
        table = Table.from_numpy(Domain(attrs, cls), d["X"], d["y"])
        return {"table": table, "spec": spec}

    def run(self, p):
        from Orange.preprocess.score import ReliefF, RReliefF
        spec = p["spec"]
        scorer = RReliefF if spec.kind == "regression" else ReliefF
        references = our_references(spec)
        return np.asarray(scorer(n_iterations=len(references), k_nearest=spec.k,
                                 random_state=_OurReferences(references))(
                                     p["table"]), dtype=float)

    def agreement(self, spec):
        if spec.kind == "regression":
            return "rank", ("Orange RReliefF: constant influence 1/(5k) per "
                            "neighbour and "
                            "unnormalised |dy| in N_dC, so W's second term differs")
        if spec.missing:
            return "rank", ("Orange: missing numeric diff = normal pdf, nominal = "
                            "P(value|class) (not RELIEF-D)")
        return "exact", ("same ReliefF definition (divides by k; all classes "
                         "have > k members)")


def peer_run(peer, opts, d):
    """A peer's weights on the benchmark's data, through the add-on's one
    adapter of the peers (:func:`orangecontrib.relief.experiments.peers.
    peer_weights`)."""
    from orangecontrib.relief.experiments.peers import peer_weights

    spec = d["spec"]
    task = "regression" if spec.kind == "regression" else "classification"
    return peer_weights(peer, surf_method(opts)[0] or "relieff", d["X"],
                        d["y"], k=spec.k, task=task)


class FastSelect(Method):
    name = "fast-select"
    jit = True
    regression = False
    missing = False
    requires = "fast_select"

    def supports(self, spec):
        method = surf_method(self.opts)[0]
        if method in SKREBATE_ONLY:
            return False, f"it has no {method}"
        return super().supports(spec)

    def memory_estimate(self, spec):
        return 4 * spec.n * spec.a * 2

    def run(self, d):
        return peer_run(self.name, self.opts, d)

    def agreement(self, spec):
        if note := self.all_pairs_only(spec):
            return note
        if surf_method(self.opts)[0] is not None:
            return "exact", "same definition for two classes; float32, so ~1e-6"
        return "exact", ("same definition (range-normalised L1, mean over found "
                         "neighbours, priors); float32, so ~1e-7")


class Skrebate(Method):
    name = "skrebate"
    requires = "skrebate"

    def memory_estimate(self, spec):
        # pdist (4 n^2) + squareform (8 n^2); the missing-value and mixed paths
        # build more n x n float64 arrays.
        per_pair = 12
        if spec.missing:
            per_pair = 16
        elif spec.mix == "mixed":
            per_pair = 28
        return per_pair * spec.n ** 2

    def run(self, d):
        return peer_run(self.name, self.opts, d)

    def agreement(self, spec):
        if note := self.all_pairs_only(spec):
            return note
        method, _ = surf_method(self.opts)
        if (method in SKREBATE_ONLY and (spec.kind == "binary" or (
                method in SWRF and spec.kind == "regression"))
                and not spec.missing and spec.mix == "continuous"):
            return "exact", (
                "ours with convergence='scikit-rebate': its rounds"
                if method in ITER else
                "ours with convention='scikit-rebate': its definition")
        if method in ("surf", "surf*"):
            return "rank", ("skrebate's SURF threshold averages the n x n matrix "
                            "with its zero diagonal: (n-1)/n of the pair mean")
        if spec.kind == "multiclass":
            return "rank", ("skrebate multiclass weighs miss classes by their share "
                            "among the neighbours, not by priors")
        if spec.kind == "regression":
            return "rank", ("skrebate 'continuous' endpoint: hit/miss by "
                            "|dy| < std(y), "
                            "not RReliefF")
        if spec.missing:
            return "rank", "skrebate skips missing values and renormalises the distance"
        if spec.mix == "mixed":
            return "rank", ("skrebate mixed data: nominal distance scaled by "
                            "a/a_nominal, "
                            "numeric diff = 1 above one std")
        return "exact", ("same definition for binary continuous data (no "
                         "tied distances, where skrebate's argsort, our "
                         "ties='lower-index' and our default sharing of "
                         "tied places agree)")


METHODS = {"ours": Ours, "orange": OrangeBuiltin, "fast-select": FastSelect,
           "skrebate": Skrebate}


def spearman(u, v):
    from scipy.stats import spearmanr
    rho = spearmanr(u, v).statistic
    return float(rho)


def agreement(method_name, spec, w_peer, w_ours, opts):
    """(text, figure, kind, note) comparing a peer's weights with ours."""
    kind, note = METHODS[method_name](opts).agreement(spec)
    u, v = np.asarray(w_peer, float), np.asarray(w_ours, float)
    if kind == "exact":
        fig = float(np.max(np.abs(u - v)))
        return f"max abs diff {fig:.1e}", fig, kind, note
    fig = spearman(u, v)
    return f"rank corr {fig:.3f}", fig, kind, note
