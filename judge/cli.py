"""Command line: parses arguments and dispatches to library functions. Nothing else lives here.

Exit status: 0 accepted (or success), 1 any other verdict, 2 usage error or internal error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge import __version__
from judge.errors import JudgeError

EXIT_OK, EXIT_VERDICT, EXIT_ERROR = 0, 1, 2
#: The values of ``--sandbox`` (``judge.run.sandbox.MODES``; not imported, to keep parsing light).
SANDBOX_MODES = ("auto", "bwrap", "none")


def _settings(option: str | None, default: str = "auto", prestart: bool = False):
    """The command's ``judge.run.settings.Settings``, resolved once: the bwrap probe, and the
    warning when the runs will be unsandboxed. A sandbox that cannot be used is reported by the
    first run, as always. ``default``: the mode without ``--sandbox`` and $JUDGE_SANDBOX
    (``bwrap`` for the commands that grade others' code: they fail closed). With ``prestart``,
    the warm server for them is started at once (``warm.prestart``)."""
    from judge.run import warm
    from judge.run.settings import Settings

    settings = Settings.resolve(option, default=default)
    if prestart:
        warm.prestart(settings)
    return settings


def cmd_grade(args) -> int:
    from concurrent.futures import ThreadPoolExecutor

    from judge.run import warm

    warm.prestart_early(args.sandbox)  # the server imports JAX while bwrap is probed
    with ThreadPoolExecutor(max_workers=1) as pool:  # ... and while the spec is imported and loaded
        resolving = pool.submit(_settings, args.sandbox, "bwrap", prestart=True)
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


def _hint_count(text: str) -> int:
    if not text.lstrip("+").isdigit():
        raise argparse.ArgumentTypeError(f"must be a number of hints (0 or more), got {text!r}")
    return int(text)


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


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, which a container or ``taskset``
    narrows), at least 1."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _jobs(text: str) -> int:
    if text == "auto":
        return usable_cores()
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer or auto, got {text!r}")
    return int(text)


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


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds (0 or more), got {text!r}")
    return value


#: ``--sandbox``'s help where the command grades others' code and so fails closed.
SANDBOX_STRICT = ("run submissions under bubblewrap (bwrap, the default, else $JUDGE_SANDBOX): "
                  "where it cannot start, nothing is graded; none runs them without it, auto "
                  "under bwrap when it works here and else without it (both with a warning)")


def _add_sandbox(parser, text: str = "bwrap, none, or auto: bwrap when it works here, else "
                                     "none with a warning (default: $JUDGE_SANDBOX, else "
                                     "auto)") -> None:
    parser.add_argument("--sandbox", choices=SANDBOX_MODES, default=None, help=text)


def _add_source_gate(parser, check: bool = False) -> None:
    parser.add_argument(
        "--source-gate", choices=("on", "off"), default=None,
        help=("check each submission's source before it runs and refuse reflective and "
              "process-level code (on: the default, or $JUDGE_SOURCE_GATE); off warns on stderr"
              + ("; check grades only accepted/ submissions with it, the others without, so the "
                 "cases and rules behind it are exercised" if check else "")))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="An online judge for JAX problems.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    g = sub.add_parser("grade", help="grade one submission file")
    g.add_argument("submission", type=Path, help="the submission's .py file")
    g.add_argument("--problem", "-p", required=True, metavar="ID_OR_PATH",
                   help="problem id (problems/<id>.yaml) or path to a spec file")
    g.add_argument("--examples-only", action="store_true", help="run only the public examples")
    g.add_argument("--format", choices=("text", "json", "gradescope", "junit"), default="text",
                   help="gradescope: a results.json for Gradescope's autograder; junit: JUnit XML")
    _add_sandbox(g, SANDBOX_STRICT)
    _add_source_gate(g)
    g.set_defaults(func=cmd_grade)

    s = sub.add_parser("show", help="print a problem's statement and examples")
    s.add_argument("problem", metavar="ID_OR_PATH")
    s.add_argument("--hints", type=_hint_count, default=0, metavar="N",
                   help="also print the first N of the problem's hints (default 0: only how many "
                        "there are)")
    s.set_defaults(func=cmd_show)

    b = sub.add_parser("batch", help="grade every submission in a folder (a class at a deadline)")
    b.add_argument("folder", type=Path, help="folder of .py files or of per-student folders")
    b.add_argument("--problem", "-p", required=True, metavar="ID_OR_PATH")
    b.add_argument("-j", "--jobs", type=_jobs, default="auto", metavar="N",
                   help="grade N submissions at a time (default auto: one per core this process "
                        "may use)")
    b.add_argument("--format", choices=("text", "json", "csv", "gradescope"), default="text",
                   help="gradescope: a folder with <student>/results.json for each student")
    b.add_argument("--out", type=Path, metavar="FILE",
                   help="report file (default batch-<problem>.<format>); with --format "
                        "gradescope a folder (default batch-<problem>-gradescope)")
    b.add_argument("--feedback", type=Path, metavar="DIR",
                   help="also write DIR/<student>.txt for each student: what judge grade shows "
                        "them (verdict, score by group, failing examples, hint)")
    again = b.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true",
                       help="continue an interrupted batch: skip submissions already in the "
                            "journal")
    again.add_argument("--restart", action="store_true",
                       help="start the batch over: replace its journal and grade every "
                            "submission again")
    b.add_argument("--journal", type=Path, metavar="FILE",
                   help="the batch's journal (default: in the judge's cache folder, "
                        "<cache>/journals/, one per class folder, problem and report)")
    b.add_argument("--queue", metavar="URL", default=None,
                   help="redis://HOST:PORT/DB: hand the submissions to the service's graders "
                        "(judge service --grader-only --queue URL, on any machine with the same "
                        "problems) instead of grading here; -j then has no effect, and --sandbox "
                        "says the graders' sandbox (bwrap unless none)")
    b.add_argument("--queue-timeout", type=_seconds, default=300, metavar="SECONDS",
                   help="with --queue: stop, saying which submissions are outstanding, when no "
                        "grader has answered for this long (default 300)")
    _add_sandbox(b, SANDBOX_STRICT)
    _add_source_gate(b)
    b.set_defaults(func=cmd_batch)

    # `judge warm`; `judge serve` is its former name, still accepted but not listed
    for name, listed in (("warm", True), ("serve", False)):
        sv = sub.add_parser(name, **({"help": "keep warm workers running for other judge "
                                              "commands on this machine"} if listed else {}))
        _add_sandbox(sv, "bwrap, none, or auto: bwrap when it works here, else none (default: "
                         "$JUDGE_SANDBOX, else auto); commands use this server only with the "
                         "same sandbox mode")
        sv.add_argument("--idle-timeout", type=_seconds, default=1800.0, metavar="SECONDS",
                        help="stop after this long without clients (default 1800; 0: never)")
        sv.set_defaults(func=cmd_warm)

    from judge.service.main import add_parser as add_service

    add_service(sub, _add_sandbox, _jobs)

    ls = sub.add_parser("list", help="list the problems")
    ls.add_argument("--tag", action="append", metavar="T",
                    help="only problems tagged T; repeat to require every tag given")
    ls.add_argument("--difficulty", choices=("easy", "medium", "hard"), metavar="D",
                    help="only problems of difficulty D (easy, medium or hard)")
    ls.set_defaults(func=cmd_list)

    c = sub.add_parser("check", help="verify problem packages: spec, cases, reference, submissions")
    c.add_argument("problems", nargs="*", metavar="PROBLEM",
                   help="problem ids or spec paths (default: every problem under problems/)")
    c.add_argument("-j", "--jobs", type=_jobs, default="auto", metavar="N",
                   help="grade N submissions at a time (default auto: the usable cores)")
    c.add_argument("--junit-xml", type=Path, metavar="PATH", help="also write a JUnit XML report")
    c.add_argument("--werror", action="store_true", help="fail on warnings too")
    c.add_argument("--mutants", action="store_true",
                   help="also grade mutants of the reference; a warning per surviving mutant")
    c.add_argument("--no-cache", action="store_true",
                   help="run every submission and the reference again: neither reuse nor store "
                        "their results (the result cache, in the judge's cache folder; also "
                        "$JUDGE_RESULT_CACHE=off)")
    c.add_argument("--watch", action="store_true",
                   help="after the check, check a problem again whenever its spec, reference, "
                        "generator or submissions change (Ctrl-C to stop)")
    _add_source_gate(c, check=True)
    c.set_defaults(func=cmd_check)

    gen = sub.add_parser("generate", help="generate new hidden cases from generators/<id>.py")
    gen.add_argument("problem", metavar="ID_OR_PATH")
    gen.add_argument("--count", "-n", type=int, required=True, metavar="N",
                     help="cases per round, spread over the families")
    gen.add_argument("--seed", type=int, required=True, metavar="S",
                     help="the same seed and options give the same cases, byte for byte")
    gen.add_argument("--family", action="extend", nargs="+", metavar="NAME",
                     help="only these families (default: all of the generator's)")
    where = gen.add_mutually_exclusive_group()
    where.add_argument("--write", action="store_true",
                       help="append the cases to the spec's hidden list (atomically)")
    where.add_argument("--out", type=Path, metavar="FILE", help="write the YAML to FILE")
    gen.add_argument("--target", nargs="?", const="submissions", default=None,
                     choices=("submissions", "mutants"),
                     help="more rounds until every wrong_answer/rejected submission is caught "
                          "(--target mutants: every mutant of the reference the cases leave alive)")
    gen.add_argument("--minimize", action="store_true",
                     help="keep a small subset of the cases with the same kills")
    gen.add_argument("-j", "--jobs", type=_jobs, default="auto", metavar="N",
                     help="grade N submissions at a time (with --target/--minimize; default auto)")
    gen.set_defaults(func=cmd_generate)

    fl = sub.add_parser("fill", help="compute missing expected outputs with the reference")
    fl.add_argument("problem", metavar="ID_OR_PATH")
    fl.add_argument("--write", action="store_true",
                    help="write them into the spec (atomically, comments kept); "
                         "default: print the filled spec")
    fl.add_argument("--refresh", action="store_true",
                    help="recompute every stored expected output and print the cases that "
                         "changed (exit 1 when some did and --write was not given)")
    _add_sandbox(fl)
    fl.set_defaults(func=cmd_fill)

    sc = sub.add_parser("schema", help="print the JSON Schema of a problem spec, or write it "
                                       "next to the specs for an editor")
    sc.add_argument("--write", type=Path, metavar="DIR_OR_FILE",
                    help="write it atomically: DIR/problem.schema.json, beside a .yaml spec, "
                         "or to a .json path; stderr says the $schema line to use")
    sc.set_defaults(func=cmd_schema)

    mu = sub.add_parser("mutants", help="grade mutants of the reference: how strong are the cases?")
    mu.add_argument("problem", metavar="ID_OR_PATH")
    mu.add_argument("-j", "--jobs", type=_jobs, default="auto", metavar="N",
                    help="grade N mutants at a time (default auto: the usable cores)")
    mu.add_argument("--format", choices=("text", "json"), default="text")
    _add_sandbox(mu)
    mu.set_defaults(func=cmd_mutants)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):  # no command: say which ones there are
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
