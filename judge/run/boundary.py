"""The judge's side of the result channel: every worker message decoded and validated once, into
typed frozen reports.

After ``ready`` the worker shares its process with the submission, so every line on the channel
may be forged. ``decode`` checks one line against a schema of field types and bounds (the
message format is in ``judge.worker.protocol``) and returns a ``Ready``, ``Loaded``,
``Asked``, ``CaseReport``, ``Halt`` or ``Done``; anything else raises ``protocol.ProtocolError``, which the
runner turns into ``RJ channel_tampered`` (or ``IE worker_protocol`` before ``ready``). Nothing
downstream (grading, rules, reports) reads a raw message.

Every string that came from the worker is escaped here, once: control characters (newlines too,
except in captured output), Unicode line separators and bidirectional overrides, and lone
surrogates become visible ``\\n``, ``\\xNN``, ``\\uNNNN`` escapes, so no report can be redrawn on a
terminal by a submission and every report encodes as UTF-8. Values are decoded to NumPy arrays
(``protocol.decode_value``); a submission's output the worker could not send as it is arrives as
``protocol.Malformed``, a wrong answer rather than a fault of the channel.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from judge.run import fields as _fields
from judge.run.escaping import escape
from judge.run.summary import Loop, Program, SymbolicValue, Value  # noqa: F401 - re-exported
from judge.worker import protocol
from judge.worker.trip_skip import EARLIER
from judge.worker.protocol import ProtocolError

#: Characters an exception's text may have in a message (the worker keeps 2000 and a marker).
MAX_ERROR_MESSAGE = 2100
#: Characters of the source line an error names, of an exception's type name, of a halt's detail.
MAX_SOURCE, MAX_TYPE, MAX_DETAIL = 300, protocol.MAX_NAME, 300
#: Characters of the version strings in ``ready``.
MAX_VERSION = 64
#: Primitive names in one case's trace.
MAX_PRIMITIVES = 10_000
#: Captured stdout or stderr: the request's ``capture_bytes`` plus the worker's "not kept" marker.
CAPTURE_MARGIN = 100
#: Largest integer a count may be.
MAX_COUNT = _fields.MAX_COUNT

# --- the reports ------------------------------------------------------------------------------

@dataclass(frozen=True)
class ErrorReport:
    """An exception the worker saw (``protocol.ERROR_KINDS``), its text escaped."""

    kind: str
    type: str
    message: str
    line: int | None = None
    source: str | None = None


@dataclass(frozen=True)
class Ready:
    protocol: int
    python: str
    jax: str
    runtime_mb: int | None = None  # address space JAX had mapped when the memory limit was set


@dataclass(frozen=True)
class Loaded:
    ok: bool
    stdout: str
    stderr: str
    error: ErrorReport | None = None
    time_s: float | None = None


@dataclass(frozen=True)
class Trace:
    primitives: tuple[str, ...]
    custom_vjp_calls: int


@dataclass(frozen=True)
class Provenance:
    """Dataflow of the case's cotangent (``judge.worker.provenance``)."""

    reached: bool   # it reaches the rule's field outside every backward rule
    used: bool      # it reaches the rule's field at all (through backward rules included)
    rules: int      # backward-rule outputs seen
    opaque: int     # sub-computations the analysis could not see into
    returned: bool = False  # every part of the field is (partly) what a backward rule returned
    #: with the rule's ``values``: every part of that field is what a custom_vjp function whose
    #: backward rule gives the gradient computed from its input; None where not measured
    computed: bool | None = None


@dataclass(frozen=True)
class Evidence:
    """What the custom_vjp instrument measured on one case. The defaults are "nothing seen"."""

    custom_vjp_applied: int = 0
    backward_runs: int = 0
    cache_cleared: bool | None = None
    instrument_intact: bool | None = None
    provenance: Provenance | None = None
    scaled: Any = None       # the output with the backward rules scaled (decoded), or None
    #: with the rule's ``values``: the output with every custom_vjp function's output moved far
    #: up and far down (decoded, ``judge.worker.shift``), or None where not measured
    shifted: tuple | None = None


#: The evidence of a case that reported none.
NO_EVIDENCE = Evidence()


@dataclass(frozen=True)
class Probes:
    values: Mapping[str, Any]            # probe name -> decoded value
    errors: Mapping[str, ErrorReport]    # probe name -> what it raised


