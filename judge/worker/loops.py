"""What one live ``scan`` or ``while`` loop of a traced program does (``loop_summary``): its
length (a dim's text, a number, or ``"?"``) and whether it is a recurrence, for the summary
``program.summarize`` makes. Read by the rules on loops (``required_primitives``' recurrence,
``no_unrolling``)."""

from __future__ import annotations

import math
from fractions import Fraction

from . import jaxapi as _jaxapi, loop_index, loop_tests, protocol, symbolic as _symbolic
from .loop_steps import fraction, literal, step as counter_step, whole, whole_dtype
from .loop_tests import producer as _producer


def is_ref(var) -> bool:
    """Is ``var`` a mutable ref (``jax.new_ref``)?"""
    aval = getattr(var, "aval", None)
    return aval is not None and (type(aval).__name__ == "AbstractRef" or hasattr(aval, "inner_aval"))


def _inexact(var) -> bool:
    return "float" in str(getattr(getattr(var, "aval", None), "dtype", "")) or \
        "complex" in str(getattr(getattr(var, "aval", None), "dtype", ""))


def _dependencies(body) -> tuple[dict, dict]:
    """For each variable of ``body``, the positions of the body's inputs it depends on; and for
    each ref input, the positions of the inputs of what is written into it. A nested body
    counts as depending on all its inputs."""
    deps = {id(v): {i} for i, v in enumerate(body.invars)}
    written: dict = {}
    for eqn in body.eqns:
        found = set()
        for v in eqn.invars:
            found |= deps.get(id(v), set())
        for v in eqn.invars:
            if is_ref(v) and id(v) in deps:
                written.setdefault(id(v), set()).update(found)
        for v in eqn.outvars:
            deps[id(v)] = set(found)
    return deps, written


def loop_summary(eqn, mask, producers: dict, wants: dict | None = None) -> dict | None:
    """What one live scan or while loop does: its length (a dim's text, a number, or ``"?"``)
    and whether it is a recurrence: a floating carry whose next value is computed (not
    copied) from the carries and from data (the scanned rows or the loop's constants), and
    that reaches what the caller needs (the final carry, a scanned output, or a ref written).
    ``carries``: the positions, among the body's inputs, of the recurrent carries (for
    ``reach``; not part of the summary sent). ``wants``: id of the body -> which of its outputs
    the caller needs (``loop_needs``), what ``work`` counts; all of them where not given."""
    name = eqn.primitive.name
    params = eqn.params
    if name == "scan":
        body = params["jaxpr"].jaxpr
        consts, ncarry = _jaxapi.scan_layout(params, len(eqn.invars))
        length = _symbolic.text(params["length"])
        carry_in = list(range(consts, consts + ncarry))
        data = set(range(consts)) | set(range(consts + ncarry, len(body.invars)))
        outs = list(body.outvars)
        counters: set = set()
    elif name == "while":
        body = params["body_jaxpr"].jaxpr
        consts = params["body_nconsts"]
        ncarry = len(body.invars) - consts
        carry_in = list(range(consts, consts + ncarry))
        data = set(range(consts))
        outs = list(body.outvars)
        length, counters = _while_length(eqn, producers)
        counters = {consts + k for k in counters}
    else:
        return None
    deps, written = _dependencies(body)
    carry_vars = {id(body.invars[i]) for i in carry_in}
    recurrent = set()
    for k, out in enumerate(outs[:ncarry]):
        position = carry_in[k]
        if position in counters or not _inexact(out) or id(out) in carry_vars:
            continue  # a counter, an integer carry, or a carry copied as it is
        got = deps.get(id(out), set())
        if got & set(carry_in) and got & data:
            recurrent.add(position)
    reaches = False
    for k, out in enumerate(outs):
        needed = k >= len(mask) or mask[k]
        if not needed:
            continue
        if k < ncarry and carry_in[k] in recurrent:
            reaches = True
        elif k >= ncarry and deps.get(id(out), set()) & recurrent:
            reaches = True
    for ref, got in written.items():
        if got & recurrent:
            reaches = True
    if len(length) > protocol.MAX_NAME:
        length = "?"  # cut, a count would read as another
    found = {"primitive": name, "length": length,
             "recurrent": bool(recurrent) and reaches, "work": min(work(body, (wants or {}).get(id(body))), protocol.MAX_SUMMARY_COUNT),
             "carries": sorted(recurrent)}
    try:
        over = loop_index.steps_over(body, set(range(consts, len(body.invars))))
    except Exception:  # noqa: BLE001 - a body of a form not read: nothing seen indexed
        over = []
    if over:
        found["steps_over"] = over[:protocol.MAX_PRIMITIVE_NAMES]
    return found


