"""Which scans hold a value of a traced program, by their counts (``program.summarize``): a value
only a scan's body computes, or only a scan reads as a constant of its body, is computed only
where that scan runs a trip, and ``max_intermediate_size`` weighs it only there. Runs in the
worker; decides nothing."""

from __future__ import annotations

from . import jaxapi, protocol, symbolic


def count(eqn) -> str | None:
    """A scan's count as text where it is a symbol's expression or 0, else None (a scan of a
    positive number of trips always runs its body; a ``while``'s count is not known)."""
    if eqn.primitive.name != "scan":
        return None
    text = symbolic.text(eqn.params.get("length"))[:protocol.MAX_NAME]
    return None if text.isdigit() and text != "0" else text


def joined(within: tuple, count: str | None) -> tuple:
    """``within`` and one more count (None: none)."""
    if count is None or count in within:
        return within
    return (*within, count)[:protocol.MAX_SUMMARY_NDIM]


def holding(eqn, within: tuple) -> tuple:
    """The counts of the scans holding the bodies of ``eqn``: those holding ``eqn``, and its
    own where it is a scan whose count ``count`` reads."""
    return joined(within, count(eqn))


def hoisted(jaxpr) -> dict:
    """id of a variable -> the count (``count``) of the scans that read it, where every
    reader is a scan of that one count reading it as a constant of its body: a value JAX
    hoisted out of the body (a fill broadcast for ``jnp.where``), which nothing reads where the
    scan runs no trip."""
    readers: dict = {}
    for eqn in jaxpr.eqns:
        found = count(eqn)
        consts = jaxapi.scan_layout(eqn.params, len(eqn.invars))[0] if found is not None else 0
        for i, v in enumerate(eqn.invars):
            if hasattr(v, "aval") and not hasattr(v, "val"):
                readers.setdefault(id(v), set()).add(found if i < consts else None)
    for v in jaxpr.outvars:
        readers.setdefault(id(v), set()).add(None)
    return {k: next(iter(c)) for k, c in readers.items() if len(c) == 1 and None not in c}
