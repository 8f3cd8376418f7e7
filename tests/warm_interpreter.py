"""A Python interpreter that imports the add-on once and forks a new
process for each program that the documentation's examples start
(tests/markdown_blocks.py).

Starting Python and importing Orange, numba and the add-on takes a second
or more, and the examples start about a hundred programs.  The
interpreter here imports them once (:data:`IMPORTED`); then, for each
program, it forks a child that takes the caller's input, output and error,
folder, arguments and environment, and runs the program as ``__main__``
as a new interpreter would: nothing a program does reaches another.  It
knows the programs ``python FILE``, ``python -c CODE``, ``python -`` (the
code on its input), ``python -m MODULE`` and ``orange-relief`` (``python
-m orangecontrib.relief``); any other, or one whose environment differs
from the interpreter's in a variable that a library may read as it is
imported (anything but :data:`READ_WHEN_USED`), runs in a new interpreter
as before.

``python warm_interpreter.py serve SOCKET`` serves at the Unix socket
SOCKET; the commands ``python`` and ``orange-relief`` of the examples are
``python -I -S warm_interpreter.py SOCKET python|orange-relief ARGS...``,
which hand the program over (this file's client needs the standard
library only, and starts in a few milliseconds).
"""
import json
import os
import socket
import sys

#: what the examples import, imported once before the first fork; not
#: the command line's modules (orangecontrib.relief.cli), whose clock of
#: the time "in all" starts as they are imported, but what they import
IMPORTED = ("numpy", "scipy.sparse", "scipy.stats", "pandas", "sklearn",
            "sklearn.pipeline", "sklearn.model_selection", "Orange.data",
            "Orange.classification", "Orange.preprocess",
            "Orange.evaluation", "orangecontrib.relief",
            "orangecontrib.relief.datasets", "orangecontrib.relief.sklearn",
            "orangecontrib.relief.core.warmup",
            "orangecontrib.relief.core.analysis.significance",
            "orangecontrib.relief.core.variants.npdr",
            "orangecontrib.relief.core.variants.survival_npdr")
#: variables of the environment that the shell or the tests set and that
#: are read only when used: a program whose environment differs from the
#: interpreter's in these alone runs forked
READ_WHEN_USED = {"PWD", "OLDPWD", "SHLVL", "_", "PS1", "PS2",
                  "PYTEST_CURRENT_TEST"}
#: the answer that tells the caller to start a new interpreter
FRESH = b"fresh"
#: the longest request (arguments and environment)
LONGEST = 1 << 20


def request(path, program, args):
    """Hand `program` (``python`` or ``orange-relief``) with its `args`
    over to the interpreter serving at `path`, our input, output and error
    with it; exit with its status, or run it in a new interpreter where it
    cannot."""
    message = json.dumps({"program": program, "args": args,
                          "cwd": os.getcwd(), "env": dict(os.environ)})
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as server:
            server.connect(path)
            socket.send_fds(server, [message.encode()], [0, 1, 2])
            answer = server.recv(64)
    except OSError:
        answer = FRESH  # no interpreter serves
    if answer == FRESH:
        arguments = ["-m", "orangecontrib.relief"] * (
            program == "orange-relief") + args
        os.execv(sys.executable, [sys.executable, *arguments])
    # no answer: the program died of a signal
    sys.exit(int(answer) if answer else 1)


def main_of(program, args, cwd):
    """How to run `program` with `args` in the folder `cwd` forked:
    (sys.argv, sys.path[0], the run, taking the fresh ``__main__``
    module), or None where a new interpreter must run it."""
    if program == "orange-relief":
        args = ["-m", "orangecontrib.relief", *args]
    if not args:
        return None
    first, *rest = args
    if first == "-c" and rest:
        return ["-c", *rest[1:]], "", lambda main: _run_code(
            rest[0], "<string>", main)
    if first == "-m" and rest:
        return [*rest], cwd, lambda main: _run_module(rest[0])
    if first == "-":
        return args, "", lambda main: _run_code(
            sys.stdin.read(), "<stdin>", main)
    if not first.startswith("-"):
        path = os.path.join(cwd, first)
        return args, os.path.dirname(path), lambda main: _run_file(path, main)
    return None


def _run_code(code, filename, main):
    exec(compile(code, filename, "exec"), vars(main))


def _run_file(path, main):
    main.__file__ = path
    with open(path, "rb") as file:
        _run_code(file.read(), path, main)


def _run_module(name):
    import runpy

    runpy._run_module_as_main(name, alter_argv=True)


def serve(path):
    """Import :data:`IMPORTED`, then fork a child for each request at the
    Unix socket `path` (never returns)."""
    import gc
    import importlib
    import signal

    environment = dict(os.environ)
    for name in IMPORTED:
        importlib.import_module(name)
    # what the imports set (scikit-learn: KMP_...), as they would again
    imported = {name: value for name, value in os.environ.items()
                if environment.get(name) != value}
    # the imports' objects out of the collector's sight: a child's
    # collections then never touch (and copy) the pages that hold them
    gc.freeze()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children reap themselves
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(path)
    listener.listen(16)
    while True:
        connection, _ = listener.accept()
        message, fds, _, _ = socket.recv_fds(connection, LONGEST, 3)
        asked = json.loads(message)
        run = main_of(asked["program"], asked["args"], asked["cwd"])
        if run is None or len(fds) != 3 or _differs(environment,
                                                     asked["env"]):
            connection.send(FRESH)
        elif os.fork() == 0:
            listener.close()
            _child(connection, fds, asked["cwd"],
                   imported | asked["env"], *run)
        for fd in fds:
            os.close(fd)
        connection.close()


def _differs(environment, asked):
    names = (set(environment) | set(asked)) - READ_WHEN_USED
    return any(environment.get(name) != asked.get(name) for name in names)


def _child(connection, fds, cwd, environment, argv, path, run):
    """Run `run` as a new interpreter would run the program: with the
    caller's files, environment, arguments and a fresh ``__main__``, its
    own random seeds; send the exit status and end."""
    import random
    import signal
    import types

    import numpy as np

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(environment)
    random.seed()
    np.random.seed()
    sys.argv, sys.path[0] = argv, path
    main = types.ModuleType("__main__")
    sys.modules["__main__"] = main
    try:
        run(main)
        status = 0
    except SystemExit as stop:
        status = _exit_status(stop.code)
    except BaseException as error:  # as Python prints it, but this file's
        traceback = error.__traceback__  # frames
        while traceback and traceback.tb_frame.f_code.co_filename == __file__:
            traceback = traceback.tb_next
        sys.excepthook(type(error), error, traceback)
        status = 1
    status = _finished(status)
    connection.send(str(status).encode())
    os._exit(status)


def _exit_status(code):
    """The status of ``sys.exit(code)``, as Python gives it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _finished(status):
    """What Python does as it ends: wait for the threads, run the exit
    functions, flush the output; the status (1 if a flush fails)."""
    import atexit
    import threading

    threading._shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            status = status or 1
    return status


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    else:
        request(sys.argv[1], sys.argv[2], sys.argv[3:])
