"""The summary of a traced program that structural rules read, as plain data.

Runs in the worker, on a jaxpr the case runner traced; decides nothing. The walk covers every
nested jaxpr an equation holds (jit, scan/while/cond bodies, custom_jvp/custom_vjp calls, remat),
each distinct jaxpr walked once and its totals reused wherever it is called again, so the cost
is linear in the program's size however often a body is reused. The summary (its shape is in
``protocol``)::

    {"equations": 412,                       # every equation, each call of a body counted
     "primitives": {"dot_general": 6, ...},  # equations per primitive, counted the same way
     "live": {"dot_general": 5, ...},        # the same, over equations the outputs depend on
     "largest": [{"shape": [4096, 4096], "dtype": "float32", "primitive": "dot_general",
                  "line": 7}, ...],
     "omitted": 0,                           # primitives left out past MAX_PRIMITIVE_NAMES
     "lines": {"while": 12, ...},            # each primitive's first line in the submission
     "busiest": [[12, 380], ...],            # the lines that made the most equations, and how many
     "typed": [["dot_general", ["float16", "float16"], ["float16"], 3, 2, 0], ...],
     "typed_omitted": 0, "bent_outputs": 0}  # ``dataflow.bent_outputs``

``typed`` counts the live equations by primitive and dtypes: each distinct (primitive, its
operands' dtypes, its results' dtypes, how many of its operands are data, how many are data
computed in a type other than float16: ``dataflow.widened``) with how many live
equations have them (every call of a body counted), at most ``protocol.MAX_TYPED`` entries,
each dtype list cut at ``protocol.MAX_TYPED_VALUES``; ``typed_omitted`` says how many entries
were left out (rules that read dtypes refuse a summary that left any out). An operand is data
when it is computed from an input array: an input of the program with at least one dimension
(not one of shape ``()``, a constant or a literal), through any equation, nested bodies
included, but not through a decision: ``finite``, a one-hot of labels (by a comparison or
rows of ``jnp.eye(k)``), and what is selected by them from other values is data only as they are; a bool array computed from
floating data is data, since its bits can rebuild the floats (``judge.worker.dataflow``). With ``x``
and ``params`` arrays and ``loss_scale`` of shape ``()``, ``lr * g`` and ``g / loss_scale``
have one data operand, ``x * dz`` two, and so has ``x[i, k] * dz[i, k]``;
``where(finite, loss_scale, loss_scale / 2) * 2.0`` has none.

An equation is live when an output of its jaxpr that is needed depends on it. Inside a call
(jit, checkpoint, custom_jvp/custom_vjp, composite) or a ``cond`` branch the needed outputs are
those the caller uses; inside a loop body, the carries the caller uses and those a step
computes them from, to a fixed point (``loops.loop_needs``); and an input of a call, a ``cond`` or an
``optimization_barrier`` is needed only when what it computes uses it. A ``lax.scan`` whose
result is thrown away, even from inside a jit, or handed to a jit that ignores it, is in
``primitives`` but not in ``live``, and so is one whose step only prints or calls back (an
effect computes nothing the output depends on).

``largest`` holds the values with the most elements (equation outputs and constants), at most
``protocol.MAX_LARGEST``, largest first; the judge recomputes each one's size from its shape.

``line`` (a value's, ``lines``, ``busiest``) is a line of the submission's file (``source``): the
innermost frame of the equation's traceback in that file, so the line of the submission that
called the JAX function which made it (``jax.jacfwd`` for its basis); null where no frame is the
submission's (a constant, an equation of the judge's own derivative code). ``busiest`` lists at
most ``protocol.MAX_BUSIEST`` lines, counted as ``equations`` is.

A program traced with symbolic dims (``symbolic.py``) has no largest value to rank: its summary
lists every distinct shape (with dtype, first maker, ``"rows": true`` where all its values are
scans' stacks read a row a step: ``stacked``), each extent as text (``"d"``, ``"2*d + 1"``), at
most ``protocol.MAX_SHAPES``, and says how many it left out (the judge refuses any left out);
``within`` lists the counts of scans (a symbol's expression, or 0) that hold every value of
that shape, so that a value computed only inside a scan of no trip at some dims (the batches of
``lax.map`` with ``batch_size`` where there are fewer examples than a batch) is not weighed
there::

     "shapes": [{"shape": ["4", "d"], "dtype": "float32", "primitive": "dot_general", "line": 9},
                {"shape": ["4", "t", "s"], "dtype": "float32", "primitive": "dot_general", "line": 12,
                 "within": ["floordiv(b, 4)"]}, ...],
     "shapes_omitted": 0,
     "carriers": ["custom_jvp_call", "pjit", "reduce"]   # primitives that hold a function

``carriers`` names every primitive whose equation holds a jaxpr (a function the submission
wrote, run by that primitive), and ``sort`` with more than one operand. ``picks`` says, for
each dim, how many distinct places of its axes the program picks at indices its text fixes
(or at one unknown read from the data plus numbers its text fixes, ``shifted.py``), and the
line that picks the most (``picks.py``: a loop over the rows written out in Python)::

     "picks": [{"dim": "b", "places": 8, "line": 14}]

``loops`` lists every live ``scan`` and ``while`` (``loops.loop_summary``), a loop before those
its body holds, with the ``line`` of the submission that called it (the ``fori_loop``, ``scan``
or ``while_loop`` call, or ``lax.map``; absent where no frame is the submission's), each held
one naming the index of the loop holding it (``within``) and, where a
``cond`` lies between the two, ``"guarded": true`` (it may run at a few of the holder's trips
only), and ``steps_over`` the dims whose axes its body indexes by its counter
(``loop_index``). A body called at several places (a jitted function called inside a loop and
outside it) is walked once, but its loops are listed at each call, held by the loops holding
that call. At most ``protocol.MAX_LOOPS``; ``"loops_omitted": true`` says that more were left
out::

     "loops": [{"primitive": "scan", "length": "5", "recurrent": true, "work": 14, "line": 9},
               {"primitive": "scan", "length": "2", "recurrent": true, "work": 13, "within": 0},
               {"primitive": "scan", "length": "8", "recurrent": false, "work": 40,
                "steps_over": ["b"]}]
"""

