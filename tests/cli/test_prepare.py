"""``orange-relief prepare`` (orangecontrib.relief.cli.prepare): from its
first line what it prepares, where, the part and the time left from the
parts' budgets; the folder named where the cache cannot be written; the
work taken over from a background preparation.  The parts are the
stand-in worker's of tests/core/test_preparation.py."""
import json
import sys

from orangecontrib.relief.cli import main, prepare
from orangecontrib.relief.core.engines import cache, keeper, preparation
from tests.stand_in_preparation import (END_S, all_gone, processes_of,
                                        start_keeper, wait_for)


def run(capsys, monkeypatch):
    monkeypatch.setattr(prepare, "PreparationBar", lambda: Bar())
    code = main(["prepare"])
    out, err = capsys.readouterr()
    return code, out, err


class Bar(prepare.PreparationBar):
    """The command's bar, shown though the tests switch bars off."""

    def __init__(self):
        super().__init__()
        self.enabled = True


def test_prepare_names_the_part_and_the_time_left_from_the_start(
        folder, fake, capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch)
    assert code == 0
    lines = err.splitlines()
    assert lines[0].startswith(f"Preparing the compiled engine in {folder}"
                               f": 3 parts, about 4 s of processor time.")
    # every part at once from the start, the longest first
    assert lines[1].startswith("preparing [")
    assert "second, first, third (1-3/3)" in lines[1]
    assert "about " in lines[1] and " left" in lines[1]
    assert "100%" in lines[-1] and "done in" in lines[-1]
    assert out.startswith(f"The compiled engine is ready ({folder}), "
                          f"prepared in ")
    # and ready the second time
    code, out, _ = run(capsys, monkeypatch)
    assert code == 0 and out == f"The compiled engine is ready ({folder}).\n"


def test_prepare_takes_the_work_over_from_the_background(folder, slow,
                                                        capsys, monkeypatch):
    pid = start_keeper(folder, slow)
    processes = processes_of(pid)
    slow[1]["FAKE_SECONDS"] = "0.2"  # prepare's own workers: quick
    code, out, err = run(capsys, monkeypatch)
    assert code == 0 and "is ready" in out
    assert ("The compiled engine was being prepared in the background ("
            in err)
    assert "); this command takes the work over.\n" in err
    wait_for(lambda: all_gone(processes), END_S)


def test_a_cache_folder_that_cannot_be_made_is_named(tmp_path, capsys,
                                                     monkeypatch):
    (tmp_path / "a file").write_text("")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "a file"))
    code, out, err = run(capsys, monkeypatch)
    assert code == 1 and out == ""
    error = err.splitlines()[-1]
    assert error.startswith("orange-relief prepare: error: cannot write the "
                            f"compiled engine's cache in "
                            f"{cache.kernel_folder()}")
    assert error.endswith("set NUMBA_CACHE_DIR to a folder that can be "
                          "written.")


def test_a_full_disk_is_named_with_the_folder(folder, fake, tmp_path, capsys,
                                              monkeypatch):
    # a worker that cannot write the cache says why and ends with
    # keeper.UNWRITABLE, as warmup.work does
    script = tmp_path / "full.py"
    script.write_text(
        "import json\n"
        f"print(json.dumps({{'error': 'No space left on device', "
        f"'cpu': 0.1}}), flush=True)\n"
        f"raise SystemExit({keeper.UNWRITABLE})\n")
    monkeypatch.setattr(preparation, "worker_command",
                        lambda: [sys.executable, str(script)])
    code, out, err = run(capsys, monkeypatch)
    assert code == 1 and out == ""
    assert err.splitlines()[-1] == (
        f"orange-relief prepare: error: cannot write the compiled engine's "
        f"cache in {folder} (No space left on device); set NUMBA_CACHE_DIR "
        f"to a folder that can be written.")
    assert not (folder / keeper.READY).exists()
    assert json.loads((folder / keeper.STATE).read_text())["outcome"].startswith(
        "unwritable")
