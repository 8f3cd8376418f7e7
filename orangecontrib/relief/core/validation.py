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
The public entries above the core (the scikit-learn selectors, the Orange
scorers) check the options they hold with :func:`checked_options`, by the
names their user typed, and call the core's ``unchecked`` functions.
"""
import functools
import inspect

from .options import DIFF, PARAMETERS, T_DIFF, T_EQ, check_ramp

#: the diff of numbers and its ramp's thresholds, checked together
RAMP = ("diff", "t_eq", "t_diff")
#: NPDR's names of the parameters it declares apart (its neighbourhood,
#: k and ties take values the other variants' do not)
NPDR_NAMES = dict(neighbourhood="npdr_neighbourhood", k_nearest="npdr_k",
                  ties="npdr_ties")
#: survival NPDR's: NPDR's, and its diffs and regression
SURVIVAL_NAMES = dict(NPDR_NAMES, diffs="survival_diffs",
                      regression="survival_regression")


def validated(function=None, **aliases):
    """`function` checking its declared options on entry.

    Each argument whose name :data:`.options.PARAMETERS` declares (or the
    declared name that `aliases` gives it: ``@validated(k_nearest="npdr_k")``;
    None: the function checks it itself) is checked by the declared
    constraint, its message naming the argument, and passed on in its
    working type (an integral value as int, a number as float); a function
    that takes `diff`, `t_eq` and `t_diff` has them checked together
    (:func:`.options.check_ramp`); the options it passes on (its
    ``**options``) are checked by :func:`checked_options`.  Defaults are
    not checked: they are declared valid.  The checking function's
    ``unchecked`` is `function` itself, for a caller whose options are
    checked already."""
    if function is None:
        return lambda function: validated(function, **aliases)
    signature = inspect.signature(function)
    ramp = all(name in signature.parameters for name in RAMP)
    declared = {name: PARAMETERS[aliases.get(name, name)]
                for name in signature.parameters
                if aliases.get(name, name) in PARAMETERS
                and not (ramp and name in RAMP)}
    defaults = (tuple(signature.parameters[name].default for name in RAMP)
                if ramp else None)
    passed_on = next((parameter.name
                      for parameter in signature.parameters.values()
                      if parameter.kind is parameter.VAR_KEYWORD), None)

    @functools.wraps(function)
    def checked(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        arguments = bound.arguments
        checked_in_place(arguments, declared, defaults)
        if passed_on in arguments:  # the options a function passes on
            arguments[passed_on] = checked_options(arguments[passed_on],
                                                   **aliases)
        return function(*bound.args, **bound.kwargs)

    checked.unchecked = function
    return checked


def checked_options(options, **aliases):
    """`options` ({name: value}, as a caller gave them) with each one that
    :data:`.options.PARAMETERS` declares checked as :func:`validated`
    checks a function's arguments: by its declared constraint (or that of
    the declared name `aliases` gives it; None: not declared), the
    message naming it as the caller did, its value in its working type;
    `diff`, `t_eq` and `t_diff` together (:func:`.options.check_ramp`,
    with the defaults of those not given).  The other options are returned
    as they are.  For an entry (a selector, a scorer) that checks what its
    user gave once and calls the core's ``unchecked`` functions."""
    declared = {name: PARAMETERS[aliases.get(name, name)] for name in options
                if aliases.get(name, name) in PARAMETERS
                and name not in RAMP}
    return checked_in_place(dict(options), declared, (DIFF, T_EQ, T_DIFF))


def checked_in_place(arguments, declared, ramp_defaults):
    """`arguments` ({name: value}), each one that `declared` ({name:
    constraint}) names replaced by its checked value; where
    `ramp_defaults` (the defaults of `diff`, `t_eq` and `t_diff`; None:
    the caller takes no ramp) are given and `arguments` holds one of the
    three, the three checked together (:func:`.options.check_ramp`), the
    defaults standing for those not given."""
    for name, constraint in declared.items():
        if name in arguments:
            arguments[name] = constraint(name, arguments[name])
    if ramp_defaults is not None and not arguments.keys().isdisjoint(RAMP):
        values = check_ramp(*(arguments.get(name, default)
                              for name, default in zip(RAMP, ramp_defaults)))
        for name, value in zip(RAMP, values):
            if name in arguments:
                arguments[name] = value
    return arguments


def unchecked_instance(cls, *args, **kwargs):
    """An instance of `cls`, whose constructor is :func:`validated`, made
    by the constructor's ``unchecked`` function, for a caller whose
    options are checked already."""
    instance = cls.__new__(cls)
    cls.__init__.unchecked(instance, *args, **kwargs)
    return instance