def work(body, wanted: tuple | None = None) -> int:
    """The equations one trip of a loop runs itself: those of ``body`` its results need (those
    of ``wanted``, where given: a carry the output never needs computes nothing), each
    nested call's or branch's body counted whole, a nested ``scan`` or ``while`` counted as
    one equation (its body is a loop of its own, listed and weighed on its own: counted in, a
    loop of K trips holding a fixed loop that runs the steps would pass for the loop of the
    steps)."""
    needed = {id(v) for k, v in enumerate(body.outvars) if wanted is None or k >= len(wanted) or wanted[k]}
    count = 0
    for eqn in reversed(body.eqns):
        if not any(id(v) in needed for v in eqn.outvars):
            continue
        count += _one(eqn)
        needed.update(id(v) for v in eqn.invars)
    return count


def _one(eqn) -> int:
    """An equation and, unless it is a loop, the bodies it holds."""
    if eqn.primitive.name in ("scan", "while"):
        return 1
    return 1 + sum(_all(sub) for p in eqn.params.values() for sub in _jaxapi.sub_jaxprs(p))


def _all(jaxpr) -> int:
    return sum(_one(e) for e in jaxpr.eqns)


def _while_length(eqn, producers: dict) -> tuple[str, set]:
    """How many times a while loop runs, where its condition and its body say so: the
    condition one comparison of a carry ``i`` (the counter) with a bound (``i < n``,
    ``i <= n``, ``i > n``, ``i >= n``, either way round, or ``i != n`` for a counter stepping by
    one), the body's ``i`` the carry plus or minus a literal step and nothing else, ``i``'s
    start and the bound numbers or dims' values known before the loop runs (a literal, a whole
    constant the program holds (``constants``: a module-level ``jnp.int32(0)``), ``dim_as_value``
    of a dim, sums and products of them, or a carry passed on unchanged that starts at one).
    ``fori_loop(k, T, ...)`` with a symbolic bound is such a loop (``T - k``), and so is
    ``while i < K`` with a Python int K or a hand-written counter over a dim. The count's text (``T``, ``T - 1``, ``5``) and the
    carries ``{i, n}`` (``n`` when it is a carry); else ``"?"`` and no counter: the count is
    data, or the loop of a form not read.

    A condition that is several tests joined by ``&`` runs while all of them hold: where every
    test is read and the counts are numbers, the count is the least of them; where some test
    is read and another is data (``(i < K) & (moved > 1e-3)``, a loop that may stop early),
    the count is at most the least count read, written ``<=5``; but where a test not read
    reads a carry that the body computes from nothing the loop's values move
    (``loop_tests.data_free``: a counter, as in ``(i < K) & (i < n)`` with ``n`` computed from an
    array; bits shifted out of K), the count is data: the loop stops where something decided
    before it runs says so, not where a value it computes does."""
    params = eqn.params
    cond = params["cond_jaxpr"].jaxpr
    test = _producer(cond, cond.outvars[0]) if len(cond.outvars) == 1 else None
    tests = loop_tests.conjuncts(cond, test)
    read = [_test_count(eqn, t, producers) for t in tests]
    counts = [c for c, _ in read if c is not None]
    body, cc, bc = params["body_jaxpr"].jaxpr, params["cond_nconsts"], params["body_nconsts"]
    outer = list(eqn.invars)
    free = loop_tests.data_free(body, bc, lambda at: _known(outer[cc + at], producers) is not None,
                                {k for k, out in enumerate(body.outvars) if counter_step(body, body.invars[bc + k], out)})
    if not counts or loop_tests.reads_any(cond, [t for t, (c, _) in zip(tests, read) if c is None],
                                          {id(cond.invars[cc + k]) for k in free}):
        return "?", set()  # no test read, or one not read reads what no value of the loop moves
    counters = set().union(*(k for c, k in read if c is not None))
    if len(counts) == 1 and len(tests) == 1:
        return _symbolic.text(counts[0]), counters
    numbers = [c for c in counts if isinstance(c, int)]
    if not numbers and len(counts) > 1:
        return "?", set()  # several bounds over dims: which is least depends on the extents
    least = min(numbers) if numbers else counts[0]
    exact = len(counts) == len(tests) and len(numbers) == len(counts)
    return ("" if exact else "<=") + _symbolic.text(least), counters