from __future__ import annotations
import math

from . import dataflow, picks, protocol, reach, scan_counts, symbolic as _symbolic
from .jaxapi import sub_jaxprs  # the one walk into nested jaxprs, shared with the instrument
from .loop_list import Listed, listed_loops, reaches
from .loops import constants, is_ref, loop_needs, loop_summary
from .stacked import read_by_rows

#: Primitives whose bodies' outputs are the equation's outputs, one for one: liveness follows
#: which of them the caller needs (a call, and ``cond``'s branches). In any other body (a loop)
#: every output of the body counts as needed.
_FOLLOWS = dataflow.FOLLOWS


def _line(eqn, source: str | None) -> int | None:
    """The line of ``source`` (the submission's file) in ``eqn``'s traceback, innermost first;
    None when no frame is in that file."""
    if source is None:
        return None
    try:
        traceback = eqn.source_info.traceback
        frames = traceback.frames if traceback is not None else ()
        for frame in frames:
            if frame.file_name == source:
                line = int(frame.line_num)
                return line if 1 <= line <= protocol.MAX_SUMMARY_COUNT else None
    except Exception:  # noqa: BLE001 - a traceback of another form: no line
        return None
    return None


def _value(aval, primitive: str):
    """``(elements, entry)`` for one value. A value of more dimensions or larger extents than
    the channel carries is sent as one flat extent (its element count, capped), so that a
    Hessian spread over many axes of extent 1 is still seen whole."""
    shape = getattr(aval, "shape", None)
    if shape is None:
        return None
    try:
        dims = [int(d) for d in shape]
    except Exception:  # noqa: BLE001 - a symbolic dimension: no bound holds for it
        dims = [protocol.MAX_SUMMARY_COUNT]
    size = math.prod(dims)
    if len(dims) > protocol.MAX_SUMMARY_NDIM or any(not 0 <= d <= protocol.MAX_SUMMARY_COUNT for d in dims):
        dims = [min(size, protocol.MAX_SUMMARY_COUNT)]
    return size, {"shape": dims, "dtype": str(getattr(aval, "dtype", "?"))[:protocol.MAX_NAME],
                  "primitive": primitive[:protocol.MAX_NAME]}