@dataclass(frozen=True)
class CaseReport:
    index: int
    time_s: float
    stdout: str
    stderr: str
    error: ErrorReport | None = None
    output: Any = None        # decoded value (arrays, dicts, lists, tuples, Other, Malformed)
    trace: Trace | None = None
    evidence: Evidence | None = None
    probes: Probes | None = None
    program: Program | None = None
    #: not evaluated: the judge refused its program (``program``, ``trace``); ``output`` is the
    #: output's form, each array all zeros of its shape and dtype (``protocol`` FORM)
    skipped: bool = False
    #: the output with a loop stopped one trip early (``judge.worker.last_trip``), where asked
    shortened: Shortened | None = None


@dataclass(frozen=True)
class Shortened:
    """The case's output with one loop of its program stopped one trip early."""

    loop: int     # the loop's index among the program summary's loops
    output: Any   # decoded as ``CaseReport.output``
    trips: int | None = None  # the trips it ran in full at the case, where told
    #: the outputs with each of the trips it lists before the last left out instead, as
    #: ``((trip, output), ...)``, where measured (the case whose last trip moved the output)
    earlier: tuple | None = None
    #: whether ``earlier`` was sent (None: it could not be measured); not sent where the worker
    #: saw the output move within the largest of the problem's tolerances only
    earlier_sent: bool = False


@dataclass(frozen=True)
class Asked:
    """The program the due case's key traced (its summary and primitives), sent before any of
    it is evaluated, for the judge to answer whether to evaluate it (``decide`` cases only)."""

    index: int
    program: Program
    trace: Trace


@dataclass(frozen=True)
class Halt:
    cause: str               # one of protocol.HALT_CAUSES
    index: int | None
    detail: str


@dataclass(frozen=True)
class Done:
    #: with ``report_ops``: the operations that missed the compilation cache, well-formed ones
    #: only (``judge.run.shared_compile.check_ops``); a wish list that decides nothing
    ops: tuple = ()


@dataclass(frozen=True)
class Expected:
    """What the judge asked for, which bounds what may come back."""

    grad_rule: bool = False
    probes: tuple[str, ...] = ()
    capture_bytes: int = 4096
    structure: bool = False                 # every case also reports its program
    abstract: frozenset = frozenset()       # indices of cases that are only traced
    #: bytes one result line may take: what the problem's outputs need, not what a submission
    #: chooses to send (``request.message_budget``); a longer line is OLE, never parsed
    message_bytes: int = protocol.MAX_MESSAGE_BYTES
    report_ops: bool = False                # ``done`` may list operations to compile
    #: the cases sent with ``decide``: index -> the key of the program they run (``symbolic``)
    decide: Mapping[int, str] = field(default_factory=dict)
    #: the cases sent with ``shorten``, which may report ``shortened``
    shorten: frozenset = frozenset()

    @classmethod
    def of(cls, request: dict) -> "Expected":
        probes = request.get("probes") or {}
        decide = {c["index"]: str(c["symbolic"]["key"]) for c in request.get("cases", ())
                  if c.get("decide") and c.get("symbolic") and request.get("structure")}
        return cls(grad_rule=bool(request.get("grad_rule")),
                   probes=tuple(probes.get("names") or ()),
                   capture_bytes=int(request.get("capture_bytes") or 4096),
                   structure=bool(request.get("structure")),
                   abstract=frozenset(c["index"] for c in request.get("cases", ())
                                      if c.get("abstract") is not None),
                   message_bytes=min(int(request.get("message_bytes") or protocol.MAX_MESSAGE_BYTES),
                                     protocol.MAX_MESSAGE_BYTES),
                   report_ops=bool(request.get("report_ops")),
                   decide=MappingProxyType(decide),
                   shorten=frozenset(c["index"] for c in request.get("cases", ()) if c.get("shorten")))


# --- field checks -----------------------------------------------------------------------------

from judge.run.fields import (  # noqa: E402 - the field checks, shared with judge.run.summary
    boolean as _bool, fail as _fail, integer as _int, keys as _keys, number as _number, obj as _object,
    optional as _optional, text as _text)
from judge.run.summary import program as _program  # noqa: E402
from judge.run import values as channel_values  # noqa: E402
from judge.run.values import value  # noqa: E402, F401 - re-exported
from judge.run.shared_compile import check_ops  # noqa: E402


