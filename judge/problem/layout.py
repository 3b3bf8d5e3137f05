"""Where each value of a case sits: every leaf of the output, of the probes' results and of the
probes' inputs, as a flat key (what ``Case.expected``, verdicts and messages use) and as a path
in the case's YAML data (what `judge fill` and `judge generate` write, what the loader reads).

A problem of the first model (an ``array`` or ``dict`` output, one probed parameter) keeps its
keys: ``value``, the field names, ``vjp`` and ``jvp``, at the paths its specs always used. A
tree's leaves are keyed by their path (``params["w"]``), a gradient with respect to one of
several parameters as ``grad w.r.t. X`` (``grad w.r.t. grads["w"]`` for a tree's leaf).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from judge.problem.model import (expected_dtype, expected_shape, leaf_name, np_dtype,
                                 tree_leaves)


@dataclass(frozen=True)
class Slot:
    key: str               # the flat key: ``value``, ``count``, ``params["w"]``, ``grad w.r.t. X``
    path: tuple            # steps inside the case's ``expected`` (or ``probe``) data; () the whole
    returned: tuple        # steps inside what the function (or the probe) returns
    dtype: np.dtype
    shape: tuple | None    # None: any shape
    tolerance: dict
    #: "input" when the shape is a parameter's (messages say "differs from the input's")
    like: str = ""


def nested(problem) -> bool:
    """Does the output hold trees (a ``tree`` output, or a dict field ``structure_like``)?"""
    return any(f.structure_like for f in problem.fields)


def _tree_slots(root: str, tree: dict, path: tuple, returned: tuple, dtype, tolerance) -> list[Slot]:
    return [Slot(leaf_name(root, p), path + p, returned + p,
                 np.asarray(leaf).dtype if dtype is None else dtype, np.shape(leaf), tolerance, "input")
            for p, leaf in tree_leaves(tree)]


def output_slots(problem, inputs: dict) -> list[Slot]:
    """The output's leaves on a case with these inputs (the case's ``expected``, under
    ``value`` when the problem has probes)."""
    prefix = ("value",) if problem.probes else ()
    found = []
    for f in problem.fields:
        dtype = np_dtype(f.dtype) if f.dtype else None
        if problem.output_kind == "tree":
            return _tree_slots("output", inputs[f.structure_like], prefix, (), dtype, f.tolerance)
        step = () if problem.output_kind == "array" else (f.name,)
        if f.structure_like:
            found += _tree_slots(f.name, inputs[f.structure_like], prefix + step, step, dtype,
                                 f.tolerance)
            continue
        found.append(Slot(f.name, prefix + step, step, expected_dtype(f, inputs),
                          expected_shape(f, inputs, problem.parameters), f.tolerance,
                          "input" if f.shape_like else ""))
    return found


def _wrt_slots(probe, root: str, inputs: dict, key_root: str) -> list[Slot]:
    """One slot per leaf of each parameter differentiated, shaped like it (a gradient or a
    tangent)."""
    if not probe.listed:
        value = np.asarray(inputs[probe.wrt[0]])
        return [Slot(key_root, (root,), (), value.dtype, value.shape, probe.tolerance)]
    found = []
    for name in probe.wrt:
        label = f"{key_root} w.r.t. {name}" if key_root == "grad" else f"{key_root}[{name}]"
        for p, leaf in tree_leaves(inputs[name]):
            leaf = np.asarray(leaf)
            found.append(Slot(leaf_name(label, p), (root, name) + p, (name,) + p, leaf.dtype,
                              leaf.shape, probe.tolerance))
    return found


def _like_output(problem, inputs: dict, root: str, tolerance: dict) -> list[Slot]:
    """Slots shaped like the output (a cotangent, a JVP's result), under ``root``."""
    return [Slot(leaf_name(root, s.returned), (root,) + s.returned, s.returned, s.dtype, s.shape,
                 tolerance) for s in output_slots(problem, inputs)]


def probe_slots(problem, inputs: dict, probe) -> list[Slot]:
    """The expected results of one probe: a VJP's gradient(s), shaped like the parameters
    differentiated; a JVP's, shaped like the output."""
    if probe.name == "vjp":
        return _wrt_slots(probe, "vjp", inputs, "grad" if probe.listed else "vjp")
    return _like_output(problem, inputs, "jvp", probe.tolerance)


def probe_input_slots(problem, inputs: dict, probe) -> list[Slot]:
    """A probe's input: the cotangent, shaped like the output; the tangent(s), like the
    parameters differentiated (under ``probe``)."""
    if probe.name == "vjp":
        return _like_output(problem, inputs, "cotangent", probe.tolerance)
    return _wrt_slots(probe, "tangent", inputs, "tangent")


def expected_slots(problem, inputs: dict) -> list[Slot]:
    """Every value a case's ``expected`` holds: the output's leaves, then each probe's."""
    found = output_slots(problem, inputs)
    for probe in problem.probes:
        found += probe_slots(problem, inputs, probe)
    return found


def input_slots(problem, inputs: dict) -> list[Slot]:
    """Every value a case's ``probe`` holds."""
    return [s for probe in problem.probes for s in probe_input_slots(problem, inputs, probe)]


def nest(slots: list[Slot], values: dict):
    """The case data the slots' values make (what a spec stores): the one value itself when
    its path is empty, else nested mappings in the slots' order."""
    if len(slots) == 1 and slots[0].path == ():
        return values[slots[0].key]
    root: dict = {}
    for s in slots:
        node = root
        for step in s.path[:-1]:
            node = node.setdefault(step, {})
        node[s.path[-1]] = values[s.key]
    return root


def keys_at(slots: list[Slot], prefix: tuple, field: str = "path") -> list:
    """The steps that follow ``prefix`` in the slots' paths (``field``: "path" or "returned"),
    in order, each once; [] where a slot's path ends at ``prefix`` (a leaf)."""
    steps = []
    for s in slots:
        path = getattr(s, field)
        if path[:len(prefix)] == prefix and len(path) > len(prefix) and path[len(prefix)] not in steps:
            steps.append(path[len(prefix)])
    return steps


def pick(data, path: tuple):
    for step in path:
        data = data[step]
    return data
