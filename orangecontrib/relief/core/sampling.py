"""The references of a call and what it may ask of the machine: the
reference instances drawn, the memory a parameter asks for checked before
anything is allocated, a Dask client checked before anything is sent."""
import os

import numpy as np

from .errors import ReliefInputError
from .validation import validated


@validated
def reference_instances(n, n_iterations, random_state):
    """Indices of the reference instances R_1 .. R_m.

    ``None``: every instance once, in order (Kononenko's deterministic
    "Relieved" mode).  An integer m: m draws with replacement from
    ``numpy.random.default_rng(random_state)``, as Relief's "randomly
    select an instance" (Kira & Rendell 1992).
    """
    if n_iterations is None:
        return np.arange(n)
    check_memory("n_iterations", n_iterations * BYTES_PER_REFERENCE)
    return np.random.default_rng(random_state).integers(0, n, size=n_iterations)


#: the least a sampled reference holds: its index and one neighbour's
BYTES_PER_REFERENCE = 16


def check_memory(name, needed):
    """Raise ReliefInputError, before allocating, when `needed` bytes (what
    parameter `name` asks for) exceed this machine's memory."""
    try:
        available = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # no sysconf: no check
        return
    if needed > available:
        raise ReliefInputError(
            f"{name} asks for at least {needed / 2 ** 30:.0f} GiB of memory "
            f"and this machine has {available / 2 ** 30:.0f} GiB; use fewer.")


def check_client(client):
    """`client` if it is None or a running ``dask.distributed`` client
    (something with ``submit`` and ``scatter``), else ReliefInputError:
    an address is not a client, and a closed client runs nothing."""
    if client is None:
        return None
    if isinstance(client, str):
        raise ReliefInputError(
            f"client must be a dask.distributed Client or None, got the "
            f"string {client!r}; connect first: Client({client!r}).")
    if not (hasattr(client, "submit") and hasattr(client, "scatter")):
        raise ReliefInputError(f"client must be a dask.distributed Client or "
                               f"None, got {type(client).__name__}.")
    if getattr(client, "status", "running") in ("closing", "closed"):
        raise ReliefInputError("client is closed; pass a running "
                               "dask.distributed Client, or None.")
    return client
