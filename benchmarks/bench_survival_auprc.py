"""Survival NPDR on the authors' simulations: the mean area under the
precision-recall curve beside their published figures.

Usage: ``python benchmarks/bench_survival_auprc.py [--sims 20] [--folds 10]
[--design main interactions]``

Two designs of Kampmeyer et al. (2026) (``survival_data.py``): 200
instances, 1000 attributes, ten main effects of beta 0.13, signed diffs
(published mean auPRC 0.749); 500 instances, 1000 attributes, ten
interacting pairs of beta 0.20, absolute diffs (published 0.107).  For
each of ``--sims`` data sets (seeds 2467 + 997 s, as theirs), survival
NPDR with the authors' settings (MultiSURF, Kaplan-Meier imputation, the
pairs of unknown order left out, linear fits, the authors' conventions)
on each training set of ``--folds`` stratified folds; the auPRC of
|beta| per fold, averaged over the folds and the data sets.  Run it under
``flock /work/bench.lock`` on a shared machine.
"""
import sys
import time
from pathlib import Path

import numpy as np

from arguments import Parser, positive_int
from survival_data import (auprc, interactions, main_effects, print_markdown,
                           say, training_folds)

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


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=positive_int, default=20,
                        help="simulated data sets per design (default: 20)")
    parser.add_argument("--folds", type=positive_int, default=10,
                        help="training folds per data set (default: 10)")
    parser.add_argument("--design", nargs="+", choices=list(DESIGNS),
                        default=list(DESIGNS), help="the designs to run")
    parser.add_argument("--attributes", type=positive_int,
                        default=N_ATTRIBUTES,
                        help=f"attributes per data set (default: "
                             f"{N_ATTRIBUTES})")
    return parser


def fold_auprcs(design, sim, folds, n_attributes):
    """The auPRC of each training fold of data set `sim` of `design`."""
    from orangecontrib.relief.core.survival_npdr import survival_npdr

    simulate, n, beta, diffs, _ = DESIGNS[design]
    X, time_, event, functional = simulate(n, n_attributes, beta,
                                           BASE_SEED + 997 * sim)
    positive = np.zeros(n_attributes, bool)
    positive[functional] = True
    values = []
    for rows in training_folds(event, folds, 123 + sim):
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
        start = time.perf_counter()
        per_sim = [np.mean(fold_auprcs(design, sim, args.folds,
                                       args.attributes))
                   for sim in range(args.sims)]
        seconds = time.perf_counter() - start
        published = DESIGNS[design][4]
        mean = float(np.mean(per_sim))
        rows.append([design, DESIGNS[design][3], str(args.sims),
                     f"{mean:.3f}", f"{np.std(per_sim, ddof=1):.3f}"
                     if args.sims > 1 else "-", f"{published:.3f}",
                     f"{mean - published:+.3f}", f"{seconds:.0f}"])
        say(f"{design}: mean auPRC {mean:.3f} (published {published})")
    header = ["design", "diffs", "data sets", "mean auPRC", "sd",
              "published", "difference", "seconds"]
    print_markdown(header, rows)


if __name__ == "__main__":
    main()
