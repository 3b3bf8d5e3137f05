"""Loading a problem spec (``problems/<id>.yaml``) into a frozen model.

Loading checks the YAML against ``schema/problem.schema.json`` and then what a schema cannot say
(parameters that refer to each other, case inputs and expected outputs that fit the signature).
Every error is a ``SpecError`` naming the file, the field (as steps from the top) and, where it is
known, the line. ``build`` stops at the first; with ``collect=True`` it goes on past bad cases and
returns every case error with the problem of the valid cases (what `judge check` reports).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from judge.errors import JudgeError, SpecError
from judge.problem.constraints import CaseDataError, input_violations, parse_outputs
# the spec's text and its lines, as the author commands also read them (spec.read_yaml, spec.line_of)
from judge.problem.yaml_text import YAML_LOADER, key_line, line_of, read_text, read_yaml  # noqa: F401
from dataclasses import replace

from judge import rules as rule_registry
from judge.problem import signature
from judge.problem.model import (DEFAULT_LIMITS, DEFAULT_TOLERANCE, PROBE_INPUTS, Case, OutputField,
                                 Parameter, Probe, ProbeShape, Problem, ScoreGroup, bind_dims,
                                 dim_names, leaf_dim_names, shapes_for)

from judge.problem.schema_file import SCHEMA_PATH, schema  # noqa: F401  (spec.schema())


def find_root(start: Path | None = None) -> Path:
    """The folder holding ``problems/``: the current directory or a parent, else the checkout
    this package was installed from."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "problems").is_dir():
            return folder
    package_parent = Path(__file__).resolve().parents[2]
    if (package_parent / "problems").is_dir():
        return package_parent
    raise JudgeError(f"no problems/ folder in {here} or its parents; run from a problem repository")


#: Folders of problem specs besides a spec's own, separated as PATH is (os.pathsep).
PROBLEM_PATH_ENV = "JUDGE_PROBLEM_PATH"


def problem_folders(spec_path: Path) -> list[Path]:
    """Where the problems a spec names (``related``) are looked for, in order: the spec's own
    folder, each folder of ``$JUDGE_PROBLEM_PATH``, the ``problems/`` of the repository the
    command runs in, and the problems bundled with the judge. Each folder once; missing ones are
    left out."""
    import os

    found = [Path(spec_path).resolve().parent]
    found += [Path(f).expanduser() for f in os.environ.get(PROBLEM_PATH_ENV, "").split(os.pathsep) if f]
    try:
        found.append(find_root() / "problems")
    except JudgeError:
        pass
    found.append(Path(__file__).resolve().parents[2] / "problems")
    return [f for f in dict.fromkeys(f.resolve() for f in found) if f.is_dir()]


def resolve(id_or_path: str, root: Path | None = None) -> Path:
    """A problem id (``fake_quant_ste``) or a path to a spec file."""
    candidate = Path(id_or_path)
    if candidate.suffix in (".yaml", ".yml") or candidate.exists():
        if not candidate.is_file():
            raise JudgeError(f"{candidate}: no such problem spec file")
        return candidate.resolve()
    folder = (root or find_root()) / "problems"
    path = folder / f"{id_or_path}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in folder.glob("*.yaml"))
        raise JudgeError(f"unknown problem {id_or_path!r}: no {path} (known: {', '.join(known) or 'none'})")
    return path


def _unknown_keys(err) -> list[tuple[str, str]]:
    """(key, message) for each key an ``additionalProperties: false`` schema refuses, with the
    closest allowed key as a suggestion."""
    import difflib

    allowed = sorted(err.schema.get("properties", {}))
    out = []
    for key in err.instance:
        if key in allowed or not isinstance(key, str):
            continue
        close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else f" (allowed: {', '.join(allowed)})"
        out.append((key, f"unknown key {key!r}{hint}"))
    return out


