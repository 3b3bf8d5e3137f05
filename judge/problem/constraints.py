"""Case data against a problem's signature: turn YAML inputs into typed values and check them
against the parameters' constraints. The same checks serve loading, `judge check` and generators.
"""

from __future__ import annotations

import math

import numpy as np

from judge.problem.model import expected_dtype, expected_shape, np_dtype


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
    with np.errstate(over="ignore"):
        return arr.astype(dtype)


def check_inputs(params, raw: dict) -> dict:
    """Typed inputs for one case; raise CaseDataError naming the parameter on any violation."""
    values, broken = input_violations(params, raw)
    if broken:
        raise broken[0]
    return values


def input_violations(params, raw: dict) -> tuple[dict, list[CaseDataError]]:
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
        elif p.kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise CaseDataError(steps, f"must be a number, got {type(value).__name__}")
            values[p.name] = float(value)
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise CaseDataError(steps, f"must be an integer, got {type(value).__name__}")
            values[p.name] = int(value)
    return values, [CaseDataError(["input", name], message)
                    for name, message in violations(params, values)]


def violations(params, values: dict) -> list[tuple[str, str]]:
    """Every (parameter, message) constraint violation of typed inputs."""
    found = []
    dims: dict = {}  # dim name -> (extent, the parameter that fixed it)
    for p in params:
        v = values[p.name]
        if p.kind == "array":
            arr = np.asarray(v)
            dtype = str(arr.dtype)
            if dtype not in p.dtypes:
                found.append((p.name, f"dtype {dtype} is not one of {', '.join(p.dtypes)}"))
            if p.ndim and arr.ndim not in p.ndim:
                found.append((p.name, f"has {arr.ndim} dimensions, allowed: {list(p.ndim)}"))
            if p.max_size is not None and arr.size > p.max_size:
                found.append((p.name, f"has {arr.size} entries, at most {p.max_size} allowed"))
            if p.min_size is not None and arr.size < p.min_size:
                found.append((p.name, f"has {arr.size} entries, at least {p.min_size} required"))
            if p.finite and not np.all(np.isfinite(arr.astype(np.float64))):
                found.append((p.name, "must be finite (no NaN or infinity; "
                                      "also check for overflow of the dtype)"))
            if p.shape_like and np.shape(values[p.shape_like]) != arr.shape:
                found.append((p.name, f"shape {arr.shape} differs from {p.shape_like}'s "
                                      f"{np.shape(values[p.shape_like])}"))
            if p.dtype_like and np.asarray(values[p.dtype_like]).dtype != arr.dtype:
                found.append((p.name, f"dtype {arr.dtype} differs from {p.dtype_like}'s"))
            if p.shape is not None:
                found.extend((p.name, m) for m in _shape_violations(p, arr.shape, dims))
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


def parse_expected(fields, kind: str, raw, inputs: dict, params) -> dict:
    """Expected outputs of one case as arrays of the fields' dtypes and shapes."""

    if kind == "array":
        raw = {"value": raw}
    elif not isinstance(raw, dict):
        raise CaseDataError(["expected"], "must be a mapping with the output's fields")
    names = [f.name for f in fields]
    if sorted(raw) != sorted(names):
        raise CaseDataError(["expected"], f"has fields {sorted(raw)}, the output has {sorted(names)}")
    out = {}
    for f in fields:
        steps = ["expected"] + ([f.name] if kind == "dict" else [])
        arr = _as_array(raw[f.name], expected_dtype(f, inputs), steps)
        shape = expected_shape(f, inputs)
        if shape is not None and arr.shape != shape:
            raise CaseDataError(steps, f"shape {arr.shape} differs from the input's {shape}")
        out[f.name] = arr
    return out


def split_probe_expected(raw, probes) -> tuple:
    """With probes, ``expected`` is a mapping of ``value`` and each probe's name."""
    names = ["value"] + [p.name for p in probes]
    if not isinstance(raw, dict) or sorted(raw) != sorted(names):
        raise CaseDataError(["expected"], f"must be a mapping with exactly {names}")
    return raw["value"], {p.name: raw[p.name] for p in probes}


def parse_probes(probes, raw, expected_raw: dict, inputs: dict, value: np.ndarray) -> tuple[dict, dict]:
    """Probe inputs and expected probe results, typed and shaped: a cotangent is shaped like the
    output, a tangent like the probed parameter; a VJP result is shaped like the parameter and a
    JVP result like the output."""
    needed = sorted(p.input for p in probes)
    if not isinstance(raw, dict) or sorted(raw) != needed:
        raise CaseDataError(["probe"], f"must give exactly {needed}")
    wrt = np.asarray(inputs[probes[0].wrt])
    like = {"cotangent": value, "tangent": wrt, "vjp": wrt, "jvp": value}
    probe_inputs, expected = {}, {}
    for p in probes:
        for key, source, out, steps in ((p.input, raw, probe_inputs, ["probe", p.input]),
                                        (p.name, expected_raw, expected, ["expected", p.name])):
            ref = like[key]
            arr = _as_array(source[key], ref.dtype, steps)
            if arr.shape != ref.shape:
                raise CaseDataError(steps, f"shape {arr.shape}, expected {ref.shape}")
            if not np.all(np.isfinite(arr.astype(np.float64))) and key in ("cotangent", "tangent"):
                raise CaseDataError(steps, "must be finite")
            out[key] = arr
    return probe_inputs, expected
