"""Scoring: the points a graded submission earns, from its case verdicts and the spec's groups.

This module decides no verdict: it reads the verdicts grading decided (``CaseResult``) and the
spec's ``scoring`` groups (``Problem.scoring``). ``grading.grade`` attaches the ``Score`` to its
result; the text, JSON and Gradescope reports and the batch's records show it, `judge show`
states the groups (``describe``) and `judge check` verifies them (``judge.author.scoring_check``).

- A case (example or hidden) belongs to the first group with a glob (``fnmatch``, case
  sensitive) matching its name. A case no group matches carries no points (`judge check`
  refuses such a spec); it still counts for the verdict.
- A group earns its points only when every one of its graded cases is ``AC``. A group none of
  whose cases was graded (``--examples-only`` grades only the examples) is left out, its points
  with it, so the maximum is what the graded cases can earn.
- A rule failure (``RJ``) or a compile error (``CE``) on any case scores 0 in total.
- Without ``scoring`` each case is its own group worth one point, named as every report names
  it (``example 0 (name)``, ``hidden 3``).

Reports never name a hidden case: a group lists its cases by label (``case_label``), which
names examples only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fnmatch import fnmatchcase

from judge.grade.verdicts import CaseResult, GradeResult, Verdict, plural
from judge.problem.model import Problem, ScoreGroup, case_label

#: A case with one of these verdicts makes the whole score 0.
ZEROING = (Verdict.RJ, Verdict.CE)
ZEROING_TEXT = {Verdict.RJ: "a rule failure (RJ)", Verdict.CE: "a compile error (CE)"}


@dataclass(frozen=True)
class GroupScore:
    name: str
    max_score: float
    score: float
    cases: tuple[CaseResult, ...]   # the graded cases of the group, in case order

    @property
    def failed(self) -> tuple[CaseResult, ...]:
        return tuple(c for c in self.cases if c.verdict is not Verdict.AC)


@dataclass(frozen=True)
class Score:
    score: float
    max_score: float
    groups: tuple[GroupScore, ...]
    per_case: bool                  # no ``scoring`` in the spec: one point per case
    zeroed_by: CaseResult | None = None   # the first RJ or CE case, which made the total 0
    unassigned: tuple[CaseResult, ...] = ()  # graded cases that no group matches: no points


def number(value: float) -> str:
    """Points as people read them: ``40``, ``2.5``."""
    return f"{float(value):.10g}"


def points(value: float) -> str:
    """``1 point``, ``40 points``, ``2.5 points``."""
    return f"{number(value)} point" + ("" if value == 1 else "s")


def group_index(groups: tuple[ScoreGroup, ...], name: str) -> int | None:
    """The position of the first group with a glob matching the case name ``name``, or None."""
    return next((i for i, g in enumerate(groups) if any(fnmatchcase(name, p) for p in g.cases)),
                None)


def assign(groups: tuple[ScoreGroup, ...], cases) -> tuple[list[list], list]:
    """``cases`` (anything with a ``name``) split by group, first match wins, and those no group
    matches."""
    members: list[list] = [[] for _ in groups]
    unassigned = []
    for case in cases:
        i = group_index(groups, case.name)
        (unassigned if i is None else members[i]).append(case)
    return members, unassigned


def score(groups: tuple[ScoreGroup, ...], cases: tuple[CaseResult, ...]) -> Score:
    """The score of graded ``cases`` under the spec's ``groups`` (empty: one point per case)."""
    zeroed_by = next((c for c in cases if c.verdict in ZEROING), None)
    if groups:
        members, unassigned = assign(groups, cases)
        pairs = [(g.name, g.points, tuple(m)) for g, m in zip(groups, members) if m]
    else:
        unassigned = []
        pairs = [(case_label(c), 1, (c,)) for c in cases]
    earned = tuple(GroupScore(name, worth, 0 if zeroed_by or any(
        c.verdict is not Verdict.AC for c in members) else worth, members)
        for name, worth, members in pairs)
    total = lambda values: round(sum(values), 9)  # noqa: E731 - 33.3 * 3 is 99.9, not 99.899...
    return Score(score=total(g.score for g in earned), max_score=total(g.max_score for g in earned),
                 groups=earned, per_case=not groups, zeroed_by=zeroed_by,
                 unassigned=tuple(unassigned))


def maximum(problem: Problem) -> float:
    """What a submission graded on every case can earn: the points of the groups that have a
    case (one per case without ``scoring``)."""
    if not problem.scoring:
        return len(problem.cases)
    members, _ = assign(problem.scoring, problem.cases)
    return round(sum(g.points for g, m in zip(problem.scoring, members) if m), 9)


def scored(problem: Problem, result: GradeResult) -> GradeResult:
    """``result`` with its score under ``problem``'s scoring."""
    return replace(result, score=score(problem.scoring, result.cases))


def of(result: GradeResult) -> Score:
    """The result's score; a result graded without a problem at hand (an internal error's
    report) scores one point per case."""
    return result.score if isinstance(result.score, Score) else score((), result.cases)


def zero_text(s: Score) -> str:
    """Why the score is 0 (empty when it is not zeroed): ``a rule failure (RJ) on hidden 3
    scores 0 in total``."""
    c = s.zeroed_by
    return f"{ZEROING_TEXT[c.verdict]} on {case_label(c)} scores 0 in total" if c else ""


def listed(cases, limit: int = 5) -> str:
    """Cases by label (examples named, hidden cases by number), at most ``limit`` of them."""
    labels = [case_label(c) for c in cases]
    more = f" and {len(labels) - limit} more" if len(labels) > limit else ""
    return ", ".join(labels[:limit]) + more


def text_lines(s: Score) -> list[str]:
    """The text report's score: the total, and each group with the cases that failed it."""
    head = f"score: {number(s.score)}/{number(s.max_score)}"
    if s.zeroed_by:
        head += f" ({zero_text(s)})"
    elif s.per_case:
        head += " (one point per case)"
    lines = [head]
    if not s.per_case:
        width = max((len(g.name) for g in s.groups), default=0)
        for g in s.groups:
            line = f"  {g.name:<{width}}  {number(g.score)}/{number(g.max_score)}"
            if g.failed:
                line += f"  failed: {listed(g.failed)}"
            lines.append(line)
        if s.unassigned:
            lines.append(f"  in no group (no points): {listed(s.unassigned)}")
    return lines


def describe(problem: Problem) -> list[str]:
    """`judge show`'s scoring section: the groups, their points and how many cases each holds
    (examples by name; hidden cases only counted, never named, nor the globs that match them)."""
    zero = "  A rule failure (RJ) or a compile error (CE) on any case scores 0 in total."
    out = ["", "## Scoring"]
    if not problem.scoring:
        return out + [f"  Each case is worth one point ({points(len(problem.cases))} in all).", zero]
    members, unassigned = assign(problem.scoring, problem.cases)
    total = sum(g.points for g in problem.scoring)
    out += [f"  {points(total)} in {plural(len(problem.scoring), 'group')}; a group earns its "
            "points only when all of its cases pass.", zero]
    for g, cases in zip(problem.scoring, members):
        examples = [c.name for c in cases if c.visibility == "example"]
        hidden = len(cases) - len(examples)
        parts = ([f"{plural(len(examples), 'example')} ({', '.join(examples)})"] if examples else []) + \
            ([plural(hidden, "hidden case")] if hidden else [])
        out.append(f"  - {g.name}: {points(g.points)}, {' and '.join(parts) or 'no cases'}")
    if unassigned:
        out.append(f"  ({plural(len(unassigned), 'case')} in no group carry no points)")
    return out
