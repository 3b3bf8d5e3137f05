"""Case data against a problem's signature: turn YAML inputs into typed values and check them
against the parameters' constraints. The same checks serve loading, `judge check` and generators.
"""

from __future__ import annotations

import math

import numpy as np

from judge.problem import layout
from judge.problem.model import bind_dims, leaf_name, leaf_spec, np_dtype, tree_leaves

#: The longest key a tree's mapping may have (the worker's channel carries no longer one).
MAX_KEY = 100


class CaseDataError(ValueError):
    """A case whose data does not fit the spec; ``steps`` is the path inside the case."""

    def __init__(self, steps: list, message: str):
        super().__init__(message)
        self.steps = steps


def _as_array(value, dtype: np.dtype, steps: list) -> np.ndarray:
    try:
        arr = np.array(value, dtype=np.float64 if dtype.kind in "Vf" else None)
        if arr.dtype == object or arr.dtype.kind not in "biuf":
            raise ValueError
    except (ValueError, TypeError):
        raise CaseDataError(steps, "must be a (nested) list of numbers with a regular shape") from None
    if dtype.kind == "b" and arr.dtype.kind != "b" and arr.size:
        raise CaseDataError(steps, f"must hold true and false (a {dtype} array), not numbers")
    if dtype.kind in "iu" and arr.size:
        whole = arr.dtype.kind in "biu" or bool(np.all(np.isfinite(arr) & (arr == np.round(arr))))
        info = np.iinfo(dtype)
        if not whole or arr.min() < info.min or arr.max() > info.max:
            raise CaseDataError(steps, f"must hold whole numbers from {info.min} to {info.max} "
                                       f"(a {dtype} array)")
    with np.errstate(over="ignore"):
        return arr.astype(dtype)


def check_inputs(params, raw: dict, conditions=()) -> dict:
    """Typed inputs for one case; raise CaseDataError naming the parameter on any violation
    (``conditions``: the spec's ``constraints``, ``judge.problem.conditions``)."""
    values, broken = input_violations(params, raw, conditions)
    if broken:
        raise broken[0]
    return values


def input_violations(params, raw: dict, conditions=()) -> tuple[dict, list[CaseDataError]]:
    """Typed inputs for one case and a CaseDataError for every constraint they break (in the
    order of ``violations``). Raise CaseDataError at the first value that cannot be typed."""
    if not isinstance(raw, dict):
        raise CaseDataError(["input"], "must be a mapping from parameter name to value")
    names = [p.name for p in params]
    missing = [n for n in names if n not in raw]
    extra = [n for n in raw if n not in names]
    if missing or extra:
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + \
                ([f"unknown {', '.join(map(str, extra))}"] if extra else [])
        raise CaseDataError(["input"], "; ".join(parts))
    values = {}
    for p in params:
        steps = ["input", p.name]
        value = raw[p.name]
        if p.kind == "array":
            dtype_name = p.dtypes[0]
            if isinstance(value, dict):  # {dtype: bfloat16, data: [...]} picks another allowed dtype
                if sorted(value) != ["data", "dtype"] or value["dtype"] not in p.dtypes:
                    raise CaseDataError(steps, "an array given as a mapping needs 'dtype' (one of "
                                               f"{', '.join(p.dtypes)}) and 'data'")
                dtype_name, value = value["dtype"], value["data"]
            values[p.name] = _as_array(value, np_dtype(dtype_name), steps)
        elif p.kind == "tree":
            values[p.name] = _as_tree(p, value, steps, ())
        elif p.kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise CaseDataError(steps, f"must be a number, got {type(value).__name__}")
            values[p.name] = float(value)
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise CaseDataError(steps, f"must be an integer, got {type(value).__name__}")
            values[p.name] = int(value)
    return values, [CaseDataError(["input"] if name is None else ["input", name], message)
                    for name, message in violations(params, values, conditions)]


