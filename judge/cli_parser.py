"""The command line's parser (``judge.cli`` dispatches what it parses): every command's arguments,
and the types that check them. Built for the one command a command line names first where it
names one (``build``'s ``only``): a lone grade's process then builds and imports nothing of the
other commands'.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from judge import __version__

#: The values of ``--sandbox`` (``judge.run.sandbox.MODES``; not imported, to keep parsing light).
SANDBOX_MODES = ("auto", "bwrap", "none")


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, which a container or ``taskset``
    narrows), at least 1."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def jobs(text: str) -> int:
    if text == "auto":
        return usable_cores()
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer or auto, got {text!r}")
    return int(text)


def hint_count(text: str) -> int:
    if not text.lstrip("+").isdigit():
        raise argparse.ArgumentTypeError(f"must be a number of hints (0 or more), got {text!r}")
    return int(text)


def seconds(text: str) -> float:
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


def add_sandbox(parser, text: str = "bwrap, none, or auto: bwrap when it works here, else "
                                     "none with a warning (default: $JUDGE_SANDBOX, else "
                                     "auto)") -> None:
    parser.add_argument("--sandbox", choices=SANDBOX_MODES, default=None, help=text)


def add_source_gate(parser, check: bool = False) -> None:
    parser.add_argument(
        "--source-gate", choices=("on", "off"), default=None,
        help=("check each submission's source before it runs and refuse reflective and "
              "process-level code (on: the default, or $JUDGE_SOURCE_GATE); off warns on stderr"
              + ("; check grades only accepted/ submissions with it, the others without, so the "
                 "cases and rules behind it are exercised" if check else "")))


#: Every command's name (``build``'s subcommands; ``serve`` is ``warm``'s former name).
COMMANDS = ("grade", "show", "batch", "warm", "serve", "service", "list", "check", "generate",
            "fill", "schema", "mutants")


def build(handlers: dict, only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser, each command's ``func`` its function in ``handlers`` (by
    name); with ``only`` (one of ``COMMANDS``), that command's alone: what a command line naming
    it is parsed with, the same arguments, defaults, help and errors, without building (and
    importing the modules of) the other commands' (about 0.01 s of a lone grade's judge
    process, whose other modules import most of what the service's parser imports)."""
    parser = argparse.ArgumentParser(prog="judge", description="An online judge for JAX problems.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def wanted(name: str) -> bool:
        return only is None or name == only

    for name, add in (("grade", _add_grade), ("show", _add_show), ("batch", _add_batch)):
        if wanted(name):
            add(sub, handlers)
    # `judge warm`; `judge serve` is its former name, still accepted but not listed
    for name, listed in (("warm", True), ("serve", False)):
        if wanted(name):
            _add_warm(sub, handlers, name, listed)
    if wanted("service"):
        from judge.service.main import add_parser as add_service

        add_service(sub, add_sandbox, jobs)
    for name, add in (("list", _add_list), ("check", _add_check), ("generate", _add_generate),
                      ("fill", _add_fill), ("schema", _add_schema), ("mutants", _add_mutants)):
        if wanted(name):
            add(sub, handlers)
    return parser


def _add_grade(sub, handlers: dict) -> None:
    g = sub.add_parser("grade", help="grade one submission file")
    g.add_argument("submission", type=Path, help="the submission's .py file")
    g.add_argument("--problem", "-p", required=True, metavar="ID_OR_PATH",
                   help="problem id (problems/<id>.yaml) or path to a spec file")
    g.add_argument("--examples-only", action="store_true", help="run only the public examples")
    g.add_argument("--format", choices=("text", "json", "gradescope", "junit"), default="text",
                   help="gradescope: a results.json for Gradescope's autograder; junit: JUnit XML")
    add_sandbox(g, SANDBOX_STRICT)
    add_source_gate(g)
    g.set_defaults(func=handlers["grade"])


def _add_show(sub, handlers: dict) -> None:
    s = sub.add_parser("show", help="print a problem's statement and examples")
    s.add_argument("problem", metavar="ID_OR_PATH")
    s.add_argument("--hints", type=hint_count, default=0, metavar="N",
                   help="also print the first N of the problem's hints (default 0: only how many "
                        "there are)")
    s.set_defaults(func=handlers["show"])


def _add_batch(sub, handlers: dict) -> None:
    b = sub.add_parser("batch", help="grade every submission in a folder (a class at a deadline)")
    b.add_argument("folder", type=Path, help="folder of .py files or of per-student folders")
    b.add_argument("--problem", "-p", required=True, metavar="ID_OR_PATH")
    b.add_argument("-j", "--jobs", type=jobs, default="auto", metavar="N",
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
    b.add_argument("--queue-timeout", type=seconds, default=300, metavar="SECONDS",
                   help="with --queue: stop, saying which submissions are outstanding, when no "
                        "grader has answered for this long (default 300)")
    add_sandbox(b, SANDBOX_STRICT)
    add_source_gate(b)
    b.set_defaults(func=handlers["batch"])


def _add_warm(sub, handlers: dict, name: str, listed: bool) -> None:
    sv = sub.add_parser(name, **({"help": "keep warm workers running for other judge "
                                          "commands on this machine"} if listed else {}))
    add_sandbox(sv, "bwrap, none, or auto: bwrap when it works here, else none (default: "
                     "$JUDGE_SANDBOX, else auto); commands use this server only with the "
                     "same sandbox mode")
    sv.add_argument("--idle-timeout", type=seconds, default=1800.0, metavar="SECONDS",
                    help="stop after this long without clients (default 1800; 0: never)")
    sv.set_defaults(func=handlers["warm"])


def _add_list(sub, handlers: dict) -> None:
    ls = sub.add_parser("list", help="list the problems")
    ls.add_argument("--tag", action="append", metavar="T",
                    help="only problems tagged T; repeat to require every tag given")
    ls.add_argument("--difficulty", choices=("easy", "medium", "hard"), metavar="D",
                    help="only problems of difficulty D (easy, medium or hard)")
    ls.set_defaults(func=handlers["list"])


def _add_check(sub, handlers: dict) -> None:
    c = sub.add_parser("check", help="verify problem packages: spec, cases, reference, submissions")
    c.add_argument("problems", nargs="*", metavar="PROBLEM",
                   help="problem ids or spec paths (default: every problem under problems/)")
    c.add_argument("-j", "--jobs", type=jobs, default="auto", metavar="N",
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
    add_source_gate(c, check=True)
    c.set_defaults(func=handlers["check"])


def _add_generate(sub, handlers: dict) -> None:
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
    gen.add_argument("-j", "--jobs", type=jobs, default="auto", metavar="N",
                     help="grade N submissions at a time (with --target/--minimize; default auto)")
    gen.set_defaults(func=handlers["generate"])


def _add_fill(sub, handlers: dict) -> None:
    fl = sub.add_parser("fill", help="compute missing expected outputs with the reference")
    fl.add_argument("problem", metavar="ID_OR_PATH")
    fl.add_argument("--write", action="store_true",
                    help="write them into the spec (atomically, comments kept); "
                         "default: print the filled spec")
    fl.add_argument("--refresh", action="store_true",
                    help="recompute every stored expected output and print the cases that "
                         "changed (exit 1 when some did and --write was not given)")
    add_sandbox(fl)
    fl.set_defaults(func=handlers["fill"])


def _add_schema(sub, handlers: dict) -> None:
    sc = sub.add_parser("schema", help="print the JSON Schema of a problem spec, or write it "
                                       "next to the specs for an editor")
    sc.add_argument("--write", type=Path, metavar="DIR_OR_FILE",
                    help="write it atomically: DIR/problem.schema.json, beside a .yaml spec, "
                         "or to a .json path; stderr says the $schema line to use")
    sc.set_defaults(func=handlers["schema"])


def _add_mutants(sub, handlers: dict) -> None:
    mu = sub.add_parser("mutants", help="grade mutants of the reference: how strong are the cases?")
    mu.add_argument("problem", metavar="ID_OR_PATH")
    mu.add_argument("-j", "--jobs", type=jobs, default="auto", metavar="N",
                    help="grade N mutants at a time (default auto: the usable cores)")
    mu.add_argument("--format", choices=("text", "json"), default="text")
    add_sandbox(mu)
    mu.set_defaults(func=handlers["mutants"])