#: The extent sent for a shape the channel cannot carry whole (``_shape_entry``).
OVERLONG = "overlong_shape"


def _shape_entry(aval, primitive: str):
    """A value's shape as text, for a program traced with symbolic dims. A shape of more
    extents than the channel carries loses its extents of 1 (they do not change the size: a
    Hessian spread over many axes of extent 1 is still seen whole); one still too long, or an
    extent whose text is longer than a name may be, is sent as the one extent ``OVERLONG``,
    which names no dim, so no bound can hold for it: never cut short, which could read d**2
    as d."""
    shape = getattr(aval, "shape", None)
    if shape is None:
        return None
    texts = [_symbolic.text(d) for d in shape]
    if len(texts) > protocol.MAX_SUMMARY_NDIM:
        texts = [t for t in texts if t != "1"]
    if len(texts) > protocol.MAX_SUMMARY_NDIM or any(len(t) > protocol.MAX_NAME for t in texts):
        texts = [OVERLONG]
    return {"shape": texts, "dtype": str(getattr(aval, "dtype", "?"))[:protocol.MAX_NAME],
            "primitive": primitive[:protocol.MAX_NAME]}


def summarize(closed, symbolic: bool = False, source: str | None = None,
              symbols: dict | None = None, outputs: int | None = None, paths: list | None = None) -> dict:
    """The summary of a ClosedJaxpr (or open Jaxpr) and everything nested in it; with
    ``symbolic``, its distinct shapes as text rather than its largest values. ``source``: the
    submission's file, whose lines the summary names. With ``symbols`` (dim -> [low, high]),
    each recurrent loop's reach over the first ``outputs`` outputs (all where None) is
    measured (``reach``). ``paths``, where given, gets each listed loop's path in ``closed``
    (``reach.path_to``; None for a loop inside another loop's body), in the summary's order."""
    shapes: dict[tuple, dict] = {}
    carriers: set = set()
    first_lines: dict[str, int] = {}    # primitive -> the first line of the submission using it

    def note_shape(aval, primitive: str, line, rows: bool = False, within: tuple = ()) -> None:
        if symbolic:
            entry = _shape_entry(aval, primitive)
            if entry is not None:
                rows = rows and len(entry["shape"]) == len(aval.shape)  # its rows' axis kept
                entry.update(line=line, **({"rows": True} if rows else {}))
                if within:
                    entry["within"] = list(within)
                known = shapes.setdefault((tuple(entry["shape"]), entry["dtype"]), entry)
                if known["line"] is None and line is not None:  # the submission's own maker
                    known.update(primitive=entry["primitive"], line=line)
                if not rows:  # read by rows only where every value of that shape is
                    known.pop("rows", None)
                # inside a loop of that count only where every value of that shape is
                common = [n for n in known.get("within", ()) if n in within]
                if common:
                    known["within"] = common
                else:
                    known.pop("within", None)
    totals: dict[tuple, tuple] = {}     # (id(jaxpr), within) -> (equations, primitives, lines)
    lives: dict[tuple, dict] = {}       # (id(jaxpr), outputs needed) -> live primitives
    backward: dict = {}                 # the same key -> what _backward found
    datas: dict = {}                    # (id(jaxpr), its inputs' levels) -> what dataflow found
    keep: list = []                     # the jaxprs walked, so no id is reused meanwhile
    largest: dict[tuple, tuple[int, dict]] = {}

    def note(found, line=None, within: tuple = ()) -> None:
        if symbolic or "0" in within:  # a value in a loop of no trip is never computed
            return
        if found is not None:
            found[1]["line"] = line
            key = (tuple(found[1]["shape"]), found[1]["dtype"])
            if key not in largest or largest[key][1]["primitive"] == "constant" or (
                    largest[key][1]["line"] is None and line is not None):
                largest[key] = found

    def add(into: dict, counts: dict) -> None:
        for k, v in counts.items():
            into[k] = into.get(k, 0) + v

    def walk(jaxpr, within: tuple = ()) -> tuple[int, dict, dict]:
        """``within``: the counts of the scans holding ``jaxpr``, as text (``scan_counts``)."""
        if (id(jaxpr), within) in totals:
            return totals[(id(jaxpr), within)]
        keep.append(jaxpr)
        equations, primitives, lines = 0, {}, {}
        for var in getattr(jaxpr, "constvars", ()):
            note(_value(var.aval, "constant"), None, within)
            note_shape(var.aval, "constant", None, within=within)
        hoisted = scan_counts.hoisted(jaxpr)
        for eqn in jaxpr.eqns:
            name = eqn.primitive.name
            line = _line(eqn, source)
            equations += 1
            # values only a scan's body reads (its constants: what JAX hoists out of the body)
            made_for = {hoisted.get(id(v)) for v in eqn.outvars}
            here = within if None in made_for or len(made_for) != 1 else scan_counts.joined(within, made_for.pop())
            primitives[name] = primitives.get(name, 0) + 1
            if line is not None:
                lines[line] = lines.get(line, 0) + 1
                first_lines.setdefault(name, line)
            if name == "sort" and len(eqn.invars) > 1:
                carriers.add("sort")
            for var in eqn.outvars:
                note(_value(getattr(var, "aval", None), name), line, here)
                note_shape(getattr(var, "aval", None), name, line, id(var) in rows, here)
            inner = scan_counts.holding(eqn, here)
            for param in eqn.params.values():
                for sub in sub_jaxprs(param):
                    carriers.add(name)
                    n, counts, more = walk(sub, inner)
                    equations += n
                    add(primitives, counts)
                    add(lines, more)
        totals[(id(jaxpr), within)] = (equations, primitives, lines)
        return equations, primitives, lines

    loops_at: dict = {}                 # the same key as ``lives`` -> the loops that walk lists

    def live_walk(jaxpr, wanted, data: tuple, looped: bool = False) -> tuple[dict, list]:
        """The live primitives of ``jaxpr`` and its live loops, as ``loop_list.Listed`` entries whose
        ``within`` is an index into that list (None: held by whatever calls ``jaxpr``). A body
        walked before is not walked again, but the caller lists its loops again: a body called
        at several places (a jitted function called once outside a loop and once inside) has
        its loops listed at each, held by the loops that hold that call."""
        key = (id(jaxpr), wanted, data, looped)
        if key in lives:
            return lives[key], loops_at[key]
        live: dict = {}
        listed: list = []
        producers = None
        found = dataflow.values(jaxpr, data, datas, looped)[0]
        for i, mask in _liveness(jaxpr, wanted, backward).items():
            eqn = jaxpr.eqns[i]
            name = eqn.primitive.name
            live[name] = live.get(name, 0) + 1
            typed = (name, _dtypes(eqn.invars), _dtypes(eqn.outvars),  # a tuple key: see below
                     min(dataflow.operands(eqn, found), protocol.MAX_TYPED_VALUES),
                     min(dataflow.widened(eqn, found), protocol.MAX_TYPED_VALUES))
            live[typed] = live.get(typed, 0) + 1
            bodies = _loop_wants(eqn, mask, backward)
            me = None  # this equation's own entry, where it is a loop
            if name in ("scan", "while") and len(listed) <= protocol.MAX_LOOPS:
                if producers is None:
                    producers = {**fixed, **{id(v): e for e in jaxpr.eqns for v in e.outvars}}
                try:
                    loop = loop_summary(eqn, mask, producers, bodies)
                except Exception:  # noqa: BLE001 - a loop of another form: no recurrence seen
                    loop = {"primitive": name, "length": "?", "recurrent": False}
                if loop is not None:
                    me = len(listed)
                    listed.append(Listed(loop, eqn, None, False))
            inner = dataflow.inner(eqn, found)
            for param in eqn.params.values():
                for sub in sub_jaxprs(param):
                    follows = name in _FOLLOWS and len(sub.outvars) == len(mask)
                    wants = mask if follows else bodies.get(id(sub))
                    sub_live, sub_listed = live_walk(sub, wants, inner(sub), looped or name not in _FOLLOWS)
                    add(live, sub_live)
                    base = len(listed)
                    for entry in sub_listed[:protocol.MAX_LOOPS + 1 - len(listed)]:
                        if entry.within is not None:
                            listed.append(entry._replace(within=base + entry.within))
                        else:  # held by this equation's loop, through a branch where it is a cond
                            listed.append(entry._replace(within=me, guarded=entry.guarded or name == "cond"))
        lives[key] = live
        loops_at[key] = listed
        return live, listed

    top = closed.jaxpr if hasattr(closed, "jaxpr") and hasattr(closed.jaxpr, "eqns") else closed
    fixed = constants(closed)  # the program's whole constants, where a counter may start
    cache: dict = {}  # what the first ``outputs`` (returned; the rest, the judge's derivatives) need
    if symbolic and outputs is not None:
        _backward(top, tuple(i < outputs for i in range(len(top.outvars))), cache)
    rows = read_by_rows(top, set().union(*(e[2] for e in cache.values()))) if symbolic else set()
    equations, primitives, lines = walk(top)
    both, walked = live_walk(top, None, dataflow.input_levels(top.invars))
    loops, loop_eqns = listed_loops(walked)
    for loop, eqn in zip(loops, loop_eqns):  # the line of the submission that wrote the loop
        if (line := _line(eqn, source)) is not None:
            loop["line"] = line
    if paths is not None:
        paths.extend(reach.path_to(top, eqn) for eqn in loop_eqns)
    live = {k: v for k, v in both.items() if isinstance(k, str)}
    typed = sorted(((k, v) for k, v in both.items() if not isinstance(k, str)), key=lambda kv: (-kv[1], kv[0]))
    # largest first; on a tie a floating value (what a student computed) before an index array
    ranked = sorted(largest.values(), key=lambda item: (-item[0], "float" not in item[1]["dtype"]))
    ranked = ranked[:protocol.MAX_LARGEST]
    names = sorted(primitives, key=lambda k: -primitives[k])[:protocol.MAX_PRIMITIVE_NAMES]
    cap = protocol.MAX_SUMMARY_COUNT  # a body reused in nested loops can count past any bound
    found = {"equations": min(equations, cap), "primitives": {k: min(primitives[k], cap) for k in names},
             "live": {k: min(live[k], cap) for k in names if k in live},
             "largest": [entry for _, entry in ranked],
             "omitted": len(primitives) - len(names), "bent_outputs": min(dataflow.bent_outputs(top, outputs, datas), cap),
             "lines": {k: first_lines[k] for k in names if k in first_lines},
             "busiest": [[line, min(n, cap)] for line, n in
                         sorted(lines.items(), key=lambda item: (-item[1], item[0]))[:protocol.MAX_BUSIEST]],
             "typed": [[k[0][:protocol.MAX_NAME], list(k[1]), list(k[2]), min(v, cap), k[3], k[4]]
                       for k, v in typed[:protocol.MAX_TYPED]],
             "typed_omitted": max(0, len(typed) - protocol.MAX_TYPED)}
    if symbolic:
        # the shapes with the most symbolic extents first, so that what is left out (refused
        # anyway) is the least telling
        listed = sorted(shapes.values(), key=lambda e: (-sum(not t.lstrip("-").isdigit() for t in e["shape"]),
                                                        -len(e["shape"]), e["shape"], e["dtype"]))
        found["largest"] = []
        found["shapes"] = listed[:protocol.MAX_SHAPES]
        found["shapes_omitted"] = max(0, len(listed) - protocol.MAX_SHAPES)
        found["carriers"] = sorted(c[:protocol.MAX_NAME] for c in carriers)[:protocol.MAX_PRIMITIVE_NAMES]
        try:
            picked = picks.picks(closed, lambda eqn: _line(eqn, source))
        except Exception:  # noqa: BLE001 - a program of a form not read: nothing seen picked
            picked = {}
        found["picks"] = [{"dim": dim[:protocol.MAX_NAME], "places": min(n, protocol.MAX_SUMMARY_COUNT),
                           **({"line": line} if line is not None else {})}
                          for dim, (n, line) in sorted(picked.items())[:protocol.MAX_PRIMITIVE_NAMES]]
        if symbols is not None and hasattr(closed, "consts"):
            reaches(closed, loops, loop_eqns, symbols, outputs)
    for loop in loops:
        loop.pop("carries", None)
    found["loops"] = loops
    if len(walked) > protocol.MAX_LOOPS:
        found["loops_omitted"] = True
    return found