def _as_tree(p, value, steps: list, path: tuple) -> dict:
    """A tree's YAML mapping as nested dicts of arrays, each leaf in its pattern's dtype."""
    if not isinstance(value, dict):
        raise CaseDataError(steps, "must be a mapping (a tree): each key a name, each value an "
                                   "array (a number or nested lists) or a mapping")
    if not value:
        raise CaseDataError(steps, "is an empty mapping: every mapping of a tree holds at least "
                                   "one leaf")
    out = {}
    for key, item in value.items():
        here = steps + [key]
        if not isinstance(key, str) or not key or len(key) > MAX_KEY or "/" in key:
            raise CaseDataError(steps, f"a tree's keys are names of 1 to {MAX_KEY} characters "
                                       f"without '/' (it joins a leaf's path), not {key!r}")
        if isinstance(item, dict):
            out[key] = _as_tree(p, item, here, path + (key,))
            continue
        leaf = leaf_spec(p, path + (key,))
        if leaf is None:
            patterns = ", ".join(repr(pattern) for pattern, _ in p.leaves)
            raise CaseDataError(here, f"no pattern of {p.name}'s leaves ({patterns}) matches "
                                      f"{'/'.join(path + (key,))!r}")
        out[key] = _as_array(item, np_dtype(leaf.dtypes[0]), here)
    return out


def _bound(value, dims: dict):
    """A bound as a number: a dim's name stands for the case's extent of it (None if unbound)."""
    return dims.get(value) if isinstance(value, str) else value


def _entry_violations(p, arr: np.ndarray, dims: dict) -> list[str]:
    """Entries of an array outside the parameter's ``minimum``/``maximum`` bounds (each bound a
    number or a dim's name): how many, and the first."""
    found = []
    values = arr.astype(np.float64)
    for attr, bad, words in (("minimum", np.less, "below the minimum"),
                             ("exclusive_minimum", np.less_equal, "not above"),
                             ("maximum", np.greater, "above the maximum"),
                             ("exclusive_maximum", np.greater_equal, "not below")):
        raw = getattr(p, attr)
        limit = _bound(raw, dims)
        if limit is None or values.size == 0:
            continue
        with np.errstate(invalid="ignore"):
            wrong = bad(values, limit) | np.isnan(values)
        if wrong.any():
            first = tuple(int(i) for i in np.argwhere(wrong)[0])
            named = f"{limit:g}" + (f" ({raw})" if isinstance(raw, str) else "")
            found.append(f"{int(wrong.sum())} of {values.size} entries are {words} {named}; first at "
                         f"[{', '.join(map(str, first))}]: {arr[first]!r}")
    return found


def _array_violations(p, arr: np.ndarray, values: dict, dims: dict, bound_dims: dict) -> list[str]:
    """What is wrong with one array (a parameter, or a tree's leaf with its leaf spec)."""
    found = []
    dtype = str(arr.dtype)
    if dtype not in p.dtypes:
        found.append(f"dtype {dtype} is not one of {', '.join(p.dtypes)}")
    if p.ndim and arr.ndim not in p.ndim:
        found.append(f"has {arr.ndim} dimensions, allowed: {list(p.ndim)}")
    if p.max_size is not None and arr.size > p.max_size:
        found.append(f"has {arr.size} entries, at most {p.max_size} allowed")
    if p.min_size is not None and arr.size < p.min_size:
        found.append(f"has {arr.size} entries, at least {p.min_size} required")
    if p.finite and not np.all(np.isfinite(arr.astype(np.float64))):
        found.append("must be finite (no NaN or infinity; also check for overflow of the dtype)")
    if p.shape_like and np.shape(values[p.shape_like]) != arr.shape:
        found.append(f"shape {arr.shape} differs from {p.shape_like}'s "
                     f"{np.shape(values[p.shape_like])}")
    if p.dtype_like and np.asarray(values[p.dtype_like]).dtype != arr.dtype:
        found.append(f"dtype {arr.dtype} differs from {p.dtype_like}'s")
    if p.shape is not None:
        found.extend(_shape_violations(p, arr.shape, dims))
    if arr.dtype.kind != "b":
        found.extend(_entry_violations(p, arr, bound_dims))
    return found


