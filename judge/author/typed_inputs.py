"""A generator's candidate inputs as the loader types them (trees leaf by leaf), and their
bitwise identity (what makes two candidates the same case)."""

from __future__ import annotations

import struct

import numpy as np

from judge.problem import constraints, model


def input_key(inputs: dict, probe: dict) -> tuple:
    """Bitwise identity of a case's inputs and probe inputs."""
    parts = []
    for prefix, values in (("in", inputs), ("probe", probe)):
        for name in sorted(values):
            v = values[name]
            if isinstance(v, dict):  # a tree: its leaves by path
                parts.append((prefix, name, "tree", input_key(
                    {"/".join(map(str, path)): leaf for path, leaf in model.tree_leaves(v)}, {})))
            elif isinstance(v, np.ndarray):
                parts.append((prefix, name, str(v.dtype), v.shape, v.tobytes()))
            elif isinstance(v, float):
                parts.append((prefix, name, "float", struct.pack("<d", v)))
            else:
                parts.append((prefix, name, "int", int(v)))
    return tuple(parts)


def same(a, b) -> bool:
    """Bitwise equality of two typed values (arrays, floats, ints, trees of arrays)."""
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict) and list(a) == list(b)
                and all(same(a[k], b[k]) for k in a))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype
                and a.shape == b.shape and a.tobytes() == b.tobytes())
    if isinstance(a, float):
        return isinstance(b, float) and struct.pack("<d", a) == struct.pack("<d", b)
    return type(a) is type(b) and a == b


def typed(problem, raw_inputs: dict) -> dict:
    """A generator's values as the loader types them: arrays keep their dtype (lists take the
    parameter's default), numbers become Python float or int."""
    out = {}
    for p in problem.parameters:
        v = raw_inputs[p.name]
        if p.kind == "array":
            out[p.name] = v if isinstance(v, np.ndarray) else \
                np.asarray(v, constraints.np_dtype(p.dtypes[0]))
        elif p.kind == "tree":
            out[p.name] = typed_tree(p, v, ())
        elif p.kind == "float":
            out[p.name] = float(v)
        else:
            out[p.name] = int(v)
    return out


def typed_tree(p, value, path: tuple) -> dict:
    """A generator's tree (nested dicts) with each leaf in its leaf spec's dtype unless it is a
    NumPy array already; TypeError for anything but a non-empty dict."""
    if not isinstance(value, dict) or not value:
        raise TypeError(f"{p.name} must be a non-empty dict (a tree), got {type(value).__name__}")
    out = {}
    for key, item in value.items():
        if isinstance(item, dict):
            out[key] = typed_tree(p, item, path + (key,))
            continue
        leaf = constraints.leaf_spec(p, path + (key,))
        dtype = constraints.np_dtype(leaf.dtypes[0]) if leaf is not None else np.float32
        out[key] = item if isinstance(item, np.ndarray) else np.asarray(item, dtype)
    return out