def _by_id(err) -> list:
    """A ``oneOf`` error about a mapping with an ``id`` (a rule): the errors of the branch whose
    ``id`` is that id, each named at its own key, where the branches share a key (``silence``)
    and no one error stands out; any other error as it is."""
    if err.validator == "oneOf" and isinstance(err.instance, dict) and "id" in err.instance:
        for i, branch in enumerate(err.validator_value):
            if branch.get("properties", {}).get("id", {}).get("const") == err.instance["id"]:
                mine = [c for c in err.context if c.relative_schema_path and c.relative_schema_path[0] == i]
                return mine or [err]
    return [err]


def schema_violations(data: dict, nodes=None, path="") -> list[SpecError]:
    """A SpecError for every schema violation, in document order. An unknown key is reported at
    its own line, with the closest valid key ("did you mean 'tolerance'?")."""
    import jsonschema  # here: loading a spec that passed before never needs it (spec_cache)

    validator = jsonschema.Draft202012Validator(schema())
    found = []
    for best in (jsonschema.exceptions.best_match([e]) for err in validator.iter_errors(data)
                 for e in _by_id(err)):
        steps = list(best.absolute_path)
        if (best.validator == "additionalProperties" and best.validator_value is False
                and isinstance(best.instance, dict)):
            unknown = _unknown_keys(best)
            for key, message in unknown:
                line = key_line(nodes, steps, key) if nodes is not None else None
                found.append(SpecError(path, steps + [key], line or line_of(nodes, steps), message))
            if unknown:
                continue
        message = best.message
        if is_missing_expected(best.validator, steps, message):
            name = best.instance.get("name") if isinstance(best.instance, dict) else None
            message = NO_EXPECTED.format(name=f" {name!r}" if isinstance(name, str) else "")
        found.append(SpecError(path, steps, line_of(nodes, steps), message))
    return sorted(found, key=lambda e: (e.line or 0, e.where))


def schema_errors(data: dict, nodes=None) -> list[tuple[str, int | None, str]]:
    """(field, line, message) of every schema violation (``schema_violations``), in document
    order."""
    return [(e.where, e.line, e.problem) for e in schema_violations(data, nodes)]


#: A case without ``expected``: ``judge fill`` computes it; every other command refuses the spec.
NO_EXPECTED = ("the case{name} has no 'expected' output; `judge fill` computes it with the "
               "reference")


def is_missing_expected(validator: str, path: list, message: str) -> bool:
    return (validator == "required" and len(path) == 2 and path[0] in ("examples", "hidden")
            and isinstance(path[1], int) and message == "'expected' is a required property")


def load(id_or_path: str | Path, root: Path | None = None) -> Problem:
    """Load and fully validate a problem; raise SpecError on the first problem found. A spec
    whose exact text passed the schema before is not parsed or checked against it again
    (``spec_cache``); everything else is checked each time."""
    from judge.problem import spec_cache

    path = resolve(str(id_or_path), root)
    text = read_text(path)
    checked = spec_cache.lookup(text, SCHEMA_PATH)
    if checked is not None:
        try:
            return build(checked, path)
        except Exception:  # noqa: BLE001 - whatever it is, it is reported below from the YAML
            pass
    data, nodes = read_yaml(path, text)
    errors = schema_violations(data, nodes, path)
    if errors:
        first = errors[0]
        more = "".join(f"\n  {e.field}: {e.problem}" for e in errors[1:])
        if more:
            more = f"\n{len(errors) - 1} more (`judge check {path}` lists them too):{more}"
        raise SpecError(path, first.steps, first.line, first.problem + more)
    problem = build(data, path, nodes)
    spec_cache.remember(text, SCHEMA_PATH, data)
    return problem


