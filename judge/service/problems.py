"""The problems the service grades, as JSON: what ``judge show`` shows (statement, signature,
parameters, public examples, the rules in words, limits), never a hidden case's inputs or
outputs. ``text`` is ``judge show``'s own text, word for word; ``sections`` holds its sections
after the statement as lines (signature with constraints, output, tolerance, limits, rules,
scoring) and each example its ``lines``, so the web page shows the same words and numbers
(``scale = 1.0``, not ``1``). ``hints`` are the progressive hints themselves, in order (as
``judge show --hints N`` reveals them); the page reveals them one at a time. The author's
write-up (``editorial``) is left out of both: ``Catalogue.editorial`` gives it to the API, which
shows it only after an accepted submission."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from judge import rules
from judge.errors import JudgeError
from judge.problem import spec
from judge.problem.model import Problem
from judge.reports import show
from judge.reports.json_report import finite



def _plain(value):
    """An input or expected output as JSON: an array as its values, dtype and shape; a tree as
    a mapping of them."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    dtype = str(getattr(value, "dtype", ""))
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f" and value.dtype.itemsize < 8:  # 0.3, not 0.30000001192092896
            value = np.array([float(str(x)) for x in value.ravel()]).reshape(value.shape)
            return {"value": finite(value.tolist()), "dtype": dtype, "shape": list(value.shape)}
        return {"value": finite(value.tolist()), "dtype": str(value.dtype),
                "shape": list(value.shape)}
    if isinstance(value, np.generic):
        return finite(value.item())
    return finite(value)


def summary(problem: Problem) -> dict:
    return {"id": problem.id, "title": problem.title, "difficulty": problem.difficulty,
            "tags": list(problem.tags), "examples": len(problem.examples),
            "hidden": len(problem.hidden)}


def detail(problem: Problem) -> dict:
    params = ", ".join(p.name for p in problem.parameters)
    return {
        **summary(problem),
        "statement": problem.statement,
        "signature": f"{problem.entry_point}({params})",
        "entry_point": problem.entry_point,
        "parameters": [{"name": p.name, "kind": p.kind, "dtypes": list(p.dtypes),
                        "shape": None if p.shape is None else list(p.shape), "traced": p.traced}
                       for p in problem.parameters],
        "examples": [{"name": c.name, "number": c.number,
                      "inputs": {k: _plain(v) for k, v in c.inputs.items()},
                      "probe": {k: _plain(v) for k, v in c.probe_inputs.items()},
                      "expected": {k: _plain(v) for k, v in c.expected.items()},
                      "lines": show.example_lines(c),
                      "text": c.text} for c in problem.examples],
        "hidden": len(problem.hidden),
        "rules": [{"id": r["id"], "description": rules.describe(r)} for r in problem.rules],
        "limits": {k: problem.limits[k] for k in ("time_per_case_s", "memory_mb")
                   if k in problem.limits},
        "related": list(problem.related),
        "hints": list(problem.hints),
        "sections": show.sections(problem),
        "text": show.render(problem),
    }


@functools.lru_cache(maxsize=4)
def catalogue(root: Path | None = None) -> "Catalogue":
    """The problems under ``root``, loaded once per process."""
    return Catalogue(root)


class Catalogue:
    """Every valid spec under ``root/problems``, loaded once (a spec that does not load is left
    out, as ``judge list`` marks it invalid)."""

    def __init__(self, root: Path | None = None):
        root = root or spec.find_root()
        self.problems: dict[str, Problem] = {}
        self.invalid: dict[str, str] = {}
        for path in sorted((root / "problems").glob("*.yaml")):
            try:
                problem = spec.load(path)
            except JudgeError as exc:
                self.invalid[path.stem] = str(exc)
                continue
            self.problems[problem.id] = problem
        self._details = {pid: detail(p) for pid, p in self.problems.items()}

    def list(self) -> list[dict]:
        return [summary(p) for p in self.problems.values()]

    def get(self, problem_id: str) -> dict | None:
        return self._details.get(problem_id)

    def editorial(self, problem_id: str) -> str:
        """The author's write-up of ``problem_id`` (Markdown), "" if it has none. Never part of
        ``get``: the API gives it only to a token that solved the problem."""
        problem = self.problems.get(problem_id)
        return problem.editorial if problem is not None else ""