def _tree_violations(p, tree: dict, values: dict, dims: dict, bound_dims: dict) -> list[str]:
    """What is wrong with a tree: its leaf count, its structure against ``structure_like``'s,
    and each leaf against its spec (named by its path)."""
    found = []
    leaves = tree_leaves(tree)
    if p.min_leaves is not None and len(leaves) < p.min_leaves:
        found.append(f"has {len(leaves)} leaves, at least {p.min_leaves} required")
    if p.max_leaves is not None and len(leaves) > p.max_leaves:
        found.append(f"has {len(leaves)} leaves, at most {p.max_leaves} allowed")
    if p.structure_like:
        other = values[p.structure_like]
        mine = sorted((path, np.shape(leaf)) for path, leaf in leaves)
        theirs = sorted((path, np.shape(leaf)) for path, leaf in tree_leaves(other))
        if mine != theirs:
            found.append(f"must have the keys and leaf shapes of {p.structure_like}: "
                         f"{_shapes_text(mine)} vs {_shapes_text(theirs)}")
    for path, leaf in leaves:
        spec = leaf_spec(p, path)
        if spec is not None:
            found.extend(f"{leaf_name(p.name, path)}: {m}"
                         for m in _array_violations(spec, np.asarray(leaf), values, dims, bound_dims))
    return found


def _shapes_text(pairs) -> str:
    shown = ", ".join(f"{'/'.join(path)} {tuple(shape)}" for path, shape in pairs[:6])
    return "{" + shown + (", ..." if len(pairs) > 6 else "") + "}"


def violations(params, values: dict, conditions=()) -> list[tuple[str | None, str]]:
    """Every (parameter, message) constraint violation of typed inputs; then (None, message)
    for each of the spec's ``constraints`` (``conditions``) they break, checked only on inputs
    that meet every parameter's own."""
    found = []
    dims: dict = {}  # dim name -> (extent, the parameter that fixed it)
    bound_dims = bind_dims(params, {p.name: np.shape(values[p.name]) for p in params
                                    if p.kind == "array"})
    for p in params:  # dims named only in a tree's leaves: the first leaf that names one
        if p.kind == "tree" and isinstance(values[p.name], dict):
            for path, leaf in tree_leaves(values[p.name]):
                spec = leaf_spec(p, path)
                if spec is not None and spec.shape is not None and len(spec.shape) == np.ndim(leaf):
                    for name, extent in zip(spec.shape, np.shape(leaf)):
                        if isinstance(name, str):
                            bound_dims.setdefault(name, int(extent))
    for p in params:
        v = values[p.name]
        if p.kind == "array":
            found.extend((p.name, m) for m in _array_violations(p, np.asarray(v), values, dims, bound_dims))
        elif p.kind == "tree":
            found.extend((p.name, m) for m in _tree_violations(p, v, values, dims, bound_dims))
        else:
            if not math.isfinite(v):
                found.append((p.name, "must be finite"))
            if p.minimum is not None and v < p.minimum:
                found.append((p.name, f"{v} is below the minimum {p.minimum}"))
            if p.exclusive_minimum is not None and v <= p.exclusive_minimum:
                found.append((p.name, f"{v} must be greater than {p.exclusive_minimum}"))
            if p.maximum is not None and v > p.maximum:
                found.append((p.name, f"{v} is above the maximum {p.maximum}"))
            if p.exclusive_maximum is not None and v >= p.exclusive_maximum:
                found.append((p.name, f"{v} must be less than {p.exclusive_maximum}"))
            if p.greater_than and not v > values[p.greater_than]:
                found.append((p.name, f"{v} must be greater than {p.greater_than} "
                                      f"({values[p.greater_than]})"))
    if conditions and not found:
        from judge.problem import conditions as _conditions

        extents = {name: extent for name, (extent, _) in dims.items()}
        found.extend((None, m) for m in _conditions.broken(conditions, values, extents))
    return found


