"""`judge check`'s ``scoring`` check: every group of the spec's ``scoring`` gets a case, and
every case a group.

A group that matches no case (its globs match no case name, or every case they match belongs to
an earlier group) could never be earned or lost: an error at the group's line. A case that no
group matches carries no points when graded: an error naming it (a last group with the glob
``"*"`` takes every case the others leave). Only the spec's valid cases are counted (invalid
ones are the ``cases`` check's errors). A spec without ``scoring`` gets no such check.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from judge.author.findings import ERROR
from judge.grade import scoring
from judge.grade.verdicts import plural
from judge.problem import spec


def check_scoring(report, loaded) -> None:
    problem = loaded.problem
    groups = problem.scoring
    if not groups:
        return
    check = report.add("scoring")
    members, unassigned = scoring.assign(groups, problem.cases)
    for i, (group, cases) in enumerate(zip(groups, members)):
        if cases:
            continue
        line = spec.line_of(loaded.nodes, ["scoring", "groups", i])
        earlier = sorted({groups[scoring.group_index(groups, c.name)].name for c in problem.cases
                          if any(fnmatchcase(c.name, p) for p in group.cases)})
        why = (f"every case it matches belongs to an earlier group ({', '.join(earlier)})"
               if earlier else f"no case name matches {', '.join(map(repr, group.cases))}")
        report.find(check, ERROR, problem.path, f"scoring.groups[{i}] ({group.name}): the group "
                                                f"matches no case: {why}; its "
                                                f"{scoring.points(group.points)} could never be "
                                                "earned", line)
    if unassigned:
        names = ", ".join(loaded.label(c) for c in unassigned[:5])
        more = f" and {len(unassigned) - 5} more" if len(unassigned) > 5 else ""
        report.find(check, ERROR, problem.path,
                    f"scoring: {plural(len(unassigned), 'case')} in no group would carry no "
                    f"points: {names}{more}; add a glob that matches them (a last group with "
                    "cases: [\"*\"] takes every case the others leave)",
                    spec.line_of(loaded.nodes, ["scoring"]))
    total = sum(g.points for g in groups)
    check.summary = (f"{scoring.points(total)} in {plural(len(groups), 'group')}, every case in "
                     f"one of them" if not report.of(check) else "")
