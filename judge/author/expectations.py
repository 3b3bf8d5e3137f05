"""What each known submission of a problem is expected to get, and whether it got it.

A submission's folder under ``submissions/<problem>/`` names its verdict. Each expectation is a
pair of verdict sets, decided per case: every case's verdict must be in ``permitted`` and at
least one case's verdict must be in ``required``. ``submissions/<problem>/submissions.yaml`` may
override either set for single files::

    wrong_answer/slow_and_wrong.py:
      permitted: [AC, WA, TLE]
      required: [WA]
    rejected/full_hessian.py:
      reason: intermediate_too_large    # or a list: every required-verdict case has one of them
    rejected/two_forward_passes.py:
      known_gap: no rule tells two forward passes from one; the judge accepts it

A ``known_gap`` records a submission the judge does not give what its folder says, on purpose:
`judge check` reports the gap as a note instead of an error, and as an error once the judge
does give the expected verdict (the gap is closed: remove the entry). The cases need not catch
it, and ``judge generate --target`` does not aim at it.

Problems found here are returned as ``(path, line, message)`` issues; ``package_check`` turns
them into findings.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from judge.grade.verdicts import REASONS, GradeResult, Verdict

#: Verdict folders and the verdict each names.
FOLDERS = {
    "accepted": Verdict.AC, "wrong_answer": Verdict.WA, "rejected": Verdict.RJ,
    "run_time_error": Verdict.RTE, "time_limit_exceeded": Verdict.TLE,
    "memory_limit_exceeded": Verdict.MLE, "output_limit_exceeded": Verdict.OLE,
    "compile_error": Verdict.CE,
}
#: Folders of submissions that the cases must catch (test strength).
MUST_BE_CAUGHT = ("wrong_answer", "rejected")
OVERRIDES_FILE = "submissions.yaml"
#: Verdicts a submissions.yaml may name: IE is the judge's own fault, never an expectation.
NAMEABLE = tuple(v.value for v in Verdict if v is not Verdict.IE)
IGNORED_FOLDERS = ("__pycache__",)

Issue = tuple[Path, "int | None", str]


@dataclass(frozen=True)
class Expectation:
    permitted: frozenset
    required: frozenset
    source: str            # "folder wrong_answer" or "submissions.yaml line 3"
    reasons: frozenset = frozenset()  # reason codes every required-verdict case must have
    #: submissions.yaml's ``known_gap``: why the judge does not give this verdict yet, or None
    gap: str | None = None

    def describe(self) -> str:
        names = lambda s: "/".join(v.value for v in Verdict if v in s)  # noqa: E731
        why = f" ({'/'.join(sorted(self.reasons))})" if self.reasons else ""
        if self.permitted == self.required and len(self.required) == 1:
            return f"{names(self.required)}{why} on every case"
        return f"{names(self.required)}{why} on at least one case, only {names(self.permitted)} on any"


@dataclass(frozen=True)
class Submission:
    path: Path
    rel: str               # relative to submissions/<problem>/, e.g. "wrong_answer/foo.py"
    folder: str
    expectation: Expectation


def folder_expectation(folder: str) -> Expectation | None:
    verdict = FOLDERS.get(folder)
    if verdict is None:
        return None
    permitted = {Verdict.AC, verdict}
    return Expectation(frozenset(permitted), frozenset({verdict}), f"folder {folder}")


def discover(folder: Path) -> tuple[list[Submission], list[Issue]]:
    """Every ``*.py`` in the verdict folders of ``folder`` (``submissions/<problem>``) with its
    expectation, and every problem with the folder's layout or its submissions.yaml."""
    issues: list[Issue] = []
    files: dict[str, Path] = {}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith(".") or entry.name in IGNORED_FOLDERS:
            continue
        if entry.is_dir():
            for path in sorted(entry.glob("*.py")):
                files[f"{entry.name}/{path.name}"] = path
        elif entry.suffix == ".py":
            files[entry.name] = entry
    overrides_path = folder / OVERRIDES_FILE
    overrides = read_overrides(overrides_path, set(files), issues) if overrides_path.is_file() else {}

    subs, flagged = [], set()
    for rel, path in files.items():
        parent = rel.rpartition("/")[0]
        base = folder_expectation(parent)
        entry = overrides.get(rel, {})
        if base is None and not {"permitted", "required"} <= set(entry):
            if parent not in flagged:
                flagged.add(parent)
                where = folder / parent if parent else path
                what = f"folder {parent!r} is not a verdict folder" if parent else \
                    "a submission outside any verdict folder"
                issues.append((where, None, f"{what} (use one of {', '.join(FOLDERS)}), "
                                            f"or give each file both permitted and required in "
                                            f"{OVERRIDES_FILE}"))
            continue
        permitted = entry.get("permitted", base.permitted if base else None)
        required = entry.get("required", base.required if base else None)
        source = f"{OVERRIDES_FILE} line {entry['line']}" if {"permitted", "required"} & set(entry) \
            else f"folder {parent}"
        if not required <= permitted:
            issues.append((overrides_path, entry.get("line"),
                           f"{rel}: required {_names(required - permitted)} not among permitted "
                           f"{_names(permitted)}"))
            continue
        reasons = entry.get("reason", frozenset())
        wrong = sorted(r for r in reasons if REASONS[r] not in required)
        if wrong:
            issues.append((overrides_path, entry.get("line"),
                           f"{rel}: reason {wrong[0]} is a {REASONS[wrong[0]].value} reason, but the "
                           f"required verdicts are {_names(required)}"))
            continue
        subs.append(Submission(path, rel, parent, Expectation(permitted, required, source, reasons,
                                                              entry.get("known_gap"))))
    return subs, issues


