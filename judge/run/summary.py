"""The summary of a traced program as the rules read it: the worker's ``program`` field
(``judge.worker.program``) checked field by field and made typed, frozen reports. Values of a
program traced at concrete shapes, and the distinct shapes, loops and function-carrying
primitives of one traced with symbolic dims.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from judge.run.fields import boolean as _bool, fail as _fail, integer as _int, keys as _keys, obj as _object, text as _text
from judge.worker import protocol, symbolic


@dataclass(frozen=True)
class Value:
    """One value of a traced program (``judge.worker.program``); its size is computed here."""

    shape: tuple[int, ...]
    dtype: str
    primitive: str           # the primitive that made it, or "constant"
    line: int | None = None  # the line of the submission that made it, where known

    @property
    def size(self) -> int:
        return math.prod(self.shape)


@dataclass(frozen=True)
class SymbolicValue:
    """One distinct shape of a program traced with symbolic dims; the rules read its extents
    (``judge.rules.polynomial``)."""

    shape: tuple[str, ...]
    dtype: str
    primitive: str
    line: int | None = None  # the line of the submission that made it, where known
    #: a scan's stacked output that the program reads one row a step only
    #: (``judge.worker.stacked``): every value of this shape is
    rows: bool = False
    #: the counts of the scans that hold every value of this shape (``floordiv(b, 4)``): where
    #: one of them is 0, no value of this shape is computed
    within: tuple[str, ...] = ()


@dataclass(frozen=True)
class Loop:
    """One live loop of a program traced with symbolic dims (``judge.worker.program``)."""

    primitive: str       # "scan" or "while"
    length: str          # a dim's text ("T"), a number, or "?"
    recurrent: bool      # its carry at step t+1 is computed from step t's and reaches the output
    #: how much of the output its recurrence reaches element by element (``judge.worker.reach``),
    #: None where not measured
    reach: Reach | None = None
    work: int = 0        # the equations one trip runs (``judge.worker.loops.work``)
    #: the index, among the program's loops, of the loop whose body holds this one; None at the top
    within: int | None = None
    #: a ``cond`` lies between this loop and the one holding it: it may run at some of that
    #: loop's trips only
    guarded: bool = False
    #: the dims whose axes its body indexes by a value that changes from trip to trip (its
    #: counter: ``judge.worker.loop_index``)
    steps_over: tuple = ()
    #: the line of the submission that called the loop (``fori_loop``, ``scan``, ``while_loop``),
    #: where known
    line: int | None = None


@dataclass(frozen=True)
class Picked:
    """The places of a dim's axes a program picks at indices fixed in its text
    (``judge.worker.picks``): how many distinct ones, and the line of the submission that picks
    the most of them, where known."""

    places: int
    line: int | None = None


@dataclass(frozen=True)
class Reach:
    """The elements of the output a loop's recurrent carries reach, each by an element of its
    own, measured with the symbolic dims at ``at``."""

    reached: int
    outputs: int         # the output's floating elements
    steps: int           # the steps the loop ran
    at: Mapping[str, int]
    #: the elements the program's recurrent loops of this loop's length reach together, each
    #: by an element of its own of one of them (``judge.worker.loop_list``): at least ``reached``
    together: int = 0


@dataclass(frozen=True)
class Program:
    """The summary of a program traced without running it, which structural rules read."""

    equations: int
    primitives: Mapping[str, int]    # primitive name -> equations
    largest: tuple[Value, ...]       # the values with the most elements, largest first
    live: Mapping[str, int] = field(default_factory=dict)  # primitive name -> equations the outputs need
    omitted: int = 0                 # distinct primitives left out of ``primitives``
    #: traced with symbolic dims: every distinct shape, extents as text ("d", "2*d + 1")
    shapes: tuple[SymbolicValue, ...] = ()
    shapes_omitted: int = 0          # distinct shapes left out of ``shapes``
    carriers: tuple[str, ...] = ()   # primitives that hold a function (a jaxpr), multi-operand sort
    symbolic: bool = False           # traced with symbolic dims
    loops: tuple[Loop, ...] = ()     # every live scan and while loop (read by the loop rules)
    loops_omitted: bool = False      # more live loops than ``loops`` lists
    #: primitive name -> the first line of the submission that made one of its equations
    lines: Mapping[str, int] = field(default_factory=dict)
    #: (line, equations) for the submission's lines that made the most equations, most first
    busiest: tuple[tuple[int, int], ...] = ()
    #: live equations by primitive and dtypes: (primitive, operand dtypes, result dtypes, data
    #: operands) -> count
    typed: Mapping[tuple, int] = field(default_factory=dict)
    typed_omitted: int = 0           # distinct (primitive, dtypes) left out of ``typed``
    #: traced with symbolic dims: dim name -> how many distinct places of its axes the program
    #: picks at indices fixed in its text (``judge.worker.picks``), and the line that picks most
    picks: Mapping[str, Picked] = field(default_factory=dict)
    #: returned values bent out of the data in a type wider than float16 (``judge.worker.bent``)
    bent_outputs: int = 0


#: Programs decoded, by a digest of their summary's JSON text, at most ``MEMO_SIZE``
#: (``program``).
_decoded: dict[bytes, Program] = {}
MEMO_SIZE = 256


def program(raw, where: str) -> Program:
    """The ``Program`` of a worker's summary ``raw`` (parsed JSON); ProtocolError naming the
    field, under ``where``, when it is not one. A worker sends the summary of a program with
    each case that ran it, the same text for every case of the key: a summary decoded already,
    by this very text, is that decoding (a ``Program`` is frozen), not a second one."""
    try:
        key = hashlib.blake2b(json.dumps(raw, separators=(",", ":")).encode(), digest_size=32).digest()
    except (TypeError, ValueError, RecursionError):
        key = None
    found = _decoded.get(key) if key is not None else None
    if found is not None:
        return found
    decoded = _program(raw, where)
    if key is not None:
        if len(_decoded) >= MEMO_SIZE:
            _decoded.clear()
        _decoded[key] = decoded
    return decoded


def _program(raw, where: str) -> Program:
    msg = _object(raw, where)
    _keys(msg, where, ("equations", "primitives", "live", "largest"),
          ("omitted", "shapes", "shapes_omitted", "carriers", "loops", "loops_omitted", "lines",
           "busiest", "typed", "typed_omitted", "picks", "bent_outputs"))
    primitives, live = (_counts(msg[key], f"{where}.{key}") for key in ("primitives", "live"))
    largest = msg["largest"]
    if not isinstance(largest, list) or len(largest) > protocol.MAX_LARGEST:
        _fail(f"{where}.largest", f"expected a list of at most {protocol.MAX_LARGEST} values")
    values = []
    for i, item in enumerate(largest):
        here = f"{where}.largest[{i}]"
        item = _object(item, here)
        _keys(item, here, ("shape", "dtype", "primitive"), ("line",))
        shape = item["shape"]
        if not isinstance(shape, list) or len(shape) > protocol.MAX_SUMMARY_NDIM:
            _fail(f"{here}.shape", f"expected a list of at most {protocol.MAX_SUMMARY_NDIM} extents")
        values.append(Value(shape=tuple(_int(d, f"{here}.shape", 0, protocol.MAX_SUMMARY_COUNT) for d in shape),
                            dtype=_text(item["dtype"], f"{here}.dtype", protocol.MAX_NAME),
                            primitive=_text(item["primitive"], f"{here}.primitive", protocol.MAX_NAME),
                            line=_line(item.get("line"), f"{here}.line")))
    values.sort(key=lambda v: -v.size)  # the judge orders them, whatever the worker sent
    symbolic = "shapes" in msg
    shapes = _symbolic_shapes(msg["shapes"], f"{where}.shapes") if symbolic else ()
    carriers = msg.get("carriers", [])
    if not isinstance(carriers, list) or len(carriers) > protocol.MAX_PRIMITIVE_NAMES:
        _fail(f"{where}.carriers", "expected a list of primitive names")
    return Program(equations=_int(msg["equations"], f"{where}.equations", 0, protocol.MAX_SUMMARY_COUNT),
                   primitives=MappingProxyType(primitives), largest=tuple(values),
                   live=MappingProxyType(live),
                   omitted=_int(msg.get("omitted", 0), f"{where}.omitted"),
                   shapes=shapes, symbolic=symbolic,
                   shapes_omitted=_int(msg.get("shapes_omitted", 0), f"{where}.shapes_omitted"),
                   carriers=tuple(_text(c, f"{where}.carriers", protocol.MAX_NAME) for c in carriers),
                   loops=_loops(msg.get("loops", []), f"{where}.loops"),
                   loops_omitted=_bool(msg.get("loops_omitted", False), f"{where}.loops_omitted"),
                   lines=MappingProxyType(_lines(msg.get("lines", {}), f"{where}.lines")),
                   busiest=_busiest(msg.get("busiest", []), f"{where}.busiest"),
                   typed=MappingProxyType(_typed(msg.get("typed", []), f"{where}.typed")),
                   typed_omitted=_int(msg.get("typed_omitted", 0), f"{where}.typed_omitted"),
                   picks=MappingProxyType(_picks(msg.get("picks", []), f"{where}.picks")),
                   bent_outputs=_int(msg.get("bent_outputs", 0), f"{where}.bent_outputs"))


def _picks(raw, where: str) -> dict:
    """dim name -> ``Picked``, from a list of at most MAX_PRIMITIVE_NAMES entries."""
    if not isinstance(raw, list) or len(raw) > protocol.MAX_PRIMITIVE_NAMES:
        _fail(where, f"expected a list of at most {protocol.MAX_PRIMITIVE_NAMES} dims")
    found = {}
    for i, item in enumerate(raw):
        here = f"{where}[{i}]"
        item = _object(item, here)
        _keys(item, here, ("dim", "places"), ("line",))
        (dim,) = _dim_names([item["dim"]], f"{here}.dim")
        found[dim] = Picked(places=_int(item["places"], f"{here}.places", 0, protocol.MAX_SUMMARY_COUNT),
                            line=_line(item.get("line"), f"{here}.line"))
    return found


def _line(raw, where: str) -> int | None:
    """A line of the submission, or None."""
    return None if raw is None else _int(raw, where, 1, protocol.MAX_SUMMARY_COUNT)


def _lines(raw, where: str) -> dict:
    lines = _object(raw, where)
    if len(lines) > protocol.MAX_PRIMITIVE_NAMES:
        _fail(where, f"more than {protocol.MAX_PRIMITIVE_NAMES} primitives")
    return {_text(k, where, protocol.MAX_NAME): _int(v, where, 1, protocol.MAX_SUMMARY_COUNT)
            for k, v in lines.items()}


def _busiest(raw, where: str) -> tuple:
    if not isinstance(raw, list) or len(raw) > protocol.MAX_BUSIEST:
        _fail(where, f"expected a list of at most {protocol.MAX_BUSIEST} lines")
    found = []
    for i, item in enumerate(raw):
        if not isinstance(item, list) or len(item) != 2:
            _fail(f"{where}[{i}]", "expected [line, equations]")
        found.append((_int(item[0], f"{where}[{i}]", 1, protocol.MAX_SUMMARY_COUNT),
                      _int(item[1], f"{where}[{i}]", 0, protocol.MAX_SUMMARY_COUNT)))
    return tuple(found)


def _typed(raw, where: str) -> dict:
    """``typed``: [primitive, [operand dtypes], [result dtypes], count, data operands,
    widened operands] entries (the last optional: 0), each (primitive, dtypes, data operands,
    widened operands) once."""
    if not isinstance(raw, list) or len(raw) > protocol.MAX_TYPED:
        _fail(where, f"expected a list of at most {protocol.MAX_TYPED} entries")
    found: dict = {}
    for i, item in enumerate(raw):
        here = f"{where}[{i}]"
        if not isinstance(item, list) or len(item) not in (5, 6) or not all(
                isinstance(side, list) and len(side) <= protocol.MAX_TYPED_VALUES for side in item[1:3]):
            _fail(here, "expected [primitive, [operand dtypes], [result dtypes], count, data operands, "
                        "widened operands]")
        key = (_text(item[0], here, protocol.MAX_NAME),
               tuple(_text(d, here, protocol.MAX_NAME) for d in item[1]),
               tuple(_text(d, here, protocol.MAX_NAME) for d in item[2]),
               _int(item[4], here, 0, protocol.MAX_TYPED_VALUES),
               _int(item[5] if len(item) == 6 else 0, here, 0, protocol.MAX_TYPED_VALUES))
        if key in found:
            _fail(here, "the same primitive, dtypes and data operands twice")
        found[key] = _int(item[3], here, 1, protocol.MAX_SUMMARY_COUNT)
    return found


def _extents(shape, where: str) -> tuple:
    """A shape as text: at most MAX_SUMMARY_NDIM extents, each a number or a symbolic
    expression of at most MAX_NAME characters."""
    if not isinstance(shape, list) or len(shape) > protocol.MAX_SUMMARY_NDIM:
        _fail(where, f"expected a shape of at most {protocol.MAX_SUMMARY_NDIM} extents")
    extents = tuple(_text(e, where, protocol.MAX_NAME) for e in shape)
    if any(not e or set(e) - symbolic.ALLOWED for e in extents):
        _fail(where, "an extent must be a number or a symbolic expression")
    return extents


def _loops(raw, where: str) -> tuple:
    if not isinstance(raw, list) or len(raw) > protocol.MAX_LOOPS:
        _fail(where, f"expected a list of at most {protocol.MAX_LOOPS} loops")
    found = []
    for i, item in enumerate(raw):
        here = f"{where}[{i}]"
        item = _object(item, here)
        _keys(item, here, ("primitive", "length", "recurrent"),
              ("reach", "work", "within", "guarded", "steps_over", "line"))
        found.append(Loop(primitive=_text(item["primitive"], f"{here}.primitive", protocol.MAX_NAME),
                          length=_text(item["length"], f"{here}.length", protocol.MAX_NAME),
                          recurrent=_bool(item["recurrent"], f"{here}.recurrent"), reach=_reach(item.get("reach"), f"{here}.reach"),
                          work=_int(item.get("work", 0), f"{here}.work", 0, protocol.MAX_SUMMARY_COUNT),
                          # an earlier loop: the walk lists a loop before those its body holds
                          within=None if item.get("within") is None
                          else _int(item["within"], f"{here}.within", 0, i - 1),
                          guarded=_bool(item.get("guarded", False), f"{here}.guarded"),
                          steps_over=_dim_names(item.get("steps_over", []), f"{here}.steps_over"),
                          line=_line(item.get("line"), f"{here}.line")))
    return tuple(found)


def _dim_names(raw, where: str) -> tuple:
    """A list of at most MAX_PRIMITIVE_NAMES dim names, each an identifier."""
    if not isinstance(raw, list) or len(raw) > protocol.MAX_PRIMITIVE_NAMES:
        _fail(where, f"expected a list of at most {protocol.MAX_PRIMITIVE_NAMES} dim names")
    names = tuple(_text(e, where, protocol.MAX_NAME) for e in raw)
    if any(not e.isidentifier() or not e.isascii() for e in names):
        _fail(where, "a dim name must be an identifier")
    return names


def _reach(raw, where: str) -> Reach | None:
    if raw is None:
        return None
    item = _object(raw, where)
    _keys(item, where, ("reached", "outputs", "steps", "at"), ("together",))
    at = _object(item["at"], f"{where}.at")
    if len(at) > protocol.MAX_PRIMITIVE_NAMES:
        _fail(f"{where}.at", "too many dims")
    outputs = _int(item["outputs"], f"{where}.outputs", 0, protocol.MAX_SUMMARY_COUNT)
    reached = _int(item["reached"], f"{where}.reached", 0, outputs)
    return Reach(reached=reached, outputs=outputs,
                 together=_int(item.get("together", reached), f"{where}.together", reached, outputs),
                 steps=_int(item["steps"], f"{where}.steps", 0, protocol.MAX_SUMMARY_COUNT),
                 at=MappingProxyType({_text(k, f"{where}.at", protocol.MAX_NAME):
                                      _int(v, f"{where}.at", 0, protocol.MAX_SUMMARY_COUNT)
                                      for k, v in at.items()}))


def _symbolic_shapes(raw, where: str) -> tuple:
    if not isinstance(raw, list) or len(raw) > protocol.MAX_SHAPES:
        _fail(where, f"expected a list of at most {protocol.MAX_SHAPES} shapes")
    found = []
    for i, item in enumerate(raw):
        here = f"{where}[{i}]"
        item = _object(item, here)
        _keys(item, here, ("shape", "dtype", "primitive"), ("line", "rows", "within"))
        if item.get("rows", False) is not True and "rows" in item:
            _fail(f"{here}.rows", "expected true where given")
        found.append(SymbolicValue(shape=_extents(item["shape"], f"{here}.shape"),
                                   dtype=_text(item["dtype"], f"{here}.dtype", protocol.MAX_NAME),
                                   primitive=_text(item["primitive"], f"{here}.primitive", protocol.MAX_NAME),
                                   line=_line(item.get("line"), f"{here}.line"), rows="rows" in item,
                                   within=_extents(item.get("within", []), f"{here}.within")))
    return tuple(found)


def _counts(raw, where: str) -> dict:
    counts = _object(raw, where)
    if len(counts) > protocol.MAX_PRIMITIVE_NAMES:
        _fail(where, f"more than {protocol.MAX_PRIMITIVE_NAMES} primitives")
    return {_text(k, where, protocol.MAX_NAME): _int(v, where, 0, protocol.MAX_SUMMARY_COUNT)
            for k, v in counts.items()}
