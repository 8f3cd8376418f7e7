"""Copies of the tests' small copy of the ReBATE archive (tests/data/rebate)
holding one configuration, for runs that need no more."""
import gzip
import os

import numpy as np

#: the tests' copy of the archive's layout
FOLDER = os.path.join(os.path.dirname(__file__), "data", "rebate")
#: its configuration of the smallest files (200 x 20)
SMALL = "GAMETES_2.2_dev_peter_core2wayEpistasis_Datasets_Loc_2_Qnt_2_Pop_100000"


def copy_of(folder, configuration, tmp_path, missing=0.0):
    """A folder holding only `configuration` of `folder`, its values
    missing with probability `missing`."""
    rng = np.random.default_rng(0)
    for root, _, files in os.walk(os.path.join(folder, configuration)):
        target = tmp_path / os.path.relpath(root, folder)
        target.mkdir(parents=True, exist_ok=True)
        for name in files:
            with gzip.open(os.path.join(root, name), "rt") as file:
                lines = file.read().splitlines()
            cells = [line.split("\t") for line in lines[1:]]
            for row in cells:
                for c in range(len(row) - 1):
                    if rng.random() < missing:
                        row[c] = "NA"
            with gzip.open(target / name, "wt") as file:
                file.write("\n".join([lines[0]] + ["\t".join(row)
                                                   for row in cells]) + "\n")
    return str(tmp_path)
