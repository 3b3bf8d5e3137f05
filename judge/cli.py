"""Command line: parses arguments and dispatches to library functions. Nothing else lives here.

Exit status: 0 accepted (or success), 1 any other verdict, 2 usage error or internal error.
"""

from __future__ import annotations

import argparse
import sys

from judge import cli_parser
from judge.cli_parser import usable_cores  # noqa: F401  (the CLI's: benchmarks read it here)
from judge.errors import JudgeError

EXIT_OK, EXIT_VERDICT, EXIT_ERROR = 0, 1, 2


def _settings(option: str | None, default: str = "auto", prestart: bool = False,
              ask: bool = True):
    """The command's ``judge.run.settings.Settings``, resolved once: the bwrap probe, and the
    warning when the runs will be unsandboxed. A sandbox that cannot be used is reported by the
    first run, as always. ``default``: the mode without ``--sandbox`` and $JUDGE_SANDBOX
    (``bwrap`` for the commands that grade others' code: they fail closed). With ``prestart``,
    the warm server for them is started at once (``warm.prestart``). Without ``ask``, the
    workers' Python is not asked where it imports JAX from before a run needs to know
    (``Settings.resolve``)."""
    from judge.run import warm
    from judge.run.settings import Settings

    settings = Settings.resolve(option, default=default, ask=ask)
    if prestart:
        warm.prestart(settings)
    return settings


def cmd_grade(args) -> int:
    from concurrent.futures import ThreadPoolExecutor

    from judge.run import warm

    # the server imports JAX while bwrap is probed; one run, so no worker forked ahead of a next
    warm.prestart_early(args.sandbox, ahead=False)
    with ThreadPoolExecutor(max_workers=1) as pool:  # ... and while the spec is imported and loaded
        # its runs are forked from the warm server, which says where it imported JAX from
        resolving = pool.submit(_settings, args.sandbox, "bwrap", prestart=True,
                                ask=not warm.enabled())
        from judge.problem import spec
        from judge.grade.regrade import grade
        from judge.reports import FORMATS
        from judge.grade.verdicts import Verdict

        args.gate_on = _source_gate(args)  # also read by an internal error's report
        problem = spec.load(args.problem)
        settings = resolving.result()
    result = grade(problem, args.submission, examples_only=args.examples_only, sandbox=settings,
                   source_gate=args.gate_on)
    sys.stdout.write(FORMATS[args.format](result))
    if result.verdict is Verdict.IE:
        return EXIT_ERROR
    return EXIT_OK if result.accepted else EXIT_VERDICT


def cmd_show(args) -> int:
    from judge.problem import spec
    from judge.reports.show import render

    sys.stdout.write(render(spec.load(args.problem), hints=args.hints))
    return EXIT_OK


def cmd_list(args) -> int:
    from judge.problem import spec
    from judge.reports.show import list_line, matches

    root = spec.find_root()
    shown = 0
    for path in sorted((root / "problems").glob("*.yaml")):
        try:
            problem = spec.load(path)
        except JudgeError as exc:  # listed whatever the filters: its tags cannot be known
            print(f"{path.stem:<20} (invalid: {exc})")
            continue
        if matches(problem, args.tag or (), args.difficulty):
            print(list_line(problem))
            shown += 1
    if not shown and (args.tag or args.difficulty):
        print("judge: no problem under problems/ matches the filters", file=sys.stderr)
    return EXIT_OK


def cmd_check(args) -> int:
    settings = _settings(None, prestart=True)  # $JUDGE_SANDBOX, else auto; JAX imported meanwhile
    from judge.author.check import check_problem, problem_paths
    from judge.grade import result_cache
    from judge.reports import check_text, junit
    from judge.reports.progress import Progress

    paths = problem_paths(args.problems)
    source_gate = _source_gate(args)
    stored = None if args.no_cache or not result_cache.enabled() else result_cache.ResultCache()
    progress = Progress()

    def check(path):
        try:
            report = check_problem(path, jobs=args.jobs, progress=progress,
                                   source_gate=source_gate, mutants=args.mutants,
                                   sandbox=settings, result_cache=stored)
        finally:
            progress.clear()
        sys.stdout.write(check_text.render(report))
        sys.stdout.flush()
        return report

    reports = [check(path) for path in paths]
    errors = sum(r.errors for r in reports)
    warnings = sum(r.warnings for r in reports)
    if len(reports) > 1:
        print(f"checked {len(reports)} problems: {check_text.totals(errors, warnings)}")
    if args.junit_xml:
        junit.write(reports, args.junit_xml, werror=args.werror)
    if args.watch:
        from judge.author.watch import watch

        latest = dict(zip(paths, reports))

        def again(path):
            latest[path] = check(path)
            if args.junit_xml:
                junit.write(list(latest.values()), args.junit_xml, werror=args.werror)

        watch(paths, again, say=lambda text: print(text, flush=True))
        errors, warnings = (sum(getattr(r, k) for r in latest.values()) for k in ("errors", "warnings"))
    return EXIT_VERDICT if errors or (args.werror and warnings) else EXIT_OK


