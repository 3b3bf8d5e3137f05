"""The problem model: the frozen dataclasses a loaded spec becomes, the default limits and
tolerances, and how an output field's expected dtype and shape follow from a case's inputs.

A leaf: it imports nothing else from the judge, so the loader (``spec``), the case checks
(``constraints``) and every later stage can share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

import numpy as np

DEFAULT_TOLERANCE = {"rtol": 0.0, "atol": 0.0, "signed_zero": False}
DEFAULT_LIMITS = {"time_per_case_s": 10.0, "startup_s": 60.0, "cpu_s": 120.0, "memory_mb": 2048,
                  "output_kb": 1024, "wall_s": 600.0, "tasks": 512}


@dataclass(frozen=True)
class Parameter:
    name: str
    kind: str                      # "array", "float", "int" or "tree" (a leaf's spec: "array")
    traced: bool
    dtypes: tuple[str, ...] = ()
    ndim: tuple[int, ...] = ()
    min_size: int | None = None
    max_size: int | None = None
    finite: bool = False
    shape_like: str | None = None
    dtype_like: str | None = None
    #: bounds: of a number, or of every entry of an array (a number, or a dim's name there)
    minimum: float | str | None = None
    exclusive_minimum: float | str | None = None
    maximum: float | str | None = None
    greater_than: str | None = None
    exclusive_maximum: float | str | None = None
    #: symbolic shape: each entry an int (a fixed extent) or a dim name shared across parameters
    shape: tuple[int | str, ...] | None = None
    #: (dim name, lowest, highest extent) for each dim of ``shape`` the spec's ``dims`` bounds
    dim_bounds: tuple[tuple[str, int, int], ...] = ()
    #: a tree's leaves: (glob over the leaf's path, the leaf's spec as an array Parameter named
    #: by the glob), the first match applies; the tree another tree's structure follows; leaf counts
    leaves: tuple[tuple[str, "Parameter"], ...] = ()
    structure_like: str | None = None
    min_leaves: int | None = None
    max_leaves: int | None = None


@dataclass(frozen=True)
class OutputField:
    name: str
    shape_like: str | None
    dtype: str | None
    dtype_like: str | None
    tolerance: dict
    #: the shape in the parameters' dims (``[n, m]``, ``[]``), or the tree parameter the field
    #: (or a ``tree`` output) is shaped like, leaf by leaf
    shape: tuple[int | str, ...] | None = None
    structure_like: str | None = None


@dataclass(frozen=True)
class Probe:
    """A derivative the judge computes through the submission's function on every case."""

    name: str          # "vjp" or "jvp"
    input: str         # the case's probe input: "cotangent" or "tangent"
    wrt: tuple[str, ...]  # the parameters differentiated
    tolerance: dict
    #: the spec named the parameters as a list: results and tangents are mappings by parameter
    #: (``expected.vjp.X``); else the one parameter's (``expected.vjp``)
    listed: bool = False

    @property
    def wrt_text(self) -> str:
        return ", ".join(self.wrt)


PROBE_INPUTS = {"vjp": "cotangent", "jvp": "tangent"}


@dataclass(frozen=True)
class ProbeShape:
    """Shapes at which the rules are checked by tracing alone (nothing runs, nothing stored)."""

    name: str
    shapes: dict                    # every array parameter -> shape tuple
    values: dict                    # every static parameter -> Python number
    dtypes: dict = field(default_factory=dict)  # every traced parameter -> dtype name
    #: dims traced as symbols: name -> (lowest, highest or None); a shape's extent that names
    #: one of them is that symbol (``judge.worker.symbolic``)
    symbols: dict = field(default_factory=dict)
    #: every tree parameter traced with its leaves' shapes given here (``tree_extents``): name ->
    #: the tree's extents, nested as the tree, each leaf a tuple of ints and dim names; its
    #: ``dtypes`` entry nested alike. A tree not here is traced at its own leaves (in ``values``).
    trees: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Case:
    index: int                      # position among all cases, examples first
    name: str
    visibility: str                 # "example" or "hidden"
    inputs: dict                    # parameter name -> np.ndarray | float | int
    expected: dict                  # output field name (and probe name) -> np.ndarray
    text: str = ""                  # explanation (examples) or note (hidden)
    probe_inputs: dict = field(default_factory=dict)  # "cotangent"/"tangent" -> np.ndarray
    #: position in its own list of the spec (``examples:`` or ``hidden:``), from 0: every report
    #: calls this case ``example N`` or ``hidden N`` (``case_label``)
    number: int = 0

    @property
    def label(self) -> str:
        """``example N`` or ``hidden N``, without the name (``case_label(case, named=False)``)."""
        return case_label(self, named=False)


@dataclass(frozen=True)
class ScoreGroup:
    """One group of the spec's ``scoring``: ``points`` earned when every case whose name the
    first matching group's ``cases`` globs match passes (``judge.grade.scoring``)."""

    name: str
    points: float
    cases: tuple[str, ...]          # fnmatch globs over case names