def _names(verdicts) -> str:
    return "[" + ", ".join(v.value for v in Verdict if v in verdicts) + "]"


def read_overrides(path: Path, known: set[str], issues: list[Issue]) -> dict[str, dict]:
    """Parse and validate submissions.yaml: ``{rel: {permitted?, required?, line}}``."""
    try:
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        nodes = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        issues.append((path, mark.line + 1 if mark else None,
                       f"YAML syntax error: {getattr(exc, 'problem', None) or exc}"))
        return {}
    except OSError as exc:
        issues.append((path, None, f"cannot read: {exc.strerror or exc}"))
        return {}
    if data is None:
        return {}
    if not isinstance(data, dict):
        issues.append((path, 1, "must be a mapping from submission file (e.g. wrong_answer/foo.py) "
                                "to {permitted: [...], required: [...]}"))
        return {}
    lines = {k.value: k.start_mark.line + 1 for k, _ in nodes.value} if nodes is not None else {}
    out = {}
    for rel, entry in data.items():
        line = lines.get(str(rel))
        if rel not in known:
            issues.append((path, line, f"{rel!r} names no submission file (expected a path like "
                                       f"wrong_answer/foo.py relative to {path.parent.name}/)"))
            continue
        if not isinstance(entry, dict) or not entry or set(entry) - {"permitted", "required", "hint",
                                                                      "reason", "known_gap"}:
            issues.append((path, line, f"{rel}: must be a mapping with permitted, required, "
                                       f"reason, hint and/or known_gap"))
            continue
        parsed = {"line": line}
        bad_text = [key for key in ("hint", "known_gap")
                    if key in entry and (not isinstance(entry[key], str) or not entry[key].strip())]
        if bad_text:
            issues.append((path, line, f"{rel}: {bad_text[0]} must be a non-empty string"))
            continue
        if "known_gap" in entry:
            parsed["known_gap"] = " ".join(entry["known_gap"].split())
        if "reason" in entry:
            reasons = entry["reason"] if isinstance(entry["reason"], list) else [entry["reason"]]
            if not reasons or not all(isinstance(r, str) and r in REASONS for r in reasons):
                issues.append((path, line, f"{rel}: reason must be a reason code or a list of them "
                                           f"(for example intermediate_too_large); got {entry['reason']!r}"))
                continue
            parsed["reason"] = frozenset(reasons)
        for key, value in entry.items():
            if key in ("hint", "reason", "known_gap"):
                continue
            if not isinstance(value, list) or not value or \
                    not all(isinstance(v, str) and v in NAMEABLE for v in value):
                issues.append((path, line, f"{rel}: {key} must be a non-empty list of verdicts "
                                           f"from {', '.join(NAMEABLE)}; got {value!r}"))
                break
            parsed[key] = frozenset(Verdict(v) for v in value)
        else:
            out[rel] = parsed
    return out


def case_counts(result: GradeResult) -> str:
    counts = Counter(c.verdict for c in result.cases)
    return ", ".join(f"{counts[v]} {v.value}" for v in Verdict if counts[v])


def matched_reasons(expectation: Expectation, result: GradeResult) -> list[str]:
    """The reason codes ``result``'s required-verdict cases got, each once, in order of first
    appearance."""
    return list(dict.fromkeys(c.reason for c in result.cases if c.verdict in expectation.required))


def unmet(expectation: Expectation, result: GradeResult, label) -> str | None:
    """Why ``result`` does not meet ``expectation``, or None. ``label(case)`` names a case."""
    for case in result.cases:
        if case.verdict is Verdict.IE:
            return f"the judge itself failed (IE) on {label(case)}: {case.message}"
    bad = [c for c in result.cases if c.verdict not in expectation.permitted]
    if bad:
        first = bad[0]
        more = f" (and {len(bad) - 1} more cases)" if len(bad) > 1 else ""
        return (f"{first.verdict.value} on {label(first)}{more}: [{first.reason}] {first.message}; "
                f"expected {expectation.describe()} ({expectation.source}); got {case_counts(result)}")
    if not any(c.verdict in expectation.required for c in result.cases):
        return (f"expected {expectation.describe()} ({expectation.source}); "
                f"got {case_counts(result)}")
    if expectation.reasons:
        other = [c for c in result.cases
                 if c.verdict in expectation.required and c.reason not in expectation.reasons]
        if other:
            first = other[0]
            return (f"{first.verdict.value} [{first.reason}] on {label(first)}: {first.message}; "
                    f"expected the reason {'/'.join(sorted(expectation.reasons))} "
                    f"({expectation.source})")
    return None


def gap_note(expectation: Expectation, result: GradeResult, why: str | None) -> tuple[str, str] | None:
    """For a submission with a ``known_gap``: ("info", the gap as recorded and what it got) while
    the judge does not meet its expectation, ("error", the gap is closed) once it does; None
    for any other submission."""
    if expectation.gap is None:
        return None
    if why:
        return "info", (f"known gap: {expectation.gap} (got {case_counts(result)}; "
                        f"{expectation.source} expects {expectation.describe()})")
    return "error", (f"the known gap is closed: it gets {expectation.describe()} "
                     f"({expectation.source}); remove its known_gap from {OVERRIDES_FILE}")
