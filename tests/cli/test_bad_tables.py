"""``orange-relief rank`` on files of bad or extreme tables: each ends with
the ranking (exit 0) or one line of error (exit 2), never a traceback."""
import numpy as np
import pytest

from orangecontrib.relief.cli import main
from tests.orange.test_input_matrix import tables

#: tables a .tab file cannot hold as they are
UNSAVABLE = ("sparse", "0 attributes", "two targets")


@pytest.mark.parametrize("case", [c for c in tables() if c not in UNSAVABLE])
@pytest.mark.parametrize("method", [[], ["--method", "Relief"],
                                    ["--method", "RReliefF"]])
def test_rank_ends_cleanly(case, method, tmp_path, capsys):
    data = tables()[case]
    filename = str(tmp_path / "data.tab")
    with np.errstate(all="ignore"):
        data.save(filename)
    code = main(["rank", filename, *method])
    out, err = capsys.readouterr()
    assert code in (0, 2)
    assert "Traceback" not in err
    if code == 2:
        assert err.count("\n") == 1 and out == ""
    else:
        assert out.splitlines()[0].split() == ["rank", "attribute", "weight"]