def seconds(value) -> str:
    """A limit in seconds as the spec states it: ``10`` and ``10.0`` both as ``10``, ``2.5`` as
    ``2.5``."""
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


def case_number(case) -> int:
    """The ``N`` of ``example N`` / ``hidden N``: the case's position in the spec's ``examples:``
    or ``hidden:`` list (a result without one falls back to its ``index``)."""
    number = getattr(case, "number", None)
    return case.index if number is None else number


def case_label(case, named: bool | None = None) -> str:
    """How every report names a case (a ``Case`` or a graded ``CaseResult``): ``example N`` or
    ``hidden N``, followed by `` (name)`` when ``named``. By default (None) only an example is
    named, as students see cases (a hidden case's name is not theirs to know); author tools
    (`judge check`, `judge fill`) name every case."""
    text = f"{case.visibility} {case_number(case)}"
    if named is None:
        named = case.visibility == "example"
    return f"{text} ({case.name})" if named else text


@dataclass(frozen=True)
class Problem:
    id: str
    title: str
    statement: str
    entry_point: str
    parameters: tuple[Parameter, ...]
    output_kind: str                # "dict", "array" or "tree"
    fields: tuple[OutputField, ...]
    rules: tuple[dict, ...]
    probes: tuple[Probe, ...]
    limits: dict
    cases: tuple[Case, ...]
    path: Path
    reference: Path
    raw: dict = field(repr=False, compare=False, default_factory=dict)
    #: Modules a submission may import (a module allows its submodules); None: the source gate's
    #: default (``judge.gate.DEFAULT_ALLOWED_IMPORTS``).
    allowed_imports: tuple[str, ...] | None = None
    probe_shapes: tuple[ProbeShape, ...] = ()
    #: The dims the rules decide on as symbols (``symbolic_dims``; default every dim name of
    #: the parameters' shapes) and the primitives carrying a function it admits beyond the
    #: default list (``function_primitives``).
    symbolic_dims: tuple[str, ...] = ()
    function_primitives: tuple[str, ...] = ()
    #: The problem page (all optional; ``judge show``, ``judge list``): "easy", "medium", "hard"
    #: or None; topic tags; hints revealed in order (``judge show --hints N``: not the hints of
    #: known mistakes, ``judge.grade.hints``); ids of related problems.
    difficulty: str | None = None
    tags: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    #: The author's write-up (``editorial``, Markdown), shown to a student once they have solved
    #: the problem (the service's page); empty when the spec has none.
    editorial: str = ""
    #: The spec's ``scoring`` groups, in order (a case belongs to the first that matches it);
    #: empty: each case is worth one point.
    scoring: tuple[ScoreGroup, ...] = ()
    #: The spec's ``constraints`` between inputs, checked on every case
    #: (``judge.problem.conditions``).
    conditions: tuple = ()

    @property
    def examples(self) -> tuple[Case, ...]:
        return tuple(c for c in self.cases if c.visibility == "example")

    @property
    def hidden(self) -> tuple[Case, ...]:
        return tuple(c for c in self.cases if c.visibility == "hidden")

    def parameter(self, name: str) -> Parameter:
        return next(p for p in self.parameters if p.name == name)

    def rule(self, rule_id: str) -> dict | None:
        return next((r for r in self.rules if r["id"] == rule_id), None)


def np_dtype(name: str) -> np.dtype:
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def expected_dtype(f: OutputField, inputs: dict) -> np.dtype:
    if f.dtype is not None:
        return np_dtype(f.dtype)
    return np.asarray(inputs[f.dtype_like]).dtype


def expected_shape(f: OutputField, inputs: dict, parameters=()) -> tuple | None:
    """The field's shape on a case: its ``shape_like`` parameter's, or its symbolic ``shape``
    with the dims the case's inputs bind (``parameters`` needed then); None: any."""
    if f.shape_like is not None:
        return np.shape(inputs[f.shape_like])
    if f.shape is None:
        return None
    dims = bind_dims(parameters, {p.name: np.shape(inputs[p.name]) for p in parameters
                                  if p.kind == "array" and p.name in inputs})
    return tuple(dims[d] if isinstance(d, str) else d for d in f.shape)


def tree_leaves(value, path: tuple = ()) -> list[tuple[tuple, object]]:
    """(path, leaf) of every leaf of a nested dict, depth first in the dicts' own order; a
    value that is no dict is one leaf at ``path``."""
    if not isinstance(value, dict):
        return [(path, value)]
    found = []
    for key, item in value.items():
        found.extend(tree_leaves(item, path + (key,)))
    return found


def leaf_name(root: str, path: tuple) -> str:
    """How reports name a tree's leaf: ``params["w"]`` (``root`` alone for the whole value)."""
    return root + "".join(f'["{k}"]' for k in path)


