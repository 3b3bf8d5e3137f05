"""Pieces of a cotangent split by a select on x, for the custom_vjp dataflow (``provenance``).

Under ``vmap``, a ``cond`` or ``switch`` on x is a ``select_n`` between the branches' outputs,
and JAX's transpose of it puts the cotangent into one case of a select and zeros into the others
(for a select among n cases, one select on ``which == i`` per case). Each such piece is labelled
``("k", key, case, cases)`` (``key`` naming the select's predicate) instead of mixed; a rule's
output marker adds ``("kp", key, case, cases, n)`` for each piece it passes (function n); where
the pieces reach the field, every piece of the select must be there, each through the rules of
the same functions (``whole``). ``Selects`` reads the program for the selects and comparisons
that make pieces. Decides nothing.
"""

from __future__ import annotations

import numpy as np

from .flow_labels import COTANGENT, SAME_VALUE, A, M, P, X, is_var, unpassed


def piece(labels: frozenset, key: int, case: int, cases: int) -> frozenset:
    """The labels of a cotangent a select on x puts into one of its ``cases`` (zeros in the
    others): what JAX's transpose of a select between the outputs of several branches gives each
    branch (a ``cond`` or ``switch`` on x under ``vmap``). A cotangent a rule passed before is
    raw again (``unpassed``); the piece keeps its labels and is marked ``("k", key, case,
    cases)``, ``key`` naming the select's predicate, instead of being mixed: outside the rules
    it may only be moved (``has_piece``), and where it arrives, every piece of that select must
    have passed the rules of the same functions (``whole``)."""
    return unpassed(labels) | {("k", key, case, cases)}


def has_piece(labels: frozenset) -> bool:
    return any(isinstance(label, tuple) and label[0] == "k" for label in labels)


def passed(labels: frozenset, fn: int) -> frozenset:
    """At the output marker of a rule of function ``fn``: each piece has passed it."""
    return labels | {("kp", *label[1:], fn) for label in labels
                     if isinstance(label, tuple) and label[0] == "k"}


def whole(labels: frozenset) -> bool:
    """Whether each select on x whose pieces arrive here has all its pieces here, each passed
    through the rules of the same functions (a mask chosen by x drops a piece, zeroes it
    outside the rules, or passes it through another rule)."""
    found: dict = {}
    for label in labels:
        if isinstance(label, tuple) and label[0] == "k":
            found.setdefault(label[1:4:2], {}).setdefault(label[2], set())
    for label in labels:
        if isinstance(label, tuple) and label[0] == "kp":
            found.setdefault(label[1:4:2], {}).setdefault(label[2], set()).add(label[4])
    for (_, cases), by_case in found.items():
        routes = {frozenset(fns) for fns in by_case.values()}
        if len(by_case) != cases or len(routes) != 1 or not next(iter(routes)):
            return False
    return True


class Selects:
    """What one pass of the dataflow has seen of the selects of a program: the int variables
    choosing a ``select_n`` (and how many cases), the bools comparing one with a literal, and
    which variables are copies of others (broadcast, cast, stopped)."""

    def __init__(self):
        self.equal_to: dict = {}  # a bool variable -> (id of the int it compares, the literal)
        self.cases: dict = {}     # id of an int variable choosing a select_n -> its cases
        self.source: dict = {}    # a variable -> the one it is a copy of

    def note(self, eqn) -> None:
        """Note what a ``select_n`` on an int chooses among (its count of cases), which bools
        compare an int with a literal (JAX transposes a select among n cases into one select per
        case on ``which == i``), and which variables are copies of others (moved, cast)."""
        name, ins = eqn.primitive.name, eqn.invars
        if name in SAME_VALUE and ins and is_var(ins[0]):
            self.source[eqn.outvars[0]] = self._origin(ins[0])
        if name == "select_n" and len(ins) > 2 and is_var(ins[0]) and not _is_bool(ins[0]):
            self.cases[id(self._origin(ins[0]))] = len(ins) - 1
        if name == "eq" and len(ins) == 2 and is_var(ins[0]) and not is_var(ins[1]):
            value = np.asarray(getattr(ins[1], "val", None))
            if value.shape == () and np.issubdtype(value.dtype, np.integer):
                self.equal_to[eqn.outvars[0]] = (id(self._origin(ins[0])), int(value))

    def _origin(self, var):
        return self.source.get(var, var)

    def piece(self, eqn, ins, kin) -> tuple | None:
        """(key, case, cases) of the piece a ``select_n`` on x puts a cotangent into, zeros in
        every other case (``piece``), else None: the case it is in among the select's cases,
        or, for a select on ``which == i`` (a select among several cases transposed), case i
        among the cases of the select on ``which``."""
        if eqn.primitive.name != "select_n" or len(ins) < 3 or X not in ins[0] or ins[0] & COTANGENT:
            return None
        carrying = [i for i, labels in enumerate(ins[1:]) if labels & {A, P}]
        if len(carrying) != 1 or ins[1 + carrying[0]] & {M, X}:
            return None
        if any(kind != "nothing" for i, kind in enumerate(kin[1:]) if i != carrying[0]):
            return None
        predicate = self._origin(eqn.invars[0]) if is_var(eqn.invars[0]) else None
        which = self.equal_to.get(predicate)
        cases = None if which is None else self.cases.get(which[0])
        if cases is not None and len(ins) == 3 and carrying == [1]:
            return None if not 0 <= which[1] < cases else (which[0], which[1], cases)
        return id(predicate), carrying[0], len(ins) - 1


def _is_bool(var) -> bool:
    return str(getattr(getattr(var, "aval", None), "dtype", "")) == "bool"