def _test_count(eqn, test, producers: dict) -> tuple:
    """One comparison of a while's condition read as a count (``_while_length``): ``(count,
    counters)``, or ``(None, set())`` where it is not read. Either side may be a sum or
    difference of the counter and values known before the loop (``i + 1 <= K``,
    ``K - i > 0``), and a carry the body passes on unchanged is the value it starts at."""
    params = eqn.params
    cond, body = params["cond_jaxpr"].jaxpr, params["body_jaxpr"].jaxpr
    cc, bc = params["cond_nconsts"], params["body_nconsts"]
    if test is None or test.primitive.name not in _FLIPPED or len(test.invars) != 2:
        return None, set()
    carry = {id(v): i - cc for i, v in enumerate(cond.invars) if i >= cc}
    outer = list(eqn.invars)
    inner = {id(v): e for e in cond.eqns for v in e.outvars}
    consts = {id(v): outer[i] for i, v in enumerate(cond.invars[:cc])}

    def side(var, depth=0):
        """``({carry: coefficient}, known part)`` of one side, or None."""
        if id(var) in carry:
            return {carry[id(var)]: 1}, 0
        known = _known(var, inner, consts, producers)
        if known is not None:
            return {}, known
        if literal(var) and (half := fraction(var.val)) is not None:
            return {}, half  # a bound between whole numbers: ``t > 0.5`` on a float counter
        made = inner.get(id(var))
        if made is None or depth > 8:
            return None
        if (made.primitive.name == "convert_element_type" and whole_dtype(made)) \
                or loop_tests.one_entry(made):
            return side(made.invars[0], depth + 1)
        if made.primitive.name not in ("add", "sub") or len(made.invars) != 2:
            return None
        x, y = side(made.invars[0], depth + 1), side(made.invars[1], depth + 1)
        if x is None or y is None:
            return None
        sign = 1 if made.primitive.name == "add" else -1
        terms = dict(x[0])
        for k, c in y[0].items():
            terms[k] = terms.get(k, 0) + sign * c
        total = _plus(x[1], sign, y[1])
        return None if total is None else (terms, total)

    left, right = side(test.invars[0]), side(test.invars[1])
    if left is None or right is None:
        return None, set()
    terms = dict(left[0])  # left - right, compared with 0
    for k, c in right[0].items():
        terms[k] = terms.get(k, 0) - c
    rest = _plus(left[1], -1, right[1])
    if rest is None:
        return None, set()
    moving, fixed = [], set()
    for k, c in terms.items():
        if c == 0:
            continue
        if body.outvars[k] is body.invars[bc + k]:  # a carry the loop never changes
            value = _known(outer[cc + bc + k], producers)
            if value is None:
                return None, set()
            rest, fixed = _plus(rest, c, value), fixed | {k}
            if rest is None:
                return None, set()
        else:
            moving.append((k, c))
    if len(moving) != 1 or moving[0][1] not in (1, -1):
        return None, set()
    a, sign = moving[0]
    relation = test.primitive.name
    # i + rest REL 0: i REL -rest; -i + rest REL 0: i FLIPPED rest
    bound, relation = (0 - rest, relation) if sign == 1 else (rest, _FLIPPED[relation])
    if isinstance(bound, Fraction):
        # a whole counter (its start and step are whole) against a bound between whole
        # numbers: ``i < 2.5`` is ``i <= 2``, ``i > 0.5`` is ``i >= 1``; it never equals one
        if bound.denominator == 1:
            bound = int(bound)
        elif relation == "ne":
            return None, set()
        elif relation in ("lt", "le"):
            bound, relation = math.floor(bound), "le"
        else:
            bound, relation = math.ceil(bound), "ge"
    start = _known(outer[cc + bc + a], producers)

    def passed(var):
        """The value of a constant of the body (one of its first ``bc`` inputs) where what the
        loop is passed for it is known before the loop runs (a literal, a constant)."""
        at = next((i for i, v in enumerate(body.invars[:bc]) if v is var), None)
        return None if at is None else _known(outer[cc + at], producers)
    step = counter_step(body, body.invars[bc + a], body.outvars[a], passed)
    if start is None or not step:
        return None, set()
    if relation == "ne" and step in (1, -1):
        # until the counter meets the bound, one by one (a bound behind it is never met: the
        # loop does not end, and its count is never needed)
        count = (bound - start) * step
        return (max(count, 0) if isinstance(count, int) else count), {a} | fixed
    if relation in ("lt", "le") and step > 0:
        span, by, closed = bound - start, step, relation == "le"
    elif relation in ("gt", "ge") and step < 0:
        span, by, closed = start - bound, -step, relation == "ge"
    else:
        return None, set()  # a counter moving away from its bound, or a bound not reached
    count = span // by + 1 if closed else (span + by - 1) // by
    if isinstance(count, int):
        count = max(count, 0)
    return count, {a} | fixed


#: a comparison, and what it is with its operands swapped
_FLIPPED = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "ne": "ne"}
#: how a value known before the loop may be computed from others
_ARITHMETIC = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y}