def build(data: dict, path: Path, nodes=None, collect: bool = False):
    """The problem of a spec that matches the schema; raise SpecError on the first problem found
    (``nodes``, the composed YAML, give errors their lines).

    With ``collect``, a bad case does not stop loading: return ``(problem, errors)``, the problem
    holding only the valid cases (numbered as in the spec) and ``errors`` a SpecError for every
    bad case, one for each constraint its inputs break. Anything else wrong still raises."""
    def error(field_steps, problem) -> SpecError:
        line = line_of(nodes, field_steps) if nodes is not None else None
        return SpecError(path, field_steps, line, problem)

    def fail(field_steps, problem):
        raise error(field_steps, problem)

    params = tuple(_parameter(p) for p in data["parameters"])
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        fail(["parameters"], "parameter names must be unique")
    params = signature.check_parameters(params, fail)
    if not any(p.traced for p in params):
        fail(["parameters"], "at least one parameter must be traced")

    out = data["output"]
    base_tol = {**DEFAULT_TOLERANCE, **data.get("tolerance", {})}
    if out["kind"] == "dict":
        fields = tuple(_field(name, spec, base_tol) for name, spec in out["fields"].items())
    else:
        fields = (_field("value", out, base_tol),)
    rules = tuple(data.get("rules", []))
    params = _with_dims(params, data.get("dims") or {}, fail)
    signature.check_fields(fields, out["kind"], params, fail)
    probes = signature.probes(data, out["kind"], params, base_tol, fail)

    conditions = _conditions(data.get("constraints") or [], params, fail)
    # the signature alone, for reading the cases' outputs (``judge.problem.layout``)
    shell = Problem(id=data["id"], title="", statement="", entry_point="", parameters=params,
                    output_kind=out["kind"], fields=fields, rules=(), probes=probes, limits={},
                    cases=(), path=path, reference=path)
    cases, errors = [], []
    for visibility, key in (("example", "examples"), ("hidden", "hidden")):
        for i, raw in enumerate(data.get(key) or []):
            steps = [key, i]
            try:
                inputs, broken = input_violations(params, raw["input"], conditions)
                if broken:
                    if not collect:
                        raise broken[0]
                    errors.extend(error(steps + exc.steps, str(exc)) for exc in broken)
                    continue
                expected, probe_inputs = parse_outputs(shell, raw["expected"], raw.get("probe"), inputs)
            except ValueError as exc:
                bad = error(steps + list(getattr(exc, "steps", [])), str(exc))
                if not collect:
                    raise bad
                errors.append(bad)
                continue
            cases.append(Case(index=len(cases), name=str(raw.get("name") or f"{key}[{i}]"),
                              visibility=visibility, inputs=inputs,
                              expected=expected,
                              text=str(raw.get("explanation") or raw.get("note") or ""),
                              probe_inputs=probe_inputs, number=i))

    reference = (path.parent / data.get("reference", f"../reference/{data['id']}.py")).resolve()
    problem = Problem(
        id=data["id"], title=data["title"], statement=data["statement"],
        entry_point=data["entry_point"], parameters=params, output_kind=out["kind"],
        fields=fields, rules=rules, probes=probes, limits={**DEFAULT_LIMITS, **data.get("limits", {})},
        cases=tuple(cases), path=path, reference=reference, raw=data,
        allowed_imports=tuple(data["allowed_imports"]) if "allowed_imports" in data else None,
        difficulty=data.get("difficulty"), tags=tuple(data.get("tags") or ()),
        hints=tuple(data.get("hints") or ()), related=tuple(data.get("related") or ()),
        editorial=data.get("editorial") or "",
        scoring=_scoring(data.get("scoring"), fail), conditions=conditions)
    known = dim_names(params) | leaf_dim_names(params)
    wanted = data.get("symbolic_dims")
    if any(p.kind == "tree" for p in params) and data.get("probe_shapes"):
        fail(["probe_shapes"], "a problem with tree parameters has no probe_shapes: its rules "
                               "read its cases' programs, traced with its dims as symbols "
                               "(symbolic_dims)")
    for i, name in enumerate(wanted or ()):
        if name not in known:
            fail(["symbolic_dims", i], f"{name!r} is not a dim name of the parameters' shapes "
                                       f"or of a tree's leaves"
                                       + (f" (dims: {', '.join(sorted(known))})" if known else ""))
    problem = replace(problem, symbolic_dims=tuple(sorted(known if wanted is None else wanted)),
                      function_primitives=tuple(data.get("function_primitives") or ()))
    for i, key, message in rule_registry.validate(rules, problem):
        fail(["rules", i, key], message)
    problem = replace(problem, probe_shapes=tuple(
        _probe_shape(raw, i, problem, fail) for i, raw in enumerate(data.get("probe_shapes") or [])))
    return (problem, errors) if collect else problem


