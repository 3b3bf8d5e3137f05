"""`judge fill`: compute the missing ``expected`` outputs of a spec with its reference solution.

The reference is trusted author code (as in `judge check` and `judge generate`) and runs in a
worker like any other. Each case without ``expected`` gets one line ``expected: ...`` inserted as
text after its last key (or, for a flow mapping, before its closing brace), located with
``yaml.compose`` marks: every other byte of the file, comments included, stays as it was. The
new text must load as ``judge.problem.spec.load`` loads a spec, and hold every old key and case
unchanged, before it is printed or, with ``--write``, renamed over the spec atomically.

``judge fill --refresh`` (``refresh``) runs the reference on every case instead and compares
each stored ``expected`` with what it computes, bit for bit (NaN with NaN, ``-0.0`` apart from
``0.0``). It reports the cases whose output changed, and with ``--write`` replaces only those
values, as text, at their ``yaml.compose`` marks (``replace_expected``); a case without
``expected`` is filled as above. Every other byte stays as it was, and the new text must load
and hold the new values exactly before it is written.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from judge.problem import casefile, constraints, layout, spec
from judge import rules
from judge.grade import grading
from judge.atomic import read_exact
from judge.atomic import write_text as atomic_write
from judge.errors import JudgeError, SpecError
from judge.problem.spec_write import after_line, last_end, load_checked
from judge.grade.verdicts import plural
from judge.problem.model import case_label
from judge.problem.casefile import plain_list


def _missing(data: dict) -> list[tuple[str, int]]:
    """(list key, position) of every case without ``expected``, in document order."""
    return [(key, i) for key in ("examples", "hidden") for i, raw in enumerate(data.get(key) or [])
            if isinstance(raw, dict) and "expected" not in raw]


def _skeleton(path: Path, data: dict, nodes) -> spec.Problem:
    """The problem without the cases to fill; raise SpecError for anything else that is wrong."""
    return spec.build(_filled_cases_only(path, data, nodes), path)


def _filled_cases_only(path: Path, data: dict, nodes) -> dict:
    """The spec's data with only the cases that have ``expected``; raise SpecError for anything
    else the schema finds wrong."""
    errors = [e for e in spec.schema_violations(data, nodes, path)
              if "has no 'expected' output" not in e.problem]
    if errors:
        raise errors[0]
    return {**data, **{key: [c for c in (data.get(key) or []) if "expected" in c]
                       for key in ("examples", "hidden")}}


def _case(problem: spec.Problem, path: Path, nodes, key: str, i: int, raw: dict, index: int):
    """A Case with typed inputs and probe inputs (the cotangent like the output, the tangent like
    the probed parameter) and no expected output."""
    steps = [key, i]
    try:
        inputs = constraints.check_inputs(problem.parameters, raw["input"], problem.conditions)
        probe = {}
        if problem.probes:
            needed = sorted(p.input for p in problem.probes)
            given = raw.get("probe")
            if not isinstance(given, dict) or sorted(given) != needed:
                raise constraints.CaseDataError(["probe"], f"must give exactly {needed}")
            probe = constraints.parse_slots(layout.input_slots(problem, inputs), given, "probe",
                                            finite=True)
        elif "probe" in raw:
            raise constraints.CaseDataError(["probe"], "the problem declares no probes")
    except (ValueError, TypeError) as exc:
        steps += list(getattr(exc, "steps", []))
        raise SpecError(path, steps, spec.line_of(nodes, steps), str(exc)) from None
    name = str(raw.get("name") or f"{key}[{i}]")
    return spec.Case(index=index, name=name, visibility="example" if key == "examples" else "hidden",
                     inputs=inputs, expected={}, probe_inputs=probe, number=i)


def _expected_text(problem: spec.Problem, output: dict, inputs: dict) -> str:
    """A case's ``expected`` as the spec stores it (``judge.problem.layout``), as YAML text."""
    slots = layout.expected_slots(problem, inputs)
    return casefile.format_value(layout.nest(slots, {s.key: np.asarray(output[s.key]) for s in slots}))


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
    where = [(key, i, _expected_text(problem, outputs[c.index], c.inputs))
             for (key, i), c in zip(todo, cases)]
    new = insert_expected(old, where, path)
    check_filled(path, old, new, todo)
    if write:
        atomic_write(path, new, verify=lambda on_disk: check_filled(path, old, on_disk, todo),
                     unchanged=old)
    return new, [case_label(c, named=True) for c in cases]


