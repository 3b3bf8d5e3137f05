"""What a schema cannot say of a spec's signature: parameters that refer to each other, trees'
leaf specs, output fields' shapes and trees, and the parameters a probe differentiates. Each
check calls ``fail(steps, message)`` (``spec.build``'s), which raises a SpecError at the key's
line."""

from __future__ import annotations

from dataclasses import replace

from judge.problem.model import PROBE_INPUTS, Probe, dim_names


def check_parameters(params, fail) -> tuple:
    """What a schema cannot say of the parameters: references to other parameters, bounds by
    dim name on arrays only, trees' leaf specs (a ``structure_like`` tree without its own takes
    its source's)."""
    by_name = {p.name: p for p in params}
    for i, p in enumerate(params):
        for attr in ("shape_like", "dtype_like", "greater_than", "structure_like"):
            other = getattr(p, attr)
            if other is not None and other not in by_name:
                fail(["parameters", i, attr], f"refers to unknown parameter {other!r}")
        if p.kind not in ("array", "tree") and p.traced:
            fail(["parameters", i, "traced"], "only array and tree parameters can be traced")
        if p.kind == "array" and not p.dtypes:
            fail(["parameters", i], "an array parameter needs a dtype")
        for attr in ("minimum", "exclusive_minimum", "maximum", "exclusive_maximum"):
            if isinstance(getattr(p, attr), str) and p.kind != "array":
                fail(["parameters", i, attr], f"a bound named by a dim ({getattr(p, attr)!r}) "
                                              "applies to an array's entries only")
        tree_keys = [k for k in ("leaves", "structure_like", "min_leaves", "max_leaves")
                     if getattr(p, k) not in (None, ())]
        if p.kind != "tree" and tree_keys:
            fail(["parameters", i, tree_keys[0]], f"{tree_keys[0]} is for parameters of kind tree")
        if p.kind == "tree":
            source = by_name.get(p.structure_like)
            if source is not None and source.kind != "tree":
                fail(["parameters", i, "structure_like"], f"{p.structure_like!r} is not a tree parameter")
            if not p.leaves and (source is None or not source.leaves):
                fail(["parameters", i], "a tree parameter needs leaves (pattern -> dtype, shape...) "
                                        "or structure_like naming a tree that has them")
            for j, (pattern, leaf) in enumerate(p.leaves):
                if not leaf.dtypes:
                    fail(["parameters", i, "leaves", pattern], "a leaf needs a dtype")
            if p.min_leaves and p.max_leaves and p.min_leaves > p.max_leaves:
                fail(["parameters", i, "min_leaves"], f"{p.min_leaves} is above max_leaves {p.max_leaves}")
    return tuple(replace(p, leaves=p.leaves or by_name[p.structure_like].leaves)
                 if p.kind == "tree" and not p.leaves else p for p in params)


def check_fields(fields, kind: str, params, fail) -> None:
    """Each output field's references: ``shape_like``/``dtype_like`` an array parameter,
    ``structure_like`` a tree parameter, a symbolic ``shape`` the parameters' dims."""
    by_name = {p.name: p for p in params}
    known = dim_names(params)
    for f in fields:
        where = ["output"] + (["fields", f.name] if kind == "dict" else [])
        for attr in ("shape_like", "dtype_like", "structure_like"):
            ref = getattr(f, attr)
            if ref is not None and ref not in by_name:
                fail(where + [attr], f"field {f.name!r}: {attr} refers to unknown parameter {ref!r}")
            want = "tree" if attr == "structure_like" else "array"
            if ref is not None and by_name[ref].kind != want:
                fail(where + [attr], f"field {f.name!r}: {attr} must name {'a tree' if want == 'tree' else 'an array'} "
                                     f"parameter, {ref!r} is {by_name[ref].kind}")
        if f.shape is not None and f.shape_like is not None:
            fail(where + ["shape"], f"field {f.name!r}: give shape or shape_like, not both")
        for extent in f.shape or ():
            if isinstance(extent, str) and extent not in known:
                fail(where + ["shape"], f"field {f.name!r}: {extent!r} is not a dim name of the "
                                        f"parameters' shapes" + (f" (dims: {', '.join(sorted(known))})" if known else ""))
        if f.structure_like is None and f.dtype is None and f.dtype_like is None:
            fail(where, f"field {f.name!r} needs dtype or dtype_like")


def probes(data: dict, kind: str, params, base_tol: dict, fail) -> tuple:
    """The spec's derivative probes: each parameter of ``wrt`` a traced floating array or tree."""
    if "probes" not in data:
        return ()
    raw = data["probes"]
    listed = isinstance(raw["wrt"], list)
    wrt = tuple(raw["wrt"]) if listed else (raw["wrt"],)
    by_name = {p.name: p for p in params}
    for j, name in enumerate(wrt):
        p = by_name.get(name)
        dtypes = [d for _, leaf in p.leaves for d in leaf.dtypes] if p and p.kind == "tree" else (p.dtypes if p else ())
        if p is None or not p.traced or p.kind not in ("array", "tree"):
            fail(["probes", "wrt"] + ([j] if listed else []), f"{name!r} is not a traced array or tree parameter")
        if any(not (d.startswith("float") or d == "bfloat16") for d in dtypes):
            fail(["probes", "wrt"] + ([j] if listed else []), f"{name!r} is not floating point: "
                                                             "only floating inputs have derivatives")
    if kind == "dict":
        fail(["probes"], "derivative probes need an output of kind array or tree")
    tol = {**base_tol, **raw.get("tolerance", {})}
    probes = tuple(Probe(name, PROBE_INPUTS[name], wrt, tol, listed)
                   for name in ("vjp", "jvp") if raw.get(name))
    if not probes:
        fail(["probes"], "enable at least one of vjp and jvp")
    return probes