def _conditions(raw: list, params, fail) -> tuple:
    """The ``constraints`` entries, parsed; a bad expression is an error at its ``check``."""
    from judge.problem import conditions

    names = [p.name for p in params]
    found = []
    for i, entry in enumerate(raw):
        try:
            found.append(conditions.parse(entry["check"], entry.get("says", ""), names, dim_names(params)))
        except conditions.ConditionError as exc:
            fail(["constraints", i, "check"], str(exc))
    return tuple(found)


def _scoring(raw, fail) -> tuple[ScoreGroup, ...]:
    """The ``scoring`` groups, in order; a duplicate group name or points that are not more
    than 0 is an error at the group's line (the schema says so too, for data never checked
    against it). Which cases a group matches is `judge check`'s to say (``judge.grade.scoring``)."""
    if raw is None:
        return ()
    groups, seen = [], set()
    for i, group in enumerate(raw["groups"]):
        name, points = group["name"], group["points"]
        if name in seen:
            fail(["scoring", "groups", i, "name"], f"a second group named {name!r}: group names "
                                                   "must be unique")
        seen.add(name)
        if isinstance(points, bool) or not isinstance(points, (int, float)) or not points > 0:
            fail(["scoring", "groups", i, "points"], f"group {name!r}: points must be a number "
                                                     f"more than 0, not {points!r}")
        groups.append(ScoreGroup(name=name, points=points, cases=tuple(group["cases"])))
    return tuple(groups)


def _parameter(raw: dict) -> Parameter:
    dtype = raw.get("dtype", ())
    leaves = tuple((pattern, _parameter({**leaf, "name": pattern, "kind": "array"}))
                   for pattern, leaf in (raw.get("leaves") or {}).items())
    return Parameter(
        name=raw["name"], kind=raw["kind"], traced=raw.get("traced", raw["kind"] in ("array", "tree")),
        leaves=leaves, structure_like=raw.get("structure_like"), min_leaves=raw.get("min_leaves"),
        max_leaves=raw.get("max_leaves"),
        dtypes=tuple([dtype] if isinstance(dtype, str) else dtype),
        ndim=tuple(raw.get("ndim", ())), min_size=raw.get("min_size"), max_size=raw.get("max_size"),
        finite=raw.get("finite", False), shape_like=raw.get("shape_like"),
        dtype_like=raw.get("dtype_like"), minimum=raw.get("minimum"),
        exclusive_minimum=raw.get("exclusive_minimum"), maximum=raw.get("maximum"),
        greater_than=raw.get("greater_than"), exclusive_maximum=raw.get("exclusive_maximum"),
        shape=tuple(raw["shape"]) if "shape" in raw else None)


