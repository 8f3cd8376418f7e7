"""The exception the core raises for input it cannot score, and the
warning of a fit that did not converge."""


class ReliefInputError(ValueError):
    """Raised, with a message meant for the user, when the data or the
    parameters cannot be scored (empty data, a single class, inf values,
    unknown options ...)."""


class ConvergenceWarning(UserWarning):
    """Warned, with a message meant for the user, when an iterative fit
    stops without converging and its last iterate is returned (NPDR's
    logistic fit of an attribute whose diffs separate hits from misses)."""
