"""`judge generate`, the command: rounds of generation, optional targeting of the known wrong
submissions and minimization, then the YAML (printed, written to ``--out``, or appended to the
spec's hidden cases with ``--write``) and a report.

The YAML goes to stdout (or a file) and depends only on the problem package, the seed and the
options; the report (rejection counts, kill matrix) goes to stderr, and a progress line is shown
there while it runs, when stderr is a terminal.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from judge.problem import casefile, spec, spec_write
from judge.author import generate, generate_cache, kills
from judge.errors import JudgeError
from judge.grade.verdicts import plural
from judge.reports.progress import Progress

#: Rounds of ``count`` new cases that ``--target`` tries before it gives up.
MAX_ROUNDS = 5


@dataclass
class Outcome:
    problem: object
    families: list
    generator: generate.Generator
    kept: list                     # generate.Kept, in output order
    rounds: int = 1
    matrix: kills.KillMatrix | None = None
    before_minimize: int | None = None
    target: bool | str = False      # True/"submissions": known wrong submissions; "mutants"


def select_families(module: generate.GeneratorModule, names: list[str] | None) -> list[str]:
    """The requested families (each once), or all of them, sorted by name."""
    if not names:
        return sorted(module.families)
    unknown = [n for n in names if n not in module.families]
    if unknown:
        raise JudgeError(f"{module.path}: no family {unknown[0]!r} (--family); families: "
                         f"{', '.join(sorted(module.families))}")
    return sorted(set(names))


def run(problem, count: int, seed: int, families: list[str] | None = None, *, target: bool = False,
        minimize: bool = False, jobs: int = 1, progress=None) -> Outcome:
    module = generate.load_generator(problem)
    chosen = select_families(module, families)
    gen = generate.Generator(problem, module, seed, chosen, progress)
    out = Outcome(problem, chosen, gen, gen.round(count), target=target)
    if not (target or minimize):
        generate.validate_items(problem, "".join(k.text for k in out.kept))
        return out
    with tempfile.TemporaryDirectory(prefix="judge-target-mutants-") as tmp:
        if target == "mutants":  # the reference's mutants that the spec's cases leave alive
            from judge.author.mutants_run import survivor_files

            subs = survivor_files(problem, Path(tmp), jobs=jobs,
                                  progress=progress and (lambda text: progress(f"mutant {text}")))
        else:
            subs = kills.must_be_caught(problem)
        _rounds(out, gen, problem, subs, count, target, jobs, progress)
    if minimize and out.matrix.caught():
        keep = set(kills.minimize(out.matrix))
        out.before_minimize = len(out.kept)
        out.kept = [k for k in out.kept if k.candidate.name in keep]
        out.matrix = out.matrix.restrict([k.candidate.name for k in out.kept])
    return out


def _rounds(out: Outcome, gen, problem, subs: dict, count: int, target, jobs: int, progress) -> None:
    out.matrix = kills.KillMatrix(list(subs))
    fresh = out.kept
    while True:
        cases = generate.validate_items(problem, "".join(k.text for k in fresh))
        kills.grade_round(problem, cases, subs, out.matrix, jobs, progress)
        if not target or not out.matrix.uncaught() or out.rounds >= MAX_ROUNDS:
            break
        out.rounds += 1
        fresh = gen.round(count)
        out.kept += fresh


def command_line(problem, count, seed, families, target, minimize) -> str:
    parts = ["judge generate", problem.id, f"--count {count}", f"--seed {seed}"]
    if families:
        parts.append("--family " + " ".join(sorted(set(families))))
    parts += (["--target mutants"] if target == "mutants" else ["--target"] if target else []) \
        + ["--minimize"] * minimize
    return " ".join(parts)


def render_yaml(outcome: Outcome, command: str) -> str:
    items = "".join(k.text for k in outcome.kept)
    return f"# {command}\nhidden:\n{items}" if items else f"# {command}\nhidden: []\n"


def render_report(outcome: Outcome) -> str:
    gen, problem = outcome.generator, outcome.problem
    rejected = gen.rejected
    minimized = (f" (minimized from {outcome.before_minimize})"
                 if outcome.before_minimize is not None else "")
    lines = [f"judge generate {problem.id}: seed {gen.seed}, {plural(len(outcome.kept), 'case')}"
             f"{minimized} from {plural(len(outcome.families), 'family', 'families')} in "
             f"{plural(outcome.rounds, 'round')}",
             f"candidates: {gen.examined} drawn, {len(rejected)} rejected, {gen.unused} screened "
             f"but not needed"]
    reasons = Counter(key for r in rejected for key, _ in r.reasons)
    if reasons:
        lines.append("rejected, by reason (a candidate may have several):")
        lines += [f"  {n:>4}  {generate.reason_label(key)}" for key, n in
                  sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))]
    example = next((r for r in rejected if r.candidate and any(
        k == "jit" or k.startswith("alt:") for k, _ in r.reasons)), None)
    if example:
        key, detail = next((k, d) for k, d in example.reasons if k == "jit" or k.startswith("alt:"))
        defaults = {p.name: p.dtypes[0] for p in problem.parameters if p.kind == "array"}
        shown = casefile.format_input(example.candidate.inputs, defaults)
        lines += [f"example of an ambiguous candidate: {example.name}: {generate.reason_label(key)}: "
                  f"{detail}", f"  input: {shown[:300]}{' ...' if len(shown) > 300 else ''}"]
    exact_kept = sum(1 for k in outcome.kept if k.candidate.exact)
    exact_bad = [r for r in rejected if r.candidate and r.candidate.exact]
    if exact_kept or exact_bad:
        lines.append(f"exact ties/bounds on purpose: {exact_kept} kept, every alternative agrees"
                     + (f"; {len(exact_bad)} rejected (check the generator: an 'exact' case "
                        f"should never be ambiguous)" if exact_bad else ""))
    per_family = Counter(k.candidate.family for k in outcome.kept)
    lines.append("cases per family: " + ", ".join(f"{f} {per_family[f]}" for f in outcome.families))
    lines += [f"warning: {s}" for s in gen.shortfalls]
    matrix = outcome.matrix
    if matrix is not None:
        mutants = outcome.target == "mutants"
        what = "surviving mutant of the reference" if mutants else "wrong_answer and rejected submission"
        if not matrix.submissions:
            lines.append("no mutant of the reference survives the spec's cases: nothing to kill"
                         if mutants else "no wrong_answer or rejected submissions to catch")
        else:
            lines.append(kills.render(matrix, first_hidden=len(problem.hidden)).rstrip("\n"))
            lines += [f"internal error (not counted as a catch): {e}" for e in matrix.internal_errors]
            missed = matrix.uncaught()
            if not missed:
                lines.append(f"every {what} is caught by a generated case")
            elif outcome.target:
                lines.append(f"gave up after {outcome.rounds} rounds of {MAX_ROUNDS}: no generated "
                             f"case catches {', '.join(missed)}")
            else:
                lines.append(f"not caught by any generated case: {', '.join(missed)}")
        if outcome.before_minimize is not None:
            lines.append(f"minimized: {outcome.before_minimize} -> "
                         f"{plural(len(outcome.kept), 'case')} with the same kills")
    return "\n".join(lines) + "\n"


def main(args, stdout=None, stderr=None) -> int:
    """The `judge generate` command; ``args`` as parsed by ``judge.cli``."""
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    if args.count < 1:
        raise JudgeError(f"--count: must be a positive integer, got {args.count}")
    if args.seed < 0:
        raise JudgeError(f"--seed: must be a non-negative integer, got {args.seed}")
    if args.out is not None and not Path(args.out).parent.is_dir():
        raise JudgeError(f"--out {args.out}: folder {Path(args.out).parent} does not exist")
    problem = spec.load(args.problem)
    command = command_line(problem, args.count, args.seed, args.family, args.target, args.minimize)
    name = generate_cache.key(problem, args.count, args.seed, args.family, args.target,
                              args.minimize, lambda: kills.must_be_caught(problem))
    entry = generate_cache.lookup(name)
    if entry is None:
        progress = Progress(stream=stderr)
        try:
            outcome = run(problem, args.count, args.seed, args.family, target=args.target,
                          minimize=args.minimize, jobs=args.jobs, progress=progress)
        finally:
            progress.clear()
        gave_up = bool(outcome.target and outcome.matrix is not None and outcome.matrix.uncaught())
        cases = [(k.candidate.name, k.text) for k in outcome.kept]
        yaml_text, report = render_yaml(outcome, command), render_report(outcome)
        generate_cache.store(name, yaml_text, cases, report, gave_up)
    else:  # this very command ran before on this very package: what it showed, not generated again
        gave_up = bool(entry.get("gave_up"))
        cases = [(c["name"], c["text"]) for c in entry["cases"]]
        yaml_text = entry["yaml"]
        report = entry["report"] + ("the same command's earlier output, kept by the judge for this "
                                    "package and these options (nothing generated again)\n")
    if args.write:
        names = [n for n, _ in cases]
        if names:
            spec_write.append_hidden(problem.path, "".join(t for _, t in cases), names)
            report += (f"wrote {plural(len(names), 'case')} to {problem.path} (hidden cases: "
                       f"{len(problem.hidden)} -> {len(problem.hidden) + len(names)})\n")
        else:
            report += f"nothing to write to {problem.path}\n"
    elif args.out is not None:
        spec_write.atomic_write(Path(args.out), yaml_text)
        report += f"wrote {plural(len(cases), 'case')} to {args.out}\n"
    else:
        stdout.write(yaml_text)
        stdout.flush()
    stderr.write(report)
    return 1 if gave_up else 0
