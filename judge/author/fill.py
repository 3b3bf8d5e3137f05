"""`judge fill`: compute the missing ``expected`` outputs of a spec with its reference solution.

The reference is trusted author code (as in `judge check` and `judge generate`) and runs in a
worker like any other. Each case without ``expected`` gets one line ``expected: ...`` inserted as
text after its last key (or, for a flow mapping, before its closing brace), located with
``yaml.compose`` marks: every other byte of the file, comments included, stays as it was. The
new text must load as ``judge.problem.spec.load`` loads a spec, and hold every old key and case
unchanged, before it is printed or, with ``--write``, renamed over the spec atomically.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import yaml

from judge.problem import casefile, constraints, spec
from judge import rules
from judge.grade import grading
from judge.atomic import read_exact
from judge.atomic import write_text as atomic_write
from judge.errors import JudgeError, SpecError
from judge.author.generate import probe_like  # the cotangent like the output, the tangent like wrt
from judge.problem.spec_write import after_line, last_end, load_checked
from judge.grade.verdicts import plural
from judge.problem.model import case_label


def _missing(data: dict) -> list[tuple[str, int]]:
    """(list key, position) of every case without ``expected``, in document order."""
    return [(key, i) for key in ("examples", "hidden") for i, raw in enumerate(data.get(key) or [])
            if isinstance(raw, dict) and "expected" not in raw]


def _skeleton(path: Path, data: dict, nodes) -> spec.Problem:
    """The problem without the cases to fill; raise SpecError for anything else that is wrong."""
    errors = [e for e in spec.schema_violations(data, nodes, path)
              if "has no 'expected' output" not in e.problem]
    if errors:
        raise errors[0]
    complete = {**data, **{key: [c for c in (data.get(key) or []) if "expected" in c]
                           for key in ("examples", "hidden")}}
    return spec.build(complete, path)


def _case(problem: spec.Problem, path: Path, nodes, key: str, i: int, raw: dict, index: int):
    """A Case with typed inputs and probe inputs (the cotangent like the output, the tangent like
    the probed parameter) and no expected output."""
    steps = [key, i]
    try:
        inputs = constraints.check_inputs(problem.parameters, raw["input"])
        probe = {}
        if problem.probes:
            like = probe_like(problem, inputs)
            given = raw.get("probe")
            if not isinstance(given, dict) or sorted(given) != sorted(like):
                raise constraints.CaseDataError(["probe"], f"must give exactly {sorted(like)}")
            for name, (dtype, shape) in like.items():
                arr = np.asarray(given[name], dtype=np.float64).astype(dtype)
                if arr.shape != tuple(shape):
                    raise constraints.CaseDataError(["probe", name], f"shape {arr.shape}, expected {shape}")
                probe[name] = arr
        elif "probe" in raw:
            raise constraints.CaseDataError(["probe"], "the problem declares no probes")
    except (ValueError, TypeError) as exc:
        steps += list(getattr(exc, "steps", []))
        raise SpecError(path, steps, spec.line_of(nodes, steps), str(exc)) from None
    name = str(raw.get("name") or f"{key}[{i}]")
    return spec.Case(index=index, name=name, visibility="example" if key == "examples" else "hidden",
                     inputs=inputs, expected={}, probe_inputs=probe, number=i)


def _expected_text(problem: spec.Problem, output: dict) -> str:
    if problem.output_kind == "dict" or problem.probes:
        names = [f.name for f in problem.fields] + [p.name for p in problem.probes]
        return casefile.format_value({k: np.asarray(output[k]) for k in names})
    return casefile.format_value(np.asarray(output["value"]))


def insert_expected(text: str, where: list[tuple[str, int, str]], path: Path) -> str:
    """``text`` with ``expected: VALUE`` added to each case (list key, position, value text)."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    lists = {k.value: v for k, v in root.value}
    edits = []
    for key, i, value in where:
        node = lists[key].value[i]
        if not isinstance(node, yaml.MappingNode) or not node.value:
            raise JudgeError(f"{path}: line {node.start_mark.line + 1}: {key}[{i}] is not a mapping")
        if node.flow_style:
            end = text.rindex("}", 0, node.end_mark.index)
            edits.append((end, f", expected: {value}"))
        else:
            indent = " " * node.value[0][0].start_mark.column
            newline = "\r\n" if "\r\n" in text else "\n"
            edits.append((last_end(node), indent + f"expected: {value}" + newline))
    for at, insert in sorted(edits, reverse=True):
        if not insert.startswith(","):
            text, at = after_line(text, at)
        text = text[:at] + insert + text[at:]
    return text


def check_filled(path: Path, old_text: str, new_text: str, filled: list[tuple[str, int]]) -> None:
    """The new text loads as ``spec.load`` does and differs from the old only by the
    ``expected`` of the filled cases. Raise JudgeError otherwise."""
    data = load_checked(path, new_text, "the filled text")
    stripped = {**data, **{k: [dict(c) for c in (data.get(k) or [])] for k in ("examples", "hidden")}}
    for key, i in filled:
        stripped[key][i].pop("expected", None)
    if repr(stripped) != repr(yaml.safe_load(old_text)):
        raise JudgeError(f"{path}: filling would change other content; nothing written")


def fill(id_or_path: str, write: bool = False, sandbox: str | None = None) -> tuple[str, list[str]]:
    """The spec's text with every missing ``expected`` computed by the reference (written back
    atomically with ``write``), and the labels of the filled cases."""
    path = spec.resolve(str(id_or_path))
    old = read_exact(path)
    data, nodes = spec.read_yaml(path)
    todo = _missing(data)
    if not todo:
        return old, []
    problem = _skeleton(path, data, nodes)
    cases = [_case(problem, path, nodes, key, i, data[key][i], j) for j, (key, i) in enumerate(todo)]
    temp = rules.for_reference(problem, cases)
    outputs = grading.reference_outputs(temp, cases, sandbox=sandbox)
    where = [(key, i, _expected_text(problem, outputs[c.index])) for (key, i), c in zip(todo, cases)]
    new = insert_expected(old, where, path)
    check_filled(path, old, new, todo)
    if write:
        atomic_write(path, new, verify=lambda on_disk: check_filled(path, old, on_disk, todo),
                     unchanged=old)
    return new, [case_label(c, named=True) for c in cases]


def main(args) -> int:
    text, filled = fill(args.problem, write=args.write, sandbox=args.sandbox)
    if not args.write:
        sys.stdout.write(text)
    what = plural(len(filled), "case")
    if not filled:
        print("judge fill: every case has its expected output; nothing to do", file=sys.stderr)
    elif args.write:
        print(f"judge fill: wrote the expected outputs of {what}: {', '.join(filled)}", file=sys.stderr)
    else:
        print(f"judge fill: computed the expected outputs of {what}: {', '.join(filled)} "
              f"(--write puts them in the spec)", file=sys.stderr)
    return 0
