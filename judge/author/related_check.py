"""`judge check`'s ``related`` check: the problems a spec names as related exist."""

from __future__ import annotations

from judge.author.findings import WARNING, shown
from judge.grade.verdicts import plural
from judge.problem import spec


def check_related(report, loaded) -> None:
    """The spec's ``related`` ids name other problems, found in ``spec.problem_folders`` (the
    spec's own folder, ``$JUDGE_PROBLEM_PATH``, the repository's and the bundled problems): a
    warning at the line of each one found nowhere, or that names the problem itself."""
    problem = loaded.problem
    if not problem.related:
        return
    check = report.add("related")
    folders = spec.problem_folders(problem.path)
    where = set()
    for i, rid in enumerate(problem.related):
        line = spec.line_of(loaded.nodes, ["related", i])
        home = next((f for f in folders if (f / f"{rid}.yaml").is_file()), None)
        if rid == problem.id:
            report.find(check, WARNING, problem.path, f"related[{i}]: {rid!r} is this problem "
                                                      "itself", line)
        elif home is None:
            report.find(check, WARNING, problem.path, f"related[{i}]: no problem {rid!r} (no "
                                                      f"{rid}.yaml in {', '.join(map(shown, folders))}; "
                                                      f"${spec.PROBLEM_PATH_ENV} adds folders)", line)
        else:
            where.add(shown(home))
    bad = len(report.of(check))
    total = plural(len(problem.related), 'related problem')
    check.summary = (f"{len(problem.related) - bad} of {total} found" if bad else
                     f"{total}, all in {', '.join(sorted(where))}")