# --- judge fill --refresh ----------------------------------------------------------------------

#: An array of at most this many entries is shown whole in a change; a larger one as the entries
#: that differ (at most ``SHOWN_POSITIONS`` of them).
SHOWN_ENTRIES, SHOWN_POSITIONS = 16, 4


@dataclass(frozen=True)
class Change:
    """A case whose stored ``expected`` differs from what the reference computes now: its label
    (``example 1 (name)``), its place in the spec (list key, position) and, per differing field
    (or probe), how it was and how it is, as lines of text."""

    label: str
    key: str
    position: int
    lines: tuple[str, ...]


def _skeleton_all(path: Path, data: dict, nodes) -> spec.Problem:
    """The problem with whatever cases still load: a stored ``expected`` that no longer fits its
    case (its input changed shape) is what ``--refresh`` replaces, so it is not an error here."""
    problem, _ = spec.build(_filled_cases_only(path, data, nodes), path, collect=True)
    return problem


def _stored(problem: spec.Problem, raw: dict, case) -> tuple[dict | None, str]:
    """The case's stored expected output as arrays of the spec's dtypes (fields and probes), or
    None and why it no longer fits the case."""
    try:
        expected, _ = constraints.parse_outputs(problem, raw["expected"], raw.get("probe"), case.inputs)
        return expected, ""
    except (ValueError, TypeError) as exc:
        return None, str(exc)


def same(stored: np.ndarray, new) -> bool:
    """``new`` (cast to the stored dtype, as the spec would read it) equals ``stored`` bit for bit
    but for NaN payloads: same shape, NaN where NaN, the same values and signs of zero."""
    stored = np.asarray(stored)
    with np.errstate(over="ignore", invalid="ignore"):
        new = np.asarray(new).astype(stored.dtype)
    if stored.shape != new.shape:
        return False
    if stored.dtype.kind in "biu":
        return bool(np.array_equal(stored, new))
    a, b = stored.astype(np.float64), new.astype(np.float64)
    nan = np.isnan(a)
    return bool(np.array_equal(nan, np.isnan(b)) and np.array_equal(a[~nan], b[~nan])
                and np.array_equal(np.signbit(a[~nan]), np.signbit(b[~nan])))


def _text(value, limit: int = 100) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[:limit - 5] + " ..."


def _shown(arr: np.ndarray) -> str:
    """An array as a change shows it: whole when small, else its dtype and shape."""
    arr = np.asarray(arr)
    if arr.size <= SHOWN_ENTRIES:
        return _text(plain_list(arr), 200)
    return f"{arr.dtype} array of shape {arr.shape}"


def change_lines(name: str, old: np.ndarray | None, new, why: str = "", raw_old=None) -> list[str]:
    """How one field changed: its old and new values, compactly for a large array (how many
    entries differ, and the first few with their positions)."""
    new = np.asarray(new)
    if old is None:
        return [f"  {name}:", f"    old: {_text(raw_old)} (no longer fits the case: {why})",
                f"    new: {_shown(new)}"]
    with np.errstate(over="ignore", invalid="ignore"):
        cast = new.astype(old.dtype)
    if old.size <= SHOWN_ENTRIES or old.shape != cast.shape:
        return [f"  {name}:", f"    old: {_shown(old)}", f"    new: {_shown(cast)}"]
    differ = [i for i in np.ndindex(old.shape) if not same(old[i], cast[i])]
    lines = [f"  {name}: {len(differ)} of {old.size} entries differ ({old.dtype}, shape {old.shape})"]
    for i in differ[:SHOWN_POSITIONS]:
        lines.append(f"    [{', '.join(map(str, i))}]: {plain_list(old[i])} -> {plain_list(cast[i])}")
    if len(differ) > SHOWN_POSITIONS:
        lines.append(f"    ... {len(differ) - SHOWN_POSITIONS} more")
    return lines