def _dtypes(variables) -> tuple:
    """The dtypes of an equation's operands or results, in order, as text (at most
    ``protocol.MAX_TYPED_VALUES``; a value without a dtype, such as a token, is left out)."""
    found = []
    for var in variables:
        dtype = getattr(getattr(var, "aval", None), "dtype", None)
        if dtype is not None:
            found.append(str(dtype)[:protocol.MAX_NAME])
    return tuple(found[:protocol.MAX_TYPED_VALUES])


def _liveness(jaxpr, wanted, cache: dict | None = None) -> dict[int, tuple[bool, ...]]:
    """For each equation the ``wanted`` outputs of the jaxpr depend on (None: all of them):
    which of its own outputs are needed. An effect (a print, a callback) does not make an
    equation live: it feeds no output. Nor does an input a call, a ``cond`` or an
    ``optimization_barrier`` receives but does not use for a needed output (a scan's result
    passed to a jit that ignores it)."""
    return _backward(jaxpr, wanted, {} if cache is None else cache)[0]


def _backward(jaxpr, wanted, cache: dict):
    """``_liveness`` and the ids of the jaxpr's variables the wanted outputs need (its inputs
    among them), memoized per (jaxpr, wanted) in ``cache``."""
    key = (id(jaxpr), wanted)
    if key in cache:
        return cache[key][1:]
    outs = jaxpr.outvars if wanted is None else [v for v, w in zip(jaxpr.outvars, wanted) if w]
    needed = {id(v) for v in outs}
    # a ref handed in is memory outside: what is written into it is needed
    needed.update(id(v) for v in jaxpr.invars if is_ref(v))
    live: dict[int, tuple[bool, ...]] = {}
    for i in range(len(jaxpr.eqns) - 1, -1, -1):
        eqn = jaxpr.eqns[i]
        mask = tuple(id(v) in needed for v in eqn.outvars)
        # an equation that writes into a ref something later reads is live (a loop filling a
        # buffer made with jax.new_ref), whatever it returns
        writes = any(is_ref(v) and id(v) in needed for v in eqn.invars)
        if any(mask) or writes:
            if writes:
                mask = tuple(True for _ in eqn.outvars)
            live[i] = mask
            needed.update(id(v) for v in _inputs_needed(eqn, mask, cache))
    cache[key] = (jaxpr, live, needed)  # the jaxpr is kept so that its id is not reused
    return live, needed


