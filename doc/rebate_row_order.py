"""The table of doc/rebate.md on the order of the rows: the power at the top
of ReliefF (k = 10) on every family of a folder laid out as the ReBATE
archive, the tables weighed with their rows as given and after a random
permutation of them, and scikit-rebate's ReliefF beside it where it is
installed.

    python doc/rebate_row_order.py DIR [--summary FILE] [--ties RULE]
        [--replicates N] [--peer-replicates N] [--jobs J] [--seed S]

Prints a Markdown table, a row per family.  `--ties` is passed to the
add-on's ReliefF as its rule for ties at the k-th neighbour (default: its
own default); run it once per rule to compare them.  scikit-rebate takes
seconds a file where the add-on takes a fraction of one, so
`--peer-replicates` runs it on fewer replicates of each configuration.
Long runs belong under ``flock /work/bench.lock`` on a shared machine.
"""
import argparse
import math
import os

from orangecontrib.relief.experiments import peers, rebate

OURS = "ReliefF k=10"
THEIRS = "skrebate ReliefF k=10"


def run(folder, methods, replicates, permute_rows, options, jobs):
    """The experiment's results of `methods`, the rows as given or
    permuted."""
    settings = rebate.Settings(folder, methods=methods, replicates=replicates,
                               permute_rows=permute_rows, **options)
    return rebate.run(settings, jobs=jobs)


def table(folder, *, summary=None, ties=None, replicates=None,
          peer_replicates=None, seed=0, jobs=1):
    """The Markdown lines of the table."""
    ours = dict(summary=summary, seed=seed, ties=ties)
    theirs = dict(summary=summary, seed=seed)
    columns = []  # (results, method, heading)
    for permute_rows, order in ((False, "as given"), (True, "permuted")):
        results = run(folder, (OURS,), replicates, permute_rows, ours, jobs)
        columns.append((results, OURS, f"ReliefF k=10, rows {order}"))
    if peers.available("skrebate"):
        for permute_rows, order in ((False, "as given"), (True, "permuted")):
            results = run(folder, (THEIRS,), peer_replicates or replicates,
                          permute_rows, theirs, jobs)
            columns.append((results, THEIRS,
                            f"scikit-rebate ReliefF k=10, rows {order}"))
    first = columns[0][0]
    lines = ["| family (configurations) | "
             + " | ".join(heading for _, _, heading in columns) + " |",
             "|---|" + "---:|" * len(columns)]
    groups = rebate.family_groups(first.configurations)
    for label, group in groups + [("**mean of all**", None)]:
        cells = []
        for results, method, _ in columns:
            chosen = [c for c in results.configurations
                      if group is None or c.path in {g.path for g in group}]
            mean = results.mean_power_at_top(chosen)[method]
            cells.append("n/a" if math.isnan(mean) else f"{mean:.2f}")
        size = "" if group is None else f" ({len(group)})"
        lines.append(f"| {label}{size} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"(ties: {ties or 'the add-on default'}; replicates: "
                 f"{replicates or 'all'}, scikit-rebate's "
                 f"{peer_replicates or replicates or 'all'}; seed {seed})")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", metavar="DIR")
    parser.add_argument("--summary", metavar="FILE")
    parser.add_argument("--ties", metavar="RULE")
    parser.add_argument("--replicates", type=int)
    parser.add_argument("--peer-replicates", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    print("\n".join(table(
        args.folder, summary=args.summary, ties=args.ties,
        replicates=args.replicates, peer_replicates=args.peer_replicates,
        seed=args.seed, jobs=args.jobs)))


if __name__ == "__main__":
    main()
