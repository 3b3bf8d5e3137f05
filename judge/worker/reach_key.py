"""What lets the recurrence's measuring program (``reach``) compile once for programs that differ
only in a static value: their floating scalar literals (a decay) are arguments of it
(``lifted_vars``, ``literals``), and a program is known by its text with those literals written
as 0 and the bytes of every constant nested in it (``fingerprint``), under which ``COMPILED``
keeps what was compiled for it."""

from __future__ import annotations

import numpy as np

from .jaxapi import sub_jaxprs


def floating(var) -> bool:
    """Is ``var`` (a ref: the array it holds) of a floating or complex dtype?"""
    aval = getattr(var.aval, "inner_aval", var.aval)
    return np.issubdtype(np.dtype(aval.dtype), np.inexact)


#: fingerprint of a program (its text but for its floating literals, its nested constants) ->
#: its measuring program compiled: programs that differ only in a static value compile once
COMPILED: dict = {}


def fingerprint(closed, literals: list, more: tuple) -> tuple:
    """What decides the measuring program: ``closed``'s text with each of ``literals`` (its
    floating literals, arguments of the measuring program) written as 0, the bytes of every
    constant of a jaxpr nested in it, and ``more``."""
    import hashlib

    kept = [v.val for v in literals]
    try:
        for v in literals:
            v.val = np.zeros((), np.dtype(v.aval.dtype))
        text = str(closed.jaxpr)
    finally:
        for v, val in zip(literals, kept):
            v.val = val
    digest = hashlib.sha256(text.encode())
    for consts in _nested_consts(closed.jaxpr):
        for c in consts:
            array = np.asarray(c)
            digest.update(f"{array.dtype}{array.shape}".encode() + array.tobytes())
    avals = tuple((tuple(np.shape(c)), str(np.asarray(c).dtype)) for c in closed.consts)
    return digest.hexdigest(), avals, more


def _nested_consts(jaxpr):
    for eqn in jaxpr.eqns:
        for param in eqn.params.values():
            for value in (param if isinstance(param, (tuple, list)) else (param,)):
                if hasattr(value, "consts") and hasattr(value, "jaxpr"):
                    yield value.consts
            for sub in sub_jaxprs(param):
                yield from _nested_consts(sub)


def literals(jaxpr) -> dict:
    """id of each floating scalar literal of ``jaxpr`` and the jaxprs nested in it -> its place."""
    return {id(v): n for n, v in enumerate(lifted_vars(jaxpr))}


def lifted_vars(jaxpr) -> list:
    """The floating scalar literals of ``jaxpr`` and the jaxprs nested in it, each once, in the
    order of a walk."""
    from jax._src import core

    found, seen, done = [], set(), set()

    def walk(j):
        if id(j) in done:
            return
        done.add(id(j))
        for eqn in j.eqns:
            for v in eqn.invars:
                if isinstance(v, core.Literal) and id(v) not in seen and np.shape(v.val) == () \
                        and floating(v):
                    seen.add(id(v))
                    found.append(v)
            for param in eqn.params.values():
                for sub in sub_jaxprs(param):
                    walk(sub)
    walk(jaxpr)
    return found