def _with_dims(params, bounds: dict, fail) -> tuple:
    """The parameters with the spec's ``dims`` bounds attached to those whose shape names
    them; a symbolic shape on a scalar, or a bound on an unknown dim, is an error."""
    for i, p in enumerate(params):
        if p.shape is not None and p.kind != "array":
            fail(["parameters", i, "shape"], "only array parameters have a shape"
                 + (" (a tree's leaves have theirs, under leaves)" if p.kind == "tree" else ""))
        for steps, spec_ in [([], p)] + [(["leaves", pattern], leaf) for pattern, leaf in p.leaves]:
            if spec_.shape is not None and spec_.ndim and len(spec_.shape) not in spec_.ndim:
                fail(["parameters", i, *steps, "shape"],
                     f"has {len(spec_.shape)} dimensions but ndim allows {list(spec_.ndim)}")
    known = dim_names(params) | leaf_dim_names(params)
    for name, (low, high) in bounds.items():
        if name not in known:
            fail(["dims", name], f"{name!r} is not a dim name of any parameter's shape")
        if low > high:
            fail(["dims", name], f"the lowest extent {low} is above the highest {high}")
    for i, p in enumerate(params):  # a bound named by a dim: one the shapes have
        specs = [([], p)] + [(["leaves", pattern], leaf) for pattern, leaf in p.leaves]
        for steps, spec_ in specs:
            for attr in ("minimum", "exclusive_minimum", "maximum", "exclusive_maximum"):
                named = getattr(spec_, attr)
                if isinstance(named, str) and named not in known:
                    fail(["parameters", i, *steps, attr],
                         f"{named!r} is not a dim name of any parameter's shape"
                         + (f" (dims: {', '.join(sorted(known))})" if known else ""))

    def bounded(p):
        return replace(p, dim_bounds=tuple((d, *bounds[d]) for d in dict.fromkeys(p.shape or ())
                                           if isinstance(d, str) and d in bounds))

    return tuple(replace(bounded(p), leaves=tuple((pattern, bounded(leaf)) for pattern, leaf in p.leaves))
                 for p in params)


def _probe_shape(raw: dict, i: int, problem: Problem, fail) -> ProbeShape:
    """One ``probe_shapes`` entry with every array parameter's shape and every static value
    resolved (from its dims, its explicit shapes and the first example)."""
    steps = ["probe_shapes", i]
    params = problem.parameters
    names = {p.name for p in params}
    dims = dict(raw.get("dims") or {})
    unknown = sorted(set(dims) - dim_names(params))
    if unknown:
        fail(steps + ["dims"], f"{unknown[0]!r} is not a dim name of any parameter's shape")
    explicit = {k: tuple(v) for k, v in (raw.get("shapes") or {}).items()}
    for name in explicit:
        if name not in names or problem.parameter(name).kind != "array":
            fail(steps + ["shapes", name], f"{name!r} is not an array parameter")
    first = problem.examples[0].inputs if problem.examples else {}
    first_shapes = {k: np.shape(v) for k, v in first.items()}
    dims = {**bind_dims(params, first_shapes), **dims}  # dims not given: the first example's
    try:
        shapes = shapes_for(params, dims, {**first_shapes, **explicit})
    except KeyError as exc:
        fail(steps, f"{exc.args[0]!r} is not known here (no example gives it): add it to dims "
                    f"or shapes")
    values = dict(raw.get("values") or {})
    for p in params:
        if p.kind == "array":
            continue
        if p.name not in values:
            if p.name not in first:
                fail(steps + ["values"], f"give a value for the static parameter {p.name!r}")
            values[p.name] = first[p.name]
        values[p.name] = int(values[p.name]) if p.kind == "int" else float(values[p.name])
    extra = sorted(set(values) - names)
    if extra:
        fail(steps + ["values", extra[0]], f"{extra[0]!r} is not a parameter")
    for name, shape in shapes.items():
        p = problem.parameter(name)
        if p.ndim and len(shape) not in p.ndim:
            fail(steps, f"{name} would have {len(shape)} dimensions, allowed: {list(p.ndim)}")
    dtypes = {p.name: str(first[p.name].dtype) if p.name in first else p.dtypes[0]
              for p in params if p.traced}
    return ProbeShape(name=raw["name"], shapes=shapes, values=values, dtypes=dtypes)


def _field(name: str, raw: dict, base_tol: dict) -> OutputField:
    return OutputField(name=name, shape_like=raw.get("shape_like"), dtype=raw.get("dtype"),
                       dtype_like=raw.get("dtype_like"),
                       tolerance={**base_tol, **raw.get("tolerance", {})},
                       shape=tuple(raw["shape"]) if "shape" in raw else None,
                       structure_like=raw.get("structure_like"))