def _error(value, where: str, kinds=protocol.ERROR_KINDS) -> ErrorReport:
    msg = _object(value, where)
    _keys(msg, where, ("kind", "type", "message", "line", "source"))
    if msg["kind"] not in kinds:
        _fail(f"{where}.kind", "not an error kind of this message")
    return ErrorReport(kind=msg["kind"], type=_text(msg["type"], f"{where}.type", MAX_TYPE),
                       message=_text(msg["message"], f"{where}.message", MAX_ERROR_MESSAGE),
                       line=_optional(_int, msg["line"], f"{where}.line", 0, 10 ** 9),
                       source=_optional(_text, msg["source"], f"{where}.source", MAX_SOURCE))


def _trace(raw, where: str) -> Trace:
    msg = _object(raw, where)
    _keys(msg, where, ("primitives", "custom_vjp_calls"))
    names = msg["primitives"]
    if not isinstance(names, list) or len(names) > MAX_PRIMITIVES:
        _fail(f"{where}.primitives", f"expected a list of at most {MAX_PRIMITIVES} names")
    if set(map(type, names)) <= channel_values.STR \
            and max(map(len, names), default=0) <= protocol.MAX_NAME \
            and (joined := "".join(names)).isascii() and joined.isprintable():
        primitives = tuple(names)  # what ``_text`` keeps of each name: nothing to escape
    else:
        primitives = tuple(_text(n, f"{where}.primitives", protocol.MAX_NAME) for n in names)
    return Trace(primitives=primitives,
                 custom_vjp_calls=_int(msg["custom_vjp_calls"], f"{where}.custom_vjp_calls"))


def _evidence(raw, where: str, expected: Expected, complete: bool) -> Evidence:
    msg = _object(raw, where)
    rule_keys = ("instrument_intact", "provenance", "scaled")
    required = ("custom_vjp_applied", "backward_runs") + \
        (rule_keys if complete and expected.grad_rule else ())
    _keys(msg, where, required, ("cache_cleared",) + (rule_keys + ("shifted",) if expected.grad_rule else ()))
    shifted = msg.get("shifted")
    if shifted is not None:
        if not isinstance(shifted, list) or len(shifted) != 4:
            _fail(f"{where}.shifted", "expected four outputs or null")
        shifted = tuple(value(v, f"{where}.shifted[{i}]") for i, v in enumerate(shifted))
    provenance = None
    if "provenance" in msg:
        flow = _object(msg["provenance"], f"{where}.provenance")
        _keys(flow, f"{where}.provenance", ("reached", "used", "rules", "opaque"), ("returned", "computed"))
        provenance = Provenance(reached=_bool(flow["reached"], f"{where}.provenance.reached"),
                                used=_bool(flow["used"], f"{where}.provenance.used"),
                                rules=_int(flow["rules"], f"{where}.provenance.rules"),
                                opaque=_int(flow["opaque"], f"{where}.provenance.opaque"),
                                returned=_bool(flow.get("returned", False),
                                               f"{where}.provenance.returned"),
                                computed=_optional(_bool, flow.get("computed"),
                                                   f"{where}.provenance.computed"))
    return Evidence(
        custom_vjp_applied=_int(msg["custom_vjp_applied"], f"{where}.custom_vjp_applied"),
        backward_runs=_int(msg["backward_runs"], f"{where}.backward_runs"),
        cache_cleared=_optional(_bool, msg.get("cache_cleared"), f"{where}.cache_cleared"),
        instrument_intact=_optional(_bool, msg.get("instrument_intact"),
                                    f"{where}.instrument_intact"),
        provenance=provenance,
        scaled=_optional(value, msg.get("scaled"), f"{where}.scaled"),
        shifted=shifted)


def _probes(raw, where: str, expected: Expected, complete: bool) -> Probes:
    msg = _object(raw, where)
    names = set(expected.probes)
    if not set(msg) <= names | {"errors"} or "errors" not in msg:
        _fail(where, "fields that are not the requested probes")
    errors = _object(msg["errors"], f"{where}.errors")
    if not set(errors) <= names:
        _fail(f"{where}.errors", "errors of probes that were not requested")
    values = {n: value(msg[n], f"{where}.{n}") for n in expected.probes if n in msg}
    if complete and any((n in values) == (n in errors) for n in expected.probes):
        _fail(where, "each requested probe needs a value or an error")
    return Probes(values=MappingProxyType(values),
                  errors=MappingProxyType({n: _error(errors[n], f"{where}.errors.{n}",
                                                     ("exception",))
                                           for n in expected.probes if n in errors}))