def _loop_needs(eqn, mask: tuple, cache: dict):
    """``loops.loop_needs`` with this module's backward walk; None for a loop of another form."""
    def needed_in(jaxpr, wanted: tuple) -> tuple:
        needed = _backward(jaxpr, wanted, cache)[1]
        return tuple(id(v) in needed for v in jaxpr.invars)
    try:
        return loop_needs(eqn, tuple(mask), needed_in)
    except Exception:  # noqa: BLE001 - a loop of another form
        return None


def _loop_wants(eqn, mask, cache: dict) -> dict:
    """id of each body of a loop -> the outputs of it that are needed (none listed: all)."""
    if eqn.primitive.name not in ("scan", "while"):
        return {}
    found = _loop_needs(eqn, mask, cache)
    return {} if found is None else found[0]


def _inputs_needed(eqn, mask: tuple[bool, ...], cache: dict) -> list:
    """The inputs of ``eqn`` its ``mask`` of needed outputs depends on: for a call or a
    ``cond``, those its body (any branch) uses for them; for an ``optimization_barrier``, the
    input of each needed output; otherwise all of them."""
    name = eqn.primitive.name
    invars = list(eqn.invars)
    if name == "optimization_barrier" and len(invars) == len(mask):
        return [v for v, m in zip(invars, mask) if m]
    if name in ("scan", "while"):
        found = _loop_needs(eqn, mask, cache)
        return invars if found is None else found[1]
    if name not in _FOLLOWS:
        return invars
    bodies = [sub for param in eqn.params.values() for sub in sub_jaxprs(param)]
    operands = invars[1:] if name == "cond" else invars  # a cond's first input is its index
    if not bodies or any(len(b.invars) != len(operands) or len(b.outvars) != len(mask) for b in bodies):
        return invars
    used = [False] * len(operands)
    for body in bodies:
        needed = _backward(body, mask, cache)[1]
        used = [u or id(v) in needed for u, v in zip(used, body.invars)]
    return invars[:len(invars) - len(operands)] + [v for v, u in zip(operands, used) if u]