def dim_names(parameters) -> set[str]:
    """Every dim name of the parameters' symbolic shapes."""
    return {d for p in parameters for d in (p.shape or ()) if isinstance(d, str)}


def leaf_dim_names(parameters) -> set[str]:
    """Every dim name of the symbolic shapes of tree parameters' leaves (``leaves: {w: {shape:
    [d, k]}}``): checked on every case and bounded by ``dims`` like an array's, usable as an
    array's bound (``exclusive_maximum: k``), and traced as a symbol like an array's dim."""
    return {d for p in parameters if p.kind == "tree" for _, leaf in p.leaves
            for d in (leaf.shape or ()) if isinstance(d, str)}


def dim_ranges(parameters) -> dict:
    """name -> (lowest, highest or None) for every dim name (a tree leaf's too); the spec's
    ``dims`` bounds, else from 1 without an upper bound."""
    found = {name: (1, None) for name in sorted(dim_names(parameters) | leaf_dim_names(parameters))}
    for p in parameters:
        for spec in (p, *(leaf for _, leaf in p.leaves)):
            for name, low, high in spec.dim_bounds:
                found[name] = (max(1, low), high)
    return found


def bind_dims(parameters, shapes: dict, trees: dict | None = None) -> dict:
    """Each dim name's extent in ``shapes`` (parameter -> shape tuple), then in ``trees`` (tree
    parameter -> its leaves' shapes, nested as the tree: ``tree_shapes``); the first parameter
    that names a dim decides it (``constraints`` checks that the others agree). An extent that
    is a symbol's name (a trace with symbolic dims) stays that name."""
    dims: dict = {}
    named = [(p.shape, shapes.get(p.name)) for p in parameters]
    for p in parameters:
        if p.kind == "tree" and trees and isinstance(trees.get(p.name), dict):
            named += [(_leaf_shape(p, path), shape) for path, shape in tree_leaves(trees[p.name])]
    for symbolic, shape in named:
        if symbolic is None or shape is None or len(shape) != len(symbolic):
            continue
        for name, extent in zip(symbolic, shape):
            if isinstance(name, str):
                dims.setdefault(name, extent if isinstance(extent, str) else int(extent))
    return dims


def leaf_spec(p: Parameter, path: tuple) -> Parameter | None:
    """The spec of the tree ``p``'s leaf at ``path``: the first of its ``leaves`` patterns that
    matches the path's keys joined by ``/``; None when none does."""
    text = "/".join(map(str, path))
    return next((leaf for pattern, leaf in p.leaves if fnmatchcase(text, pattern)), None)


def _leaf_shape(p: Parameter, path: tuple) -> tuple | None:
    spec = leaf_spec(p, path)
    return None if spec is None else spec.shape


def tree_shapes(tree) -> dict:
    """A tree's leaves' shapes, nested as the tree (a leaf's shape a tuple of ints)."""
    if not isinstance(tree, dict):
        return tuple(int(e) for e in np.shape(tree))
    return {key: tree_shapes(item) for key, item in tree.items()}


def tree_extents(p: Parameter, tree, dims: dict) -> dict:
    """The leaves' shapes of the tree ``p`` (a value, or its shapes: ``tree_shapes``) nested
    as it is, each leaf whose spec has a symbolic ``shape`` given in ``dims`` (name -> an
    extent, or a symbol's name); a leaf without one keeps its own shape."""
    def extents(item, path):
        if isinstance(item, dict):
            return {key: extents(value, path + (key,)) for key, value in item.items()}
        own = tuple(item) if isinstance(item, tuple) else tuple(int(e) for e in np.shape(item))
        symbolic = _leaf_shape(p, path)
        if symbolic is None or len(symbolic) != len(own):
            return own
        return tuple(dims.get(d, e) if isinstance(d, str) else d for d, e in zip(symbolic, own))
    return extents(tree, ())


def shapes_for(parameters, dims: dict, base: dict | None = None) -> dict:
    """Every array parameter's shape for dim extents ``dims``: from its symbolic ``shape``,
    else its ``shape_like`` source's, else its shape in ``base`` (parameter -> shape tuple);
    KeyError names a dim or a parameter whose shape cannot be known."""
    shapes: dict = {}
    pending = [p for p in parameters if p.kind == "array"]
    while pending:
        progress = False
        for p in list(pending):
            if p.shape is not None:
                missing = [d for d in p.shape if isinstance(d, str) and d not in dims]
                if missing:
                    raise KeyError(missing[0])
                shapes[p.name] = tuple(dims[d] if isinstance(d, str) else d for d in p.shape)
            elif p.shape_like is not None and p.shape_like in shapes:
                shapes[p.name] = shapes[p.shape_like]
            elif p.shape_like is None and base is not None and p.name in base:
                shapes[p.name] = tuple(base[p.name])
            else:
                continue
            pending.remove(p)
            progress = True
        if not progress:
            raise KeyError(pending[0].name)
    return shapes