# --- messages ---------------------------------------------------------------------------------

def _ready(msg: dict, expected: Expected) -> Ready:
    _keys(msg, "ready", ("type", "protocol", "python", "jax"), ("runtime_mb",))
    if msg["protocol"] != protocol.PROTOCOL or type(msg["protocol"]) is not int:
        _fail("ready", f"the worker does not speak protocol {protocol.PROTOCOL}")
    runtime = msg.get("runtime_mb")
    return Ready(protocol=msg["protocol"], python=_text(msg["python"], "ready.python", MAX_VERSION),
                 jax=_text(msg["jax"], "ready.jax", MAX_VERSION),
                 runtime_mb=None if runtime is None else _int(runtime, "ready.runtime_mb", 0, 1 << 40))


def _loaded(msg: dict, expected: Expected) -> Loaded:
    ok = _bool(msg.get("ok"), "loaded.ok")
    _keys(msg, "loaded", ("type", "ok", "stdout", "stderr") + (() if ok else ("error",)),
          ("time_s",))
    cap = expected.capture_bytes + CAPTURE_MARGIN
    return Loaded(ok=ok, stdout=_text(msg["stdout"], "loaded.stdout", cap, True),
                  stderr=_text(msg["stderr"], "loaded.stderr", cap, True),
                  error=None if ok else _error(msg["error"], "loaded.error",
                                               ("syntax_error", "missing_entry_point",
                                                "import_error", "exit")),
                  time_s=_optional(_number, msg.get("time_s"), "loaded.time_s"))


def _asked(msg: dict, expected: Expected) -> Asked:
    _keys(msg, "program", ("type", "index", "program", "trace"))
    index = _int(msg["index"], "program.index")
    if index not in expected.decide:
        _fail("program.index", "a case that was not sent with 'decide'")
    return Asked(index=index, program=_program(msg["program"], "program.program"),
                 trace=_trace(msg["trace"], "program.trace"))


def _skipped(msg: dict, expected: Expected, index: int) -> CaseReport:
    """A case the worker did not evaluate: no error, probes or evidence; its program, trace and
    output's form."""
    if msg["skipped"] is not True or index not in expected.decide:
        _fail("case.skipped", "only a case sent with 'decide' may be skipped")
    if any(msg[k] is not None for k in ("error", "probes", "evidence")) or \
            msg["output"] is None or msg.get("program") is None or msg["trace"] is None:
        _fail("case", "a skipped case reports its program, trace and output's form, nothing else")
    cap = expected.capture_bytes + CAPTURE_MARGIN
    try:
        form = channel_values.clean(protocol.decode_value(msg["output"], form=True))
    except ProtocolError as exc:
        _fail("case.output", str(exc))
    return CaseReport(index=index, time_s=_number(msg["time_s"], "case.time_s"),
                      stdout=_text(msg["stdout"], "case.stdout", cap, True),
                      stderr=_text(msg["stderr"], "case.stderr", cap, True),
                      output=form, trace=_trace(msg["trace"], "case.trace"),
                      program=_program(msg["program"], "case.program"), skipped=True)


