"""The tests of a ``while`` loop's condition, as ``loops`` reads its count from them: the
comparisons its condition joins with ``&`` (``conjuncts``), the carries the body computes from
nothing the loop's values move (``data_free``: a counter, bits shifted out of K), and whether a
test reads one of them through any equation of the condition (``reads_any``). Runs in the worker;
decides nothing."""

from __future__ import annotations


def producer(jaxpr, var):
    """The equation of ``jaxpr`` that makes ``var``, or None."""
    return next((e for e in jaxpr.eqns if any(o is var for o in e.outvars)), None)


#: what gives back the bool of shape () it is handed: a cast to bool, and ``jnp.all`` or
#: ``jnp.any`` of a single test (``reduce_and`` over no axes)
_SAME_BOOL = frozenset({"convert_element_type", "reduce_and", "reduce_or"})


def _same_bool(test) -> bool:
    """Whether ``test`` (an equation of a condition) hands back its one operand, a bool of
    shape (), unchanged."""
    if test.primitive.name not in _SAME_BOOL or len(test.invars) != 1:
        return False
    aval = test.invars[0].aval
    return str(getattr(aval, "dtype", "")) == "bool" and getattr(aval, "shape", None) == ()


#: what moves a value without changing it: a number of one entry reshaped, squeezed or
#: broadcast to another shape of one entry is that number (a counter of shape (1,) read as
#: ``i[0]``, started by ``jnp.zeros(1, int32)``)
_MOVES = frozenset({"reshape", "squeeze", "broadcast_in_dim", "expand_dims", "slice"})


def _one_entry(var) -> bool:
    shape = getattr(getattr(var, "aval", None), "shape", None)
    return shape is not None and all(type(n) is int and n == 1 for n in shape)


def one_entry(eqn) -> bool:
    """Whether ``eqn`` hands back its one operand, a value of one entry, as a value of one entry
    (of shape ``()``, ``(1,)``, ``(1, 1)``...): the same number."""
    return eqn.primitive.name in _MOVES and len(eqn.invars) == 1 and len(eqn.outvars) == 1 \
        and _one_entry(eqn.invars[0]) and _one_entry(eqn.outvars[0])


def conjuncts(cond, test, depth: int = 0) -> list:
    """The tests a while's condition joins with ``&`` (bools), or ``[test]``."""
    while test is not None and depth <= 8 and _same_bool(test):
        test, depth = producer(cond, test.invars[0]), depth + 1  # a bool made a bool again
    if test is None or test.primitive.name != "and" or depth > 8:
        return [test]
    found = []
    for v in test.invars:
        made = producer(cond, v)
        if str(getattr(v.aval, "dtype", "")) != "bool":
            return [None]
        # a bool read as it is (a flag the body carries: "the last step moved") is a test too
        found += [Flag(v)] if made is None else conjuncts(cond, made, depth + 1)
    return found


class Flag:
    """A bool a condition joins with ``&`` as it is (a carry or a constant of the condition),
    standing as one of its tests: no count is read from it."""

    class primitive:  # noqa: N801 - read as an equation's ``primitive.name``
        name = "flag"

    def __init__(self, var):
        self.invars = [var]


def reads_any(cond, tests: list, wanted: set) -> bool:
    """Does one of ``tests`` (equations of the condition ``cond``; None for one not found) read
    a variable whose id is in ``wanted``, directly or through the equations that make its
    operands?"""
    start = [v for t in tests if t is not None for v in t.invars]
    return any(id(var) in wanted for var in _reached(_makers(cond), start))


def _makers(jaxpr) -> dict:
    """The equation that makes each variable of ``jaxpr``, by the variable's id."""
    return {id(v): e for e in jaxpr.eqns for v in e.outvars}


def _reached(made: dict, start: list):
    """Every variable ``start`` reads, through the equations of ``made`` that make them (each
    walked once): ``start`` itself, the operands of their equations, and so on."""
    seen, todo = set(), list(start)
    while todo:
        var = todo.pop()
        yield var
        if id(var) not in seen and id(var) in made:
            seen.add(id(var))
            todo += made[id(var)].invars


def data_free(body, bc: int, known, counters=()) -> set:
    """The carries (their indices among the loop's carries) of whole numbers or bools that
    ``body`` computes only from literals, from its constants whose value is known before the
    loop runs (``known(i)`` for its i-th constant) and from other such carries: a counter
    stepped by one, bits shifted out of a number, a bound passed on unchanged; not one that
    reads a float the loop carries or an array. ``counters``: carries of any type counted among
    them while nothing else makes them leave (a float stepped by a whole number)."""
    made = _makers(body)
    position = {id(v): i for i, v in enumerate(body.invars)}
    free = {k for k, v in enumerate(body.outvars)  # whole numbers and flags: a float is a value
            if str(getattr(v.aval, "dtype", "")).startswith(("int", "uint", "bool"))} | set(counters)
    changed = True
    while changed:
        changed = False
        for k in sorted(free):
            for var in _reached(made, [body.outvars[k]]):
                at = position.get(id(var))  # the loop's inputs: its constants, then its carries
                if at is not None and ((at < bc and not known(at)) or (at >= bc and at - bc not in free)):
                    free.discard(k)
                    changed = True
                    break
    return free
