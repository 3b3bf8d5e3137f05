"""The ``mutants`` check of `judge check --mutants`: a warning per mutant of the reference that
no case kills (``judge.author.mutants_run``). Without ``--mutants`` this module is never imported."""

from __future__ import annotations

import time

from judge.author import mutants_run
from judge.errors import JudgeError
from judge.author.findings import ERROR, INFO, WARNING


def check_mutants(report, problem, jobs: int, progress) -> None:
    check = report.add("mutants", file=problem.reference)
    t0 = time.monotonic()
    try:
        result = mutants_run.run(problem, jobs=jobs, first_kill=True,
                                 progress=lambda text: progress(f"{problem.id}: mutant {text}"))
    except JudgeError as exc:
        report.find(check, ERROR, problem.reference, str(exc))
        check.time_s = time.monotonic() - t0
        return
    check.time_s = time.monotonic() - t0
    check.summary = mutants_run.score_text(result)
    where = mutants_run.equivalents_path(problem)
    for r in result.survivors:
        report.find(check, WARNING, problem.reference,
                    f"mutant {r.mutant.id} survived: {r.mutant.description}; add a case that "
                    f"kills it, or list it in {where.name} with the reason it is equivalent",
                    r.mutant.line)
    for r in result.results:
        if r.status == "invalid":
            report.find(check, INFO, problem.reference, f"mutant {r.mutant.id} is invalid "
                        f"({r.reason}), counted apart: {r.mutant.description}", r.mutant.line)
    for mutant_id in result.unknown_equivalents:
        report.find(check, WARNING, where, f"{mutant_id!r} is no mutant of the reference any more; "
                                           "remove it")
    for old, new in result.renamed.items():
        report.find(check, WARNING, where, f"{old!r} names a mutant by its line: "
                                           f"{mutants_run.renamed_text(new)}")