def _case(msg: dict, expected: Expected) -> CaseReport:
    _keys(msg, "case", ("type", "index", "time_s", "stdout", "stderr", "error", "output", "probes",
                        "trace", "evidence"), ("program", "skipped", "shortened"))
    index = _int(msg["index"], "case.index")
    if "skipped" in msg:
        return _skipped(msg, expected, index)
    cap = expected.capture_bytes + CAPTURE_MARGIN
    error = _optional(_error, msg["error"], "case.error", ("concretization", "exit", "exception", "symbolic"))
    complete = error is None
    program = _optional(_program, msg.get("program"), "case.program")
    if program is not None and not (expected.structure or index in expected.abstract):
        _fail("case.program", "no program summary was requested")
    if index in expected.abstract:
        if any(msg[k] is not None for k in ("output", "trace", "evidence", "probes")):
            _fail("case", "a case traced only at shapes reports nothing but its program")
        if complete and program is None:
            _fail("case", "a case traced only at shapes must report its program")
        return CaseReport(index=index, time_s=_number(msg["time_s"], "case.time_s"),
                          stdout=_text(msg["stdout"], "case.stdout", cap, True),
                          stderr=_text(msg["stderr"], "case.stderr", cap, True),
                          error=error, program=program)
    if complete and (msg["output"] is None or msg["trace"] is None
                     or (expected.grad_rule and msg["evidence"] is None)
                     or (expected.probes and msg["probes"] is None)
                     or (expected.structure and program is None)):
        _fail("case", "a case without an error must report its output, trace and evidence")
    if msg["probes"] is not None and not expected.probes:
        _fail("case.probes", "no probes were requested")
    if msg.get("shortened") is not None and index not in expected.shorten:
        _fail("case.shortened", "no loop stopped early was requested")
    return CaseReport(
        index=index, time_s=_number(msg["time_s"], "case.time_s"),
        stdout=_text(msg["stdout"], "case.stdout", cap, True),
        stderr=_text(msg["stderr"], "case.stderr", cap, True),
        error=error,
        output=_optional(value, msg["output"], "case.output"),
        trace=_optional(_trace, msg["trace"], "case.trace"),
        evidence=_optional(_evidence, msg["evidence"], "case.evidence", expected, complete),
        probes=_optional(_probes, msg["probes"], "case.probes", expected, complete),
        program=program, shortened=_optional(_shortened, msg.get("shortened"), "case.shortened"))


def _shortened(raw, where: str) -> Shortened:
    item = _object(raw, where)
    _keys(item, where, ("loop", "output", "trips"), ("earlier",))
    return Shortened(loop=_int(item["loop"], f"{where}.loop", 0, protocol.MAX_LOOPS - 1),
                     output=value(item["output"], f"{where}.output"),
                     trips=_optional(_int, item["trips"], f"{where}.trips", 0, protocol.MAX_SUMMARY_COUNT),
                     earlier=_optional(_earlier, item.get("earlier"), f"{where}.earlier"),
                     earlier_sent="earlier" in item)


def _earlier(raw, where: str) -> tuple:
    item = _object(raw, where)
    _keys(item, where, ("trips", "outputs"))
    trips, outputs = item["trips"], item["outputs"]
    if not isinstance(trips, list) or not isinstance(outputs, list) or len(trips) != len(outputs) \
            or not 1 <= len(trips) <= EARLIER:
        _fail(where, f"not lists of as many trips as outputs (1 to {EARLIER})")
    return tuple((_int(t, f"{where}.trips", 0, protocol.MAX_SUMMARY_COUNT), value(o, f"{where}.outputs"))
                 for t, o in zip(trips, outputs))


def _halt(msg: dict, expected: Expected) -> Halt:
    _keys(msg, "halt", ("type", "cause", "index", "detail"))
    if msg["cause"] not in protocol.HALT_CAUSES:
        _fail("halt.cause", "not a halt cause")
    return Halt(cause=msg["cause"], index=_optional(_int, msg["index"], "halt.index"),
                detail=_text(msg["detail"], "halt.detail", MAX_DETAIL))


def _done(msg: dict, expected: Expected) -> Done:
    _keys(msg, "done", ("type",), ("ops",) if expected.report_ops else ())
    return Done(ops=check_ops(msg.get("ops")))


_MESSAGES = {"ready": _ready, "loaded": _loaded, "program": _asked, "case": _case, "halt": _halt,
             "done": _done}


def decode(line: bytes, nonce: str, expected: Expected):
    """One line of the result channel as a typed report. Raises ProtocolError if it is not JSON,
    lacks this run's nonce, or breaks the schema of its type. Error texts never quote the line
    (a forger chooses it); they name the field."""
    msg = protocol.loads(line)
    sent = msg.pop("nonce", None)
    if not isinstance(sent, str) or not sent.isascii() or not secrets.compare_digest(sent, nonce):
        raise ProtocolError("a message without this run's nonce")
    kind = msg["type"]
    if kind not in _MESSAGES:
        raise ProtocolError("a message of an unknown type")
    return _MESSAGES[kind](msg, expected)
