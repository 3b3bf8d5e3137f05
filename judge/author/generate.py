"""`judge generate`, the engine: draw candidate cases from a problem's generator module, keep
the valid, new and unambiguous ones, and give each its expected output from the reference.

A problem's generator is ``generators/<id>.py`` beside ``problems/<id>.yaml``. It defines

* ``FAMILIES``: name -> ``draw(rng)`` returning ``{"input": {...}, "probe": {...} (problems
  with probes), "note": str, "exact": bool}``; ``rng`` is a ``numpy.random.Generator`` seeded
  from (seed, family, index), so a case is a pure function of those three numbers;
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)`` (``probe`` the candidate's probe inputs
  nested as the spec stores them, ``{}`` without probes) returning the output as a submission
  does (a dict of some or all fields; for an array output the array itself) by a legitimate
  alternative float computation, in NumPy; with probes, a dict of ``value`` and the probe
  results (``vjp``, ``jvp``), some or all of them (``as_fields``).

Generators are trusted author code, like the reference, and run in this process (no worker
start-up per draw, no encoding of candidates). The judge process must never import JAX, so a
generator may import only NumPy, ml_dtypes and the pure standard-library modules in
``ALLOWED_IMPORTS``; ``load_generator`` checks its import statements before running it.

A candidate is kept when (in order) it fits the parameters' constraints and reads back from
its YAML text bit for bit; it repeats no existing or earlier case (inputs and probe inputs
compared bitwise); and the reference run under ``jax.jit`` and every alternative agree with the
eager reference within the problem's tolerance. The last is the unambiguity filter: a case
whose expected output depends on how a legitimate solution rounds is rejected. Cases on exact
ties or bounds on purpose (``exact``) go through the same filter, which verifies them.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

from judge.problem import casefile, constraints, layout, spec
from judge.author.typed_inputs import input_key, same as _same, typed as _typed
from judge import rules
from judge.gate import parsing
from judge.grade import compare, grading
from judge.errors import JudgeError

ALLOWED_IMPORTS = {"numpy", "ml_dtypes", "math", "fractions", "decimal", "itertools",
                   "functools", "typing", "dataclasses", "__future__"}
#: Candidates sent to one reference worker run (a run has a CPU-time budget).
CHUNK = 120
#: Batches of candidates per round before a family that keeps being rejected is given up.
MAX_BATCHES = 6
#: Reason keys for rejected candidates; alternatives add "alt:<name>".
REASONS = {"invalid": "violates the parameters' constraints",
           "round_trip": "does not read back exactly from YAML",
           "duplicate": "repeats an existing or earlier case",
           "jit": "differs from the reference run under jax.jit"}


def reason_label(key: str) -> str:
    if key.startswith("alt:"):
        return f"differs from alternative {key[4:]}"
    return REASONS.get(key, key)


@dataclass(frozen=True)
class GeneratorModule:
    path: Path
    families: dict            # name -> draw(rng)
    alternatives: dict        # name -> compute(inputs, probe)


def generator_path(problem) -> Path:
    return problem.path.parent.parent / "generators" / f"{problem.id}.py"


def _check_imports(path: Path, source: str) -> None:
    try:
        tree = parsing.parse(source, str(path))
    except SyntaxError as exc:
        raise JudgeError(f"{path}: syntax error at line {exc.lineno}: {exc.msg}") from None
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = ["." if node.level else (node.module or "")]
        elif isinstance(node, ast.Name) and node.id == "__import__":
            names = ["__import__"]
        for name in names:
            if name.split(".")[0] not in ALLOWED_IMPORTS:
                raise JudgeError(f"{path}: line {node.lineno}: a generator may import only "
                                 f"{', '.join(sorted(ALLOWED_IMPORTS))} (it runs in the judge "
                                 f"process, which never imports JAX); found {name!r}")


def load_generator(problem) -> GeneratorModule:
    """Load ``generators/<id>.py`` by path after checking what it imports."""
    path = generator_path(problem)
    if not path.is_file():
        raise JudgeError(f"{path}: no generator module for problem {problem.id} "
                         f"(see docs/authors/generate.md)")
    _check_imports(path, path.read_text(encoding="utf-8"))
    before = set(sys.modules)
    name = f"_judge_generator_{problem.id}"
    module_spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module          # as an import would (dataclasses look it up)
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - author code: report it as one line
        del sys.modules[name]
        raise JudgeError(f"{path}: loading failed: {type(exc).__name__}: {exc}") from None
    if any(m == "jax" or m.startswith("jax.") for m in set(sys.modules) - before):
        raise JudgeError(f"{path}: loading it imported JAX; a generator must use NumPy only")
    families, alternatives = getattr(module, "FAMILIES", None), getattr(module, "ALTERNATIVES", {})
    for attr, value in (("FAMILIES", families), ("ALTERNATIVES", alternatives)):
        if not isinstance(value, dict) or not all(isinstance(k, str) and callable(v)
                                                  for k, v in value.items()):
            raise JudgeError(f"{path}: {attr} must be a dict from names to functions")
    if not families:
        raise JudgeError(f"{path}: FAMILIES is empty")
    return GeneratorModule(path, dict(families), dict(alternatives))


@dataclass(frozen=True)
class Candidate:
    family: str
    seed: int
    attempt: int              # index in the family's stream for this seed
    name: str
    inputs: dict              # typed, in parameter order
    probe: dict               # typed probe inputs ("cotangent", "tangent"), or {}
    note: str = ""
    exact: bool = False


@dataclass(frozen=True)
class Rejection:
    candidate: Candidate | None
    name: str
    family: str
    reasons: tuple            # ((key, detail), ...)


@dataclass
class Kept:
    candidate: Candidate
    expected: dict            # field (and probe) name -> array, from the eager reference
    text: str                 # the YAML list item


def family_rng(seed: int, family: str, attempt: int) -> np.random.Generator:
    key = int.from_bytes(hashlib.sha256(family.encode()).digest()[:8], "little")
    return np.random.default_rng(np.random.SeedSequence([seed, key, attempt]))


def prepare(problem, module: GeneratorModule, family: str, attempt: int, seed: int,
            raw: dict) -> tuple[Candidate | None, tuple]:
    """Type and validate one drawn candidate; (candidate, ()) or (None, reasons)."""
    name = f"gen_{family}_{seed}_{attempt}"
    where = f"{module.path}: family {family!r}"
    if not isinstance(raw, dict) or not isinstance(raw.get("input"), dict):
        raise JudgeError(f"{where} must return a dict with an 'input' mapping, "
                         f"got {type(raw).__name__}")
    names = [p.name for p in problem.parameters]
    if sorted(map(str, raw["input"])) != sorted(names):
        raise JudgeError(f"{where} returned inputs {sorted(map(str, raw['input']))}, "
                         f"the problem has {names}")
    try:
        inputs = _typed(problem, raw["input"])
    except (TypeError, ValueError) as exc:
        raise JudgeError(f"{where} returned an input of the wrong kind: {exc}") from None
    found = constraints.violations(problem.parameters, inputs, problem.conditions)
    if found:
        return None, (("invalid", "; ".join(m if p is None else f"{p}: {m}" for p, m in found)),)
    defaults = {p.name: p.dtypes[0] for p in problem.parameters if p.kind == "array"}
    text = casefile.format_input(inputs, defaults)
    try:
        back = constraints.check_inputs(problem.parameters, yaml.safe_load(text), problem.conditions)
    except constraints.CaseDataError as exc:
        return None, (("invalid", f"{'.'.join(map(str, exc.steps))}: {exc}"),)
    if not all(_same(inputs[n], back[n]) for n in names):
        return None, (("round_trip", text[:200]),)
    probe = {}
    if problem.probes:
        raw_probe = raw.get("probe")
        needed = sorted(p.input for p in problem.probes)
        if not isinstance(raw_probe, dict) or sorted(raw_probe) != needed:
            raise JudgeError(f"{where} must return 'probe' with exactly {needed}")
        slots = layout.input_slots(problem, inputs)
        try:
            probe = constraints.parse_slots(slots, raw_probe, "probe", finite=True)
        except constraints.CaseDataError as exc:
            return None, (("invalid", f"{'.'.join(map(str, exc.steps))}: {exc}"),)
        text = casefile.format_value(layout.nest(slots, probe))
        back = constraints.parse_slots(slots, yaml.safe_load(text), "probe")
        if not all(_same(probe[k], back[k]) for k in probe):
            return None, (("round_trip", "probe"),)
    return Candidate(family, seed, attempt, name, inputs, probe, str(raw.get("note") or ""),
                     bool(raw.get("exact"))), ()


def as_fields(problem, got, where: str, inputs: dict | None = None) -> dict:
    """An alternative's output as the judge's flat keys (``judge.problem.layout``): the output as
    a submission returns it (a dict of some or all fields for a ``dict`` output; the array itself
    for an ``array`` output; a tree for a ``tree`` output), or a dict keyed by ``value`` and the
    probes' names (``vjp``, ``jvp``), as a problem with probes needs; whatever part of it is
    given. Raise JudgeError, naming ``where``, for any other shape."""
    if inputs is not None and (layout.nested(problem) or any(p.listed for p in problem.probes)):
        found = {}
        for s in layout.expected_slots(problem, inputs):
            node = got
            for step in s.path:
                node = node.get(step) if isinstance(node, dict) else None
            if node is not None and not isinstance(node, dict):
                found[s.key] = node
        if found:
            return found
    elif isinstance(got, dict):
        return got
    if problem.output_kind == "array" and isinstance(got, (np.ndarray, np.generic, list, int, float)) \
            and not isinstance(got, bool):
        return {"value": got}
    if problem.output_kind == "array":
        wanted = "the output array" + (
            " (or a dict of 'value' and " + ", ".join(repr(p.name) for p in problem.probes) + ")"
            if problem.probes else "")
    elif problem.output_kind == "tree":
        wanted = "a tree like " + problem.fields[0].structure_like + " (or a dict of 'value' and the probes' results)"
    else:
        wanted = "a dict of the output's fields (" + ", ".join(f.name for f in problem.fields) + ")"
    raise JudgeError(f"{where}: returned {type(got).__name__}, not {wanted}")


def _probe_as_stored(problem, cand) -> dict:
    """A candidate's probe inputs as an alternative receives them: nested as the spec stores
    them (``{"cotangent": c}``, the cotangent a tree for a tree or dict output;
    ``{"tangent": {"W": t}}`` for ``wrt: [W]``), or ``{}`` for a problem without probes."""
    if not cand.probe:
        return {}
    return layout.nest(layout.input_slots(problem, cand.inputs), cand.probe)


def _compare(problem, module, got: dict, expected: dict, source: str, inputs: dict) -> str | None:
    """The first field (leaf, probe result) on which ``got`` is not acceptable against
    ``expected``, as text."""
    tol = {s.key: s.tolerance for s in layout.expected_slots(problem, inputs)}
    for name, value in got.items():
        if name not in expected:
            raise JudgeError(f"{module.path}: {source} returned {name!r}, not an output field "
                             f"(fields: {', '.join(expected)})")
        with np.errstate(over="ignore", invalid="ignore"):
            arr = np.asarray(value).astype(expected[name].dtype)
        if arr.shape != expected[name].shape:
            raise JudgeError(f"{module.path}: {source} returned {name} of shape {arr.shape}, "
                             f"expected {expected[name].shape}")
        mismatch = compare.check_values(arr, expected[name], name, tol[name])
        if mismatch:
            return mismatch.message
    return None


def screen(problem, module: GeneratorModule, candidates: list[Candidate], progress=None):
    """Run the reference (eager and under jit) and the alternatives on ``candidates``; return
    (kept, rejections) in candidate order."""
    cases = [spec.Case(index=i, name=c.name, visibility="hidden", inputs=c.inputs, expected={},
                       probe_inputs=c.probe) for i, c in enumerate(candidates)]
    eager, jitted = {}, {}
    for start in range(0, len(cases), CHUNK):
        chunk = cases[start:start + CHUNK]
        temp = rules.for_reference(problem, chunk)
        for compiled, into in ((False, eager), (True, jitted)):
            if progress:
                progress(f"reference {'under jit' if compiled else 'eagerly'} on "
                         f"{start + len(chunk)}/{len(cases)} candidates")
            into.update(grading.reference_outputs(temp, chunk, compiled=compiled))
    kept, rejected = [], []
    for i, cand in enumerate(candidates):
        expected = eager[i]
        reasons = []
        diff = _compare(problem, module, jitted[i], expected, "the reference under jit", cand.inputs)
        if diff:
            reasons.append(("jit", diff))
        probe = _probe_as_stored(problem, cand)
        for alt in sorted(module.alternatives):
            try:
                got = module.alternatives[alt](cand.inputs, probe)
            except Exception as exc:  # noqa: BLE001 - author code
                raise JudgeError(f"{module.path}: alternative {alt!r} raised on {cand.name}: "
                                 f"{type(exc).__name__}: {exc}") from None
            got = as_fields(problem, got, f"{module.path}: alternative {alt!r} on {cand.name}", cand.inputs)
            diff = _compare(problem, module, got, expected, f"alternative {alt!r}", cand.inputs)
            if diff:
                reasons.append((f"alt:{alt}", diff))
        if reasons:
            rejected.append(Rejection(cand, cand.name, cand.family, tuple(reasons)))
        else:
            kept.append(Kept(cand, expected, case_text(problem, cand, expected)))
    return kept, rejected


def case_text(problem, cand: Candidate, expected: dict) -> str:
    """The YAML list item of a kept case, at an indent of two spaces."""
    defaults = {p.name: p.dtypes[0] for p in problem.parameters if p.kind == "array"}
    value = layout.nest(layout.expected_slots(problem, cand.inputs), expected)
    probe = layout.nest(layout.input_slots(problem, cand.inputs), cand.probe) if cand.probe else None
    return casefile.case_yaml({
        "name": cand.name, "note": cand.note, "family": cand.family, "seed": cand.seed,
        "input": casefile.format_input(cand.inputs, defaults),
        "probe": casefile.format_value(probe) if probe else None,
        "expected": value})


def validate_items(problem, items_text: str) -> list:
    """The cases of a YAML list of hidden cases, validated as the spec loader does."""
    items = yaml.safe_load(items_text) or []
    try:
        built = spec.build({**problem.raw, "examples": [], "hidden": items}, problem.path)
    except JudgeError as exc:
        raise JudgeError(f"a generated case does not load: {exc}") from None
    return list(built.cases)


def quotas(count: int, families: list[str], seed: int = 0) -> dict[str, int]:
    """``count`` cases spread over ``families`` as evenly as possible; the remainder goes to the
    families from position ``seed % len(families)`` on, so small counts vary with the seed."""
    n = len(families)
    start = seed % n
    return {f: count // n + (1 if (i - start) % n < count % n else 0)
            for i, f in enumerate(families)}


@dataclass
class Generator:
    """Streams of candidates per family for one seed; ``round`` takes the next cases."""

    problem: object
    module: GeneratorModule
    seed: int
    families: list
    progress: object = None
    next_attempt: dict = field(default_factory=dict)
    seen: set = field(default_factory=set)
    names: set = field(default_factory=set)
    rejected: list = field(default_factory=list)
    examined: int = 0
    pool: dict = field(default_factory=dict)       # family -> screened, kept, not yet used
    shortfalls: list = field(default_factory=list)

    def __post_init__(self):
        for case in self.problem.cases:
            self.seen.add(input_key(case.inputs, case.probe_inputs))
            self.names.add(case.name)

    def _draw(self, family: str) -> Candidate | None:
        attempt = self.next_attempt.get(family, 0)
        self.next_attempt[family] = attempt + 1
        self.examined += 1
        draw = self.module.families[family]
        try:
            raw = draw(family_rng(self.seed, family, attempt))
        except Exception as exc:  # noqa: BLE001 - author code
            raise JudgeError(f"{self.module.path}: family {family!r} raised: "
                             f"{type(exc).__name__}: {exc}") from None
        cand, reasons = prepare(self.problem, self.module, family, attempt, self.seed, raw)
        name = f"gen_{family}_{self.seed}_{attempt}"
        if cand is not None:
            key = input_key(cand.inputs, cand.probe)
            if key in self.seen or name in self.names:
                cand, reasons = None, (("duplicate", "same inputs as an earlier case"),)
            else:
                self.seen.add(key)
        if cand is None:
            self.rejected.append(Rejection(None, name, family, reasons))
        return cand

    @property
    def unused(self) -> int:
        return sum(len(v) for v in self.pool.values())

    def round(self, count: int) -> list[Kept]:
        """The next ``count`` cases, spread over the families; each family's cases are the first
        acceptable ones of its stream (kept candidates left over from a batch wait in ``pool``),
        so the result does not depend on batch sizes."""
        need = quotas(count, self.families, self.seed)
        taken: dict[str, list[Kept]] = {f: [] for f in self.families}
        for f in self.families:
            pooled = self.pool.get(f, [])
            taken[f], self.pool[f] = pooled[:need[f]], pooled[need[f]:]
        for batch in range(MAX_BATCHES):
            pending = [f for f in self.families if len(taken[f]) < need[f]]
            if not pending:
                break
            cands = []
            for f in pending:
                missing = need[f] - len(taken[f])
                extra = (missing + 3) // 4 if batch == 0 else missing * batch
                drawn = [self._draw(f) for _ in range(missing + extra)]
                cands += [c for c in drawn if c is not None]
            kept, rejected = screen(self.problem, self.module, cands, self.progress)
            self.rejected += rejected
            for k in kept:
                f = k.candidate.family
                (taken[f] if len(taken[f]) < need[f] else self.pool[f]).append(k)
        for f in self.families:
            if len(taken[f]) < need[f]:
                self.shortfalls.append(f"family {f}: {len(taken[f])} of {need[f]} cases after "
                                       f"{self.next_attempt.get(f, 0)} candidates")
        out = [k for f in self.families for k in taken[f]]
        self.names.update(k.candidate.name for k in out)
        return out