def cmd_generate(args) -> int:
    from judge.author.generate_cmd import main as generate_main

    return generate_main(args)


def cmd_fill(args) -> int:
    from judge.author.fill import main as fill_main

    return fill_main(args)


def cmd_schema(args) -> int:
    from judge.author.schema_cmd import main as schema_main

    return schema_main(args)


def cmd_mutants(args) -> int:
    from judge.author.mutants_run import main as mutants_main

    return mutants_main(args)


def _source_gate(args) -> bool:
    """--source-gate, else $JUDGE_SOURCE_GATE, else on; one warning on stderr when off."""
    from judge import gate

    on, where = gate.requested(args.source_gate)
    if not on:
        gate.warn_off(where)
    return on


def cmd_batch(args) -> int:
    from judge.grade import batch_cmd

    code = batch_cmd.run(args, lambda: _settings(args.sandbox, "bwrap"), lambda: _source_gate(args))
    return EXIT_ERROR if code else EXIT_OK


def _interrupt(*_):
    raise KeyboardInterrupt


def cmd_warm(args) -> int:
    import signal

    from judge.run.serve import serve

    # Ctrl-C and kill both stop the server cleanly (its socket removed), even when it was started
    # with SIGINT ignored, as a shell starts a background job (`judge warm &`).
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    serve(sandbox=_settings(args.sandbox), idle_timeout=args.idle_timeout,
          announce=lambda text: print(text, file=sys.stderr, flush=True))
    return EXIT_OK


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser (``cli_parser.build``; ``only``: one command's alone)."""
    return cli_parser.build({"grade": cmd_grade, "show": cmd_show, "batch": cmd_batch,
                             "warm": cmd_warm, "list": cmd_list, "check": cmd_check,
                             "generate": cmd_generate, "fill": cmd_fill, "schema": cmd_schema,
                             "mutants": cmd_mutants}, only)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # a command line that names its command first is parsed by that command's parser alone
    parser = build_parser(argv[0] if argv and argv[0] in cli_parser.COMMANDS else None)
    if not argv:  # no command: say which ones there are
        parser.print_help(sys.stderr)
        print("\njudge: error: name a command, for example `judge grade FILE --problem ID`; "
              "`judge COMMAND -h` describes one", file=sys.stderr)
        return EXIT_ERROR
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except JudgeError as exc:
        print(f"judge: error: {exc}", file=sys.stderr)
        if args.command == "grade" and args.format != "text":  # a platform reads the report
            _internal_error_report(args, exc, f"not graded: {exc}")
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("judge: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - anything else is the judge's own fault: IE
        import traceback

        traceback.print_exc(file=sys.stderr)
        print(f"judge: internal error (IE): {type(exc).__name__}", file=sys.stderr)
        if args.command == "grade":  # the report the caller waits for, saying IE
            _internal_error_report(args, exc)
        return EXIT_ERROR


def _internal_error_report(args, exc: Exception, message: str | None = None) -> None:
    """An ``IE judge_error`` report of ``judge grade`` in the requested format, so that a
    platform waiting for one (Gradescope's results.json) gets one. For an unexpected failure
    only the exception's type is in it: its text could quote anything (the traceback is on
    stderr); ``message`` is the judge's own words for a usage error (a file that is not a .py
    file, a broken spec)."""
    try:
        from judge.reports import FORMATS
        from judge.grade.verdicts import GradeResult, Verdict
        from judge.run.boundary import escape

        result = GradeResult(problem=str(args.problem), submission=escape(str(args.submission)),
                             verdict=Verdict.IE, reason="judge_error",
                             message=escape(message) if message else
                             f"internal error ({type(exc).__name__}); the judge's log has "
                             f"the details", time_s=0.0, cases=(),
                             source_gate=getattr(args, "gate_on", True))
        sys.stdout.write(FORMATS[args.format](result))
    except Exception:  # noqa: BLE001 - the exit status still says IE
        pass


if __name__ == "__main__":
    raise SystemExit(main())