def _known(var, producers: dict, consts: dict | None = None, outer: dict | None = None, depth: int = 0):
    """The value of ``var`` where it is known without running anything: an int, or a dim's
    symbolic expression; else None. ``producers``: id -> equation of the jaxpr ``var`` is in;
    ``consts``: id of a constant of that jaxpr -> what the caller passed for it, read in
    ``outer`` (the caller's producers)."""
    if depth > 16:
        return None
    if literal(var):
        return whole(var.val)
    if consts and id(var) in consts:
        return _known(consts[id(var)], outer or {}, None, None, depth + 1)
    made = producers.get(id(var))
    if isinstance(made, Constant):
        return made.value
    if made is None:
        return None
    name = made.primitive.name
    if name == "dim_as_value":
        return made.params.get("dim")
    if (name == "convert_element_type" and whole_dtype(made)) or loop_tests.one_entry(made):
        return _known(made.invars[0], producers, consts, outer, depth + 1)
    if name in _ARITHMETIC and len(made.invars) == 2:
        x, y = (_known(v, producers, consts, outer, depth + 1) for v in made.invars)
        return None if x is None or y is None else _ARITHMETIC[name](x, y)
    return None


class Constant:
    """A whole number of shape () that a traced program holds as a constant (``constants``)."""

    __slots__ = ("value",)

    def __init__(self, value: int):
        self.value = value


def constants(closed) -> dict:
    """``id`` of each constant of ``closed`` and of every closed jaxpr nested in it (a jit's,
    a branch's) whose value is a whole number of shape () -> its ``Constant``: a module-level
    ``jnp.int32(0)`` the submission starts a counter at. A constant is fixed when the program
    is traced: nothing computed from an input (``W``, ``u0``) is one. Merged into the
    producers ``loop_summary`` is given, where ``_known`` reads it."""
    found: dict = {}
    seen: set = set()
    pending = [closed]
    while pending:
        value = pending.pop()
        if isinstance(value, (tuple, list)):
            pending.extend(value)
            continue
        jaxpr = value if hasattr(value, "eqns") else getattr(value, "jaxpr", None)
        if not hasattr(jaxpr, "eqns") or id(jaxpr) in seen:
            continue
        seen.add(id(jaxpr))
        for var, const in zip(jaxpr.constvars, getattr(value, "consts", None) or ()):
            try:
                number = whole(const)
            except Exception:  # noqa: BLE001 - not a concrete number: not known
                number = None
            if number is not None:
                found[id(var)] = Constant(number)
        for eqn in jaxpr.eqns:
            pending.extend(eqn.params.values())
    return found


def _plus(x, sign: int, y):
    """``x + sign * y``, None where a fraction (``fraction``) meets a dim's expression."""
    if (isinstance(x, Fraction) or isinstance(y, Fraction)) and not all(
            isinstance(v, (int, Fraction)) for v in (x, y)):
        return None
    return x + sign * y


def loop_needs(eqn, mask: tuple, needed_in) -> tuple[dict, list] | None:
    """Which carries of a live ``scan`` or ``while`` the outputs in ``mask`` need, to a fixed
    point: a carry is needed when a needed output is it, or when the step computes a needed
    carry from it (and a while loop's condition needs its own carries). Returns ``(id of each
    body -> the outputs of it that are needed, the equation's inputs that are needed)``, or None
    for another equation. ``needed_in(jaxpr, wanted)``: which inputs of ``jaxpr`` its
    ``wanted`` outputs need (a tuple of bools). A ref among the carries or the constants is
    memory: always needed."""
    name, params, invars = eqn.primitive.name, eqn.params, list(eqn.invars)
    if name == "scan":
        body = params["jaxpr"].jaxpr
        consts, ncarry = _jaxapi.scan_layout(params, len(invars))
        carries = [bool(m) for m in mask[:ncarry]]
        ys = tuple(bool(m) for m in mask[ncarry:])
        while True:
            used = needed_in(body, tuple(carries) + ys)
            more = [c or u for c, u in zip(carries, used[consts:consts + ncarry])]
            if more == carries:
                break
            carries = more
        keep = [u or is_ref(v) for u, v in zip(used, invars)]
        keep[consts:consts + ncarry] = [c or is_ref(v) for c, v in zip(carries, invars[consts:consts + ncarry])]
        return {id(body): tuple(carries) + ys}, [v for v, k in zip(invars, keep) if k]
    if name == "while":
        cond, body = params["cond_jaxpr"].jaxpr, params["body_jaxpr"].jaxpr
        cc, bc = params["cond_nconsts"], params["body_nconsts"]
        on_cond = needed_in(cond, (True,))
        carries = [bool(m) or c for m, c in zip(mask, on_cond[cc:])]
        while True:
            used = needed_in(body, tuple(carries))
            more = [c or u for c, u in zip(carries, used[bc:])]
            if more == carries:
                break
            carries = more
        keep = list(on_cond[:cc]) + list(used[:bc]) + carries
        keep = [k or is_ref(v) for k, v in zip(keep, invars)]
        return {id(body): tuple(carries), id(cond): (True,)}, [v for v, k in zip(invars, keep) if k]
    return None
