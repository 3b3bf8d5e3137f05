"""The stacked outputs of a ``scan`` that a program reads one row at a time only.

A ``scan`` stacks what each step returns into one array with a row per step. Reverse-mode
autodiff of a scan stacks the residuals of its steps this way (a step's running output, shape
``(t, e)``, becomes an ``(s, t, e)`` array) and hands it to the backward scan, which reads one
row per step: no step ever sees more than a row. ``read_by_rows`` finds those values in one
jaxpr, for ``program.summarize`` to mark them (``rows`` in a symbolic shape's entry), so that
a rule on the size of values can weigh them by their row. Runs in the worker; decides nothing.
"""

from __future__ import annotations

from .jaxapi import scan_layout


def read_by_rows(jaxpr) -> set:
    """The ids of the stacked outputs of the scans of ``jaxpr`` whose every use in it is as a
    scanned operand of a scan (one row a step). Any other use reads the value whole: an
    equation that is not a scan (a sum over the rows, a slice, a transpose), a scan's constant
    or initial carry, a call's operand (a jit's body would see it whole), or an output of the
    jaxpr itself (what its caller does with it is not looked at)."""
    stacked: dict = {}  # id -> still read by rows only
    for eqn in jaxpr.eqns:
        layout = None
        if eqn.primitive.name == "scan":
            try:
                layout = scan_layout(eqn.params, len(eqn.invars))
            except Exception:  # noqa: BLE001 - a scan of another form: every operand read whole
                layout = None
        whole = len(eqn.invars) if layout is None else sum(layout)  # the scanned come last
        for var in eqn.invars[:whole]:
            if id(var) in stacked:
                stacked[id(var)] = False
        if layout is not None:
            for var in eqn.outvars[layout[1]:]:
                if len(getattr(getattr(var, "aval", None), "shape", ())) > 0:
                    stacked[id(var)] = True
    for var in jaxpr.outvars:
        if id(var) in stacked:
            stacked[id(var)] = False
    return {k for k, rows in stacked.items() if rows}
