"""``judge batch``, the command: where a class is graded (local workers, or the service's
graders with ``--queue``), where its journal and reports go (never inside the class folder,
where a student could have put a file of that name), and what it prints.
"""

from __future__ import annotations

import sys
from pathlib import Path

from judge.errors import JudgeError


def run(args, local_settings, source_gate) -> int:
    """Grade ``args.folder`` as ``judge batch`` was asked (here, or by the service's graders
    with ``--queue``), write the report, the journal and the feedback files; 1 when any
    submission could not be graded (IE), else 0. ``local_settings()`` is the sandbox asked for a
    local batch; ``source_gate()`` whether the gate is on (it warns when off)."""
    from judge import atomic
    from judge.problem import spec
    from judge.run import cache, warm
    from judge.grade.batch import run_batch
    from judge.reports import batch_report, handout
    from judge.reports.progress import Progress

    remote = None
    if args.queue is not None:  # the service's graders grade; nothing runs here
        from judge.service.class_queue import Remote, sandbox_asked

        settings = sandbox_asked(args.sandbox)
        problem = spec.load(args.problem)
        remote = Remote(args.queue, timeout=args.queue_timeout)
    else:
        warm.prestart_early(args.sandbox)
        settings = local_settings().check()  # no sandbox: no batch, not N IEs
        warm.prestart(settings)
        problem = spec.load(args.problem)
        cache.for_workers()  # a cache folder that cannot be made stops the batch once
    out = args.out or Path(f"batch-{problem.id}" + {"text": ".txt", "gradescope": "-gradescope"}
                           .get(args.format, f".{args.format}"))
    journal = _journal_path(args, problem.id, out)
    for folder in (args.feedback, out if args.format == "gradescope" else None):
        if folder is not None:
            _outside_class(args.folder, folder, "a folder of results")
    records = run_batch(problem, args.folder, journal, jobs=args.jobs, resume=args.resume,
                        restart=args.restart, sandbox=settings, progress=Progress(),
                        source_gate=source_gate(), remote=remote)
    if args.format == "gradescope":
        handout.write_gradescope(out, records)
    else:
        atomic.write_text(out, batch_report.FORMATS[args.format](problem.id, records))
    if args.feedback is not None:
        handout.write_feedback(args.feedback, problem.id, records)
        print(f"feedback: {args.feedback} (a file per student)", file=sys.stderr)
    sys.stdout.write(batch_report.render_text(problem.id, records))
    print(f"report: {out} (journal: {journal})", file=sys.stderr)
    internal = sum(r["verdict"] == "IE" for r in records)
    if internal:
        print(f"judge: {internal} submission(s) could not be graded (IE)", file=sys.stderr)
    return 1 if internal else 0


def _journal_path(args, problem_id: str, out: Path) -> Path:
    """``--journal``, else the judge's own place for this class, problem and report; never in
    the class folder, where a student could have put one."""
    from judge.grade import journal

    path = args.journal or journal.default_path(args.folder, problem_id, out)
    _outside_class(args.folder, path, "a batch journal", ", or leave out --journal")
    return path


def _outside_class(folder: Path, path: Path, what: str, advice: str = "") -> None:
    """Refuse ``path`` inside the class folder: a student could have put it there, and what the
    batch writes there would be graded as a student's next time."""
    folder = folder.resolve()
    if path.resolve() == folder or folder in path.resolve().parents:
        raise JudgeError(f"{path}: {what} inside the class folder {folder} could be a "
                         f"student's; name one elsewhere{advice}")
