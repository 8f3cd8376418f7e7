"""The one exception type the core raises for input it cannot score."""


class ReliefInputError(ValueError):
    """Raised, with a message meant for the user, when the data or the
    parameters cannot be scored (empty data, a single class, inf values,
    unknown options ...)."""