def _shape_violations(p, shape: tuple, dims: dict) -> list[str]:
    """What is wrong with ``shape`` against the parameter's symbolic shape; ``dims`` holds the
    extents earlier parameters fixed and learns this one's."""
    if len(shape) != len(p.shape):
        want = "[" + ", ".join(map(str, p.shape)) + "]"
        return [f"has shape {tuple(shape)}, expected {len(p.shape)} dimensions {want}"]
    found = []
    bounds = {name: (low, high) for name, low, high in p.dim_bounds}
    for axis, (name, extent) in enumerate(zip(p.shape, shape)):
        if isinstance(name, int):
            if extent != name:
                found.append(f"dimension {axis} is {extent}, must be {name}")
            continue
        if name in dims and dims[name][0] != extent:
            found.append(f"dimension {axis} ({name}) is {extent}, but {name} is {dims[name][0]} "
                         f"in {dims[name][1]}")
            continue
        dims.setdefault(name, (extent, p.name))
        if name in bounds and not bounds[name][0] <= extent <= bounds[name][1]:
            found.append(f"dimension {axis} ({name}) is {extent}, allowed {bounds[name][0]} to "
                         f"{bounds[name][1]}")
    return found


def _nesting(slots, raw, prefix: tuple, steps: list) -> None:
    """``raw`` has exactly the mappings the slots' paths go through below ``prefix``."""
    keys = layout.keys_at(slots, prefix)
    if not keys:
        return
    if not isinstance(raw, dict):
        raise CaseDataError(steps, f"must be a mapping with exactly {keys}")
    if sorted(map(str, raw)) != sorted(map(str, keys)):
        missing = [k for k in keys if k not in raw]
        extra = [k for k in raw if k not in keys]
        parts = ([f"missing {missing}"] if missing else []) + ([f"unknown {extra}"] if extra else [])
        if steps == ["expected"]:  # the output's own fields
            raise CaseDataError(steps, f"has fields {sorted(map(str, raw))}, the output has "
                                       f"{sorted(map(str, keys))}")
        raise CaseDataError(steps, f"has keys {list(raw)}, expected exactly {keys}: " + "; ".join(parts))
    for key in keys:
        _nesting(slots, raw[key], prefix + (key,), steps + [key])


def parse_slots(slots, raw, root: str, finite: bool = False) -> dict:
    """The values of ``slots`` (``judge.problem.layout``) read from a case's ``raw`` data under
    ``root`` ("expected" or "probe"), typed and shaped; CaseDataError names the step."""
    _nesting(slots, raw, (), [root])
    out = {}
    for s in slots:
        steps = [root, *s.path]
        arr = _as_array(layout.pick(raw, s.path), s.dtype, steps)
        if s.shape is not None and arr.shape != s.shape:
            raise CaseDataError(steps, f"shape {arr.shape} differs from the input's {s.shape}"
                                if s.like == "input" else f"shape {arr.shape}, expected {s.shape}")
        if finite and not np.all(np.isfinite(arr.astype(np.float64))):
            raise CaseDataError(steps, "must be finite")
        out[s.key] = arr
    return out


def parse_outputs(problem, raw_expected, raw_probe, inputs: dict) -> tuple[dict, dict]:
    """A case's expected values (the output's leaves and the probes' results, by key) and its
    probe inputs (the cotangent, the tangents), typed and shaped (``judge.problem.layout``)."""
    if problem.probes:
        wanted = ["value"] + [p.name for p in problem.probes]
        if not isinstance(raw_expected, dict) or sorted(raw_expected) != sorted(wanted):
            raise CaseDataError(["expected"], f"must be a mapping with exactly {wanted}")
    elif raw_probe is not None:
        raise CaseDataError(["probe"], "the problem declares no probes")
    expected = parse_slots(layout.expected_slots(problem, inputs), raw_expected, "expected")
    probe_inputs = {}
    if problem.probes:
        slots = layout.input_slots(problem, inputs)
        needed = sorted(p.input for p in problem.probes)
        if not isinstance(raw_probe, dict) or sorted(raw_probe) != needed:
            raise CaseDataError(["probe"], f"must give exactly {needed}")
        probe_inputs = parse_slots(slots, raw_probe, "probe", finite=True)
    return expected, probe_inputs