def _raw_field(problem, raw_expected, name: str):
    """A field's stored YAML data, for showing an expected output that no longer loads."""
    if problem.output_kind == "array" and not problem.probes:
        return raw_expected
    return raw_expected.get(name) if isinstance(raw_expected, dict) else raw_expected


def _value_edit(text: str, k, v, value: str, where: str) -> tuple[int, int, str]:
    """(start, end, new text) replacing the value ``v`` of the key ``k``: a flow or plain value
    in place; a block value (its own lines below the key) by the flow text on the key's line."""
    if isinstance(v, yaml.ScalarNode) and v.style in ("|", ">"):
        raise JudgeError(f"{where} (line {k.start_mark.line + 1}) is a block of text, not an output")
    if isinstance(v, (yaml.MappingNode, yaml.SequenceNode)) and not v.flow_style:
        return text.index(":", k.end_mark.index) + 1, last_end(v), " " + value
    return v.start_mark.index, v.end_mark.index, value


def replace_expected(text: str, where: list[tuple[str, int, str, dict]], path: Path) -> str:
    """``text`` with the ``expected:`` of each case replaced, and nothing else. ``where`` holds
    (list key, position, the whole new value's text, {field: new text} of the fields that
    changed). A mapping of the output's fields keeps its layout: only the changed fields' values
    are replaced; any other value is replaced whole."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    lists = {k.value: v for k, v in root.value}
    edits = []
    for key, i, whole, fields in where:
        node = lists[key].value[i]
        found = next(((k, v) for k, v in node.value if k.value == "expected"), None)
        if found is None:
            raise JudgeError(f"{path}: {key}[{i}] has no expected to replace")
        k, v = found
        spans = [(k, v)] + ([(fk, fv) for fk, fv in v.value] if isinstance(v, yaml.MappingNode) else [])
        if any(not node.start_mark.index <= n.start_mark.index <= node.end_mark.index
               for _, n in spans):  # an alias of a value elsewhere: editing it would edit that
            raise JudgeError(f"{path}: line {k.start_mark.line + 1}: the expected of {key}[{i}] "
                             f"uses an alias; write it out to refresh it")
        here = f"{path}: the expected of {key}[{i}]"
        if isinstance(v, yaml.MappingNode) and fields and {fk.value for fk, _ in v.value} >= set(fields):
            edits.extend(_value_edit(text, fk, fv, fields[fk.value], here)
                         for fk, fv in v.value if fk.value in fields)
        else:
            edits.append(_value_edit(text, k, v, whole, here))
    for start, end, value in sorted(edits, reverse=True):
        text = text[:start] + value + text[end:]
    return text


def check_refreshed(path: Path, old_text: str, new_text: str, new_values: dict) -> None:
    """The new text loads as ``spec.load`` does, differs from the old only by the ``expected``
    of the cases in ``new_values`` ((list key, position) -> arrays), and holds exactly those
    values. Raise JudgeError otherwise."""
    data = load_checked(path, new_text, "the refreshed text")
    old = yaml.safe_load(old_text)
    stripped = lambda d: {**d, **{k: [{f: v for f, v in c.items()  # noqa: E731
                                       if not (f == "expected" and (k, i) in new_values)}
                                      for i, c in enumerate(d.get(k) or [])]
                                  for k in ("examples", "hidden")}}
    if repr(stripped(data)) != repr(stripped(old)):
        raise JudgeError(f"{path}: refreshing would change other content; nothing written")
    built = spec.build(data, path)
    cases = {("examples" if c.visibility == "example" else "hidden", c.number): c for c in built.cases}
    for place, values in new_values.items():
        case = cases[place]
        if any(not same(case.expected[name], value) for name, value in values.items()):
            raise JudgeError(f"{path}: {case_label(case, named=True)} does not read back as "
                             f"the reference's output; nothing written")


def refresh(id_or_path: str, write: bool = False, sandbox: str | None = None):
    """Run the reference on every case of the spec and compare each stored ``expected`` with its
    output. Return (the refreshed text, the ``Change`` of each case that differs, the number of
    cases); with ``write`` (and changes) the text replaces the spec atomically. A reference that
    fails raises JudgeError naming it, and nothing is written."""
    path = spec.resolve(str(id_or_path))
    old = read_exact(path)
    data, nodes = spec.read_yaml(path)
    problem = _skeleton_all(path, data, nodes)
    places = [(key, i) for key in ("examples", "hidden") for i, raw in enumerate(data.get(key) or [])
              if isinstance(raw, dict)]
    cases = [_case(problem, path, nodes, key, i, data[key][i], j) for j, (key, i) in enumerate(places)]
    try:
        outputs = grading.reference_outputs(rules.for_reference(problem, cases), cases, sandbox=sandbox)
    except JudgeError as exc:
        raise JudgeError(f"{exc}; {path} was not changed") from None
    changes, replaced, filled, new_values = [], [], [], {}
    for (key, i), case in zip(places, cases):
        output, raw = outputs[case.index], data[key][i]
        label = case_label(case, named=True)
        slots = layout.expected_slots(problem, case.inputs)
        names = [s.key for s in slots]
        # each top-level key of ``expected`` one value: a changed one is replaced alone
        partial = (problem.output_kind == "dict" or problem.probes) and all(len(s.path) == 1 for s in slots)
        new_values[(key, i)] = {name: np.asarray(output[name]) for name in names}
        if "expected" not in raw:
            filled.append((key, i, _expected_text(problem, output, case.inputs)))
            changes.append(Change(label, key, i, tuple(
                line for name in names for line in (f"  {name}: (missing)",
                                                     f"    new: {_shown(np.asarray(output[name]))}"))))
            continue
        stored, why = _stored(problem, raw, case)
        lines, differ = [], {}
        for name in names:
            if stored is None:
                lines += change_lines(name, None, output[name], why,
                                      _raw_field(problem, raw["expected"], name) if partial or not problem.probes
                                      else raw["expected"])
            elif not same(stored[name], output[name]):
                lines += change_lines(name, stored[name], output[name])
            else:
                continue
            differ[name] = casefile.format_value(np.asarray(output[name]))
        if lines:
            fields = differ if partial else {}
            replaced.append((key, i, _expected_text(problem, output, case.inputs), fields))
            changes.append(Change(label, key, i, tuple(lines)))
        else:
            del new_values[(key, i)]
    new = replace_expected(old, replaced, path)
    if filled:
        new = insert_expected(new, filled, path)
    if changes:
        check_refreshed(path, old, new, new_values)
        if write:
            atomic_write(path, new, verify=lambda on_disk: check_refreshed(path, old, on_disk, new_values),
                         unchanged=old)
    return new, changes, len(cases)


#: ``judge fill --refresh`` exit status: the spec's expected outputs are the reference's (none
#: changed, or ``--write`` wrote the changes); some differ and were not written (a dry run).
EXIT_CURRENT, EXIT_STALE = 0, 1


def refresh_main(args) -> int:
    _, changes, total = refresh(args.problem, write=args.write, sandbox=args.sandbox)
    for change in changes:
        print(change.label)
        for line in change.lines:
            print(line)
    if not changes:
        print(f"judge fill --refresh: every stored expected output is the reference's "
              f"({plural(total, 'case')}); nothing to do", file=sys.stderr)
        return EXIT_CURRENT
    what = f"{len(changes)} of {plural(total, 'case')} changed: " + ", ".join(c.label for c in changes)
    if args.write:
        print(f"judge fill --refresh: {what}; wrote the new expected outputs", file=sys.stderr)
        return EXIT_CURRENT
    print(f"judge fill --refresh: {what}; dry run: nothing written (--write writes them)",
          file=sys.stderr)
    return EXIT_STALE


def main(args) -> int:
    if getattr(args, "refresh", False):
        return refresh_main(args)
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
