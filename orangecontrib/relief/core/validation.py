"""Options checked once, where a call enters the core.

A public function of the core is decorated with :func:`validated`: each of
its arguments that :data:`.options.PARAMETERS` declares is checked there,
on entry, and the code it calls (the preparation, the reference sampling,
the neighbour search) trusts its options instead of checking them again::

    @validated
    def relieff(X, y, discrete=None, *, k_nearest=K_RELIEFF, ...):
        ...

An entry that calls another entry with options it has checked itself
calls that one's ``unchecked`` function, the same function without the
checks (``prepare.unchecked(X, y, ...)``), so that a call is checked once.
"""
import functools
import inspect

from .options import PARAMETERS, check_ramp

#: the diff of numbers and its ramp's thresholds, checked together
RAMP = ("diff", "t_eq", "t_diff")


def validated(function=None, **aliases):
    """`function` checking its declared options on entry.

    Each argument whose name :data:`.options.PARAMETERS` declares (or the
    declared name that `aliases` gives it: ``@validated(k_nearest="npdr_k")``;
    None: the function checks it itself) is checked by the declared
    constraint, its message naming the argument, and passed on in its
    working type (an integral value as int, a number as float); a function
    that takes `diff`, `t_eq` and `t_diff` has them checked together
    (:func:`.options.check_ramp`).  Defaults are not checked: they are
    declared valid.  The checking function's ``unchecked`` is `function`
    itself, for a caller whose options are checked already."""
    if function is None:
        return lambda function: validated(function, **aliases)
    signature = inspect.signature(function)
    ramp = all(name in signature.parameters for name in RAMP)
    declared = {name: PARAMETERS[aliases.get(name, name)]
                for name in signature.parameters
                if aliases.get(name, name) in PARAMETERS
                and not (ramp and name in RAMP)}

    @functools.wraps(function)
    def checked(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        arguments = bound.arguments
        for name, constraint in declared.items():
            if name in arguments:
                arguments[name] = constraint(name, arguments[name])
        if ramp and not arguments.keys().isdisjoint(RAMP):
            values = check_ramp(*(
                arguments.get(name, signature.parameters[name].default)
                for name in RAMP))
            for name, value in zip(RAMP, values):
                if name in arguments:
                    arguments[name] = value
        return function(*bound.args, **bound.kwargs)

    checked.unchecked = function
    return checked
