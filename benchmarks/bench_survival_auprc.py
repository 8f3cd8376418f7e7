"""Survival NPDR on the authors' simulations: the mean area under the
precision-recall curve beside their published figures.

Usage: ``python benchmarks/bench_survival_auprc.py [--sims 20] [--folds 10]
[--design main interactions] [--draws r numpy]``

Two designs of Kampmeyer et al. (2026) (``survival_data.py``): 200
instances, 1000 attributes, ten main effects of beta 0.13, signed diffs
(published mean auPRC 0.749); 500 instances, 1000 attributes, ten
interacting pairs of beta 0.20, absolute diffs (published 0.107).  For
each of ``--sims`` data sets, survival NPDR with the authors' settings
(MultiSURF, Kaplan-Meier imputation, the pairs of unknown order left out,
linear fits, the authors' conventions) on each training fold; the auPRC
of |beta| per fold, averaged over the folds and the data sets.  The data
sets are the authors' own, drawn by R (``--draws r``, the default when
``Rscript`` is found: their seeds and their ten folds, ``survival_sim.R``),
or numpy's (``--draws numpy``: seeds 2467 + 997 s, ``--folds`` folds
stratified by the event).  Run it under ``flock /work/bench.lock`` on a
shared machine.
"""
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from arguments import Parser, positive_int
from survival_data import (auprc, interactions, main_effects, print_markdown,
                           r_draws, read_r_draw, say, training_folds)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: design: (simulator, instances, beta, diffs, the published mean auPRC)
DESIGNS = {
    "main": (main_effects, 200, 0.13, "signed", 0.749),
    "interactions": (interactions, 500, 0.20, "absolute", 0.107),
}
N_ATTRIBUTES = 1000
#: the authors' npdr_surv() settings (their sweep scripts)
SETTINGS = dict(impute=True, filter_pairs=True, regression="linear",
                deviation="sample", twins="exclude", scale="none",
                adjustment="bonferroni")
BASE_SEED = 2467
DRAWS = ["r", "numpy"]


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=positive_int, default=20,
                        help="simulated data sets per design (default: 20)")
    parser.add_argument("--folds", type=positive_int, default=10,
                        help="training folds per data set of numpy's draws "
                             "(default: 10; R's draws have the authors' ten)")
    parser.add_argument("--draws", nargs="+", choices=DRAWS,
                        default=DRAWS if shutil.which("Rscript") else
                        ["numpy"],
                        help="who draws the data sets: r (the authors' own, "
                             "needs Rscript) or numpy (default: both where "
                             "Rscript is found)")
    parser.add_argument("--design", nargs="+", choices=list(DESIGNS),
                        default=list(DESIGNS), help="the designs to run")
    parser.add_argument("--attributes", type=positive_int,
                        default=N_ATTRIBUTES,
                        help=f"attributes per data set (default: "
                             f"{N_ATTRIBUTES})")
    return parser


def data_sets(design, draws, sims, folds, n_attributes):
    """(X, time, event, the training rows of each fold) of each data set
    of `design`, drawn by `draws`."""
    simulate, n, beta, _, _ = DESIGNS[design]
    if draws == "numpy":
        for sim in range(sims):
            X, time_, event, _ = simulate(n, n_attributes, beta,
                                          BASE_SEED + 997 * sim)
            yield X, time_, event, training_folds(event, folds, 123 + sim)
        return
    with tempfile.TemporaryDirectory(prefix="survival-sim-") as folder:
        r_draws(design, n, n_attributes, beta, sims, folder)
        for sim in range(1, sims + 1):
            yield read_r_draw(folder, sim, n, n_attributes)


def fold_auprcs(design, X, time_, event, training):
    """The auPRC of each training fold (rows `training`) of a data set of
    `design`, its functional attributes the first ten or twenty."""
    from orangecontrib.relief.core.variants.survival_npdr import survival_npdr

    diffs = DESIGNS[design][3]
    positive = np.zeros(X.shape[1], bool)
    positive[:20 if design == "interactions" else 10] = True
    values = []
    for rows in training:
        result = survival_npdr(X[rows], time_[rows], event[rows],
                               diffs=diffs, **SETTINGS)
        score = np.abs(result.coefficient)
        known = ~np.isnan(score)
        values.append(auprc(score[positive & known],
                            score[~positive & known]))
    return values


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.attributes <= 20:
        parser.error(f"--attributes: the designs have up to 20 functional "
                     f"attributes; give more, not {args.attributes}")
    rows = []
    for design in args.design:
        for draws in args.draws:
            start = time.perf_counter()
            try:
                per_sim = [np.mean(fold_auprcs(design, *data_set))
                           for data_set in data_sets(design, draws,
                                                     args.sims, args.folds,
                                                     args.attributes)]
            except RuntimeError as error:
                parser.exit(2, f"{parser.prog}: error: {error}\n")
            seconds = time.perf_counter() - start
            published = DESIGNS[design][4]
            mean = float(np.mean(per_sim))
            rows.append([design, DESIGNS[design][3], draws, str(args.sims),
                         f"{mean:.3f}", f"{np.std(per_sim, ddof=1):.3f}"
                         if args.sims > 1 else "-", f"{published:.3f}",
                         f"{mean - published:+.3f}", f"{seconds:.0f}"])
            say(f"{design}, {draws}'s draws: mean auPRC {mean:.3f} "
                f"(published {published})")
    header = ["design", "diffs", "draws", "data sets", "mean auPRC", "sd",
              "published", "difference", "seconds"]
    print_markdown(header, rows, left=3)


if __name__ == "__main__":
    main()
