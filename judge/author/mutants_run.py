"""`judge mutants`: grade every mutant of a problem's reference and score the problem's cases.

Each mutant (``judge.author.mutants``) is written to a temporary folder and graded by
``grading.grade`` like any submission: sandboxed, warm workers, ``jobs`` at a time. Mutants are
the author's trusted derived code, so they are graded with the source gate off.

Status of a mutant:

- ``killed``: some case's verdict is not AC (``killed_by`` lists those cases' indices);
- ``survived``: AC on every case: add a case that kills it, or mark it equivalent;
- ``equivalent``: listed in ``submissions/<id>/mutants.yaml`` with a reason; not graded;
- ``invalid``: CE, or every case RTE/IE: it tests nothing about the cases; counted apart.

Score = killed / (total - equivalent - invalid).
"""

from __future__ import annotations

import json
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from judge.grade import grading
from judge.author import mutants
from judge.problem import spec
from judge.errors import JudgeError, SpecError
from judge.grade.verdicts import Verdict
from judge.run import shared_compile

EQUIVALENTS_FILE = "mutants.yaml"
INVALID_VERDICTS = {Verdict.RTE, Verdict.IE}


@dataclass
class MutantResult:
    mutant: mutants.Mutant
    status: str                       # "killed", "survived", "equivalent", "invalid"
    killed_by: list[int] = field(default_factory=list)
    reason: str = ""                  # equivalent: the author's reason; invalid: the verdict
    time_s: float = 0.0

    def as_json(self) -> dict:
        return {"id": self.mutant.id, "description": self.mutant.description,
                "line": self.mutant.line, "status": self.status, "killed_by": self.killed_by}


@dataclass
class MutantsReport:
    problem: str
    reference: str
    results: list[MutantResult]
    unknown_equivalents: list[str] = field(default_factory=list)   # ids in mutants.yaml not generated
    time_s: float = 0.0
    labels: dict = field(default_factory=dict)   # case index -> "example 0", "hidden 3" (text)
    #: ids in mutants.yaml written by line and column -> the mutant's id, to write instead
    renamed: dict = field(default_factory=dict)

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def score(self) -> float | None:
        counted = len(self.results) - self.count("equivalent") - self.count("invalid")
        return self.count("killed") / counted if counted else None

    @property
    def survivors(self) -> list[MutantResult]:
        return [r for r in self.results if r.status == "survived"]


def equivalents_path(problem: spec.Problem) -> Path:
    return problem.path.parent.parent / "submissions" / problem.id / EQUIVALENTS_FILE


def renamed_text(new: str) -> str:
    return (f"mutant ids no longer carry line numbers, so that an edit elsewhere keeps them; "
            f"this one is {new!r}: rename it")


def load_equivalents(path: Path) -> dict[str, str]:
    """``{mutant id: reason}`` from ``mutants.yaml``: each key a mutant id, its value the reason
    (a string, or ``{reason: ...}``). A missing file is empty; a malformed one a SpecError."""
    if not path.is_file():
        return {}
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise SpecError(path, problem=f"not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise SpecError(path, problem="must map mutant ids to reasons")
    out = {}
    for key, value in data.items():
        reason = value.get("reason") if isinstance(value, dict) else value
        if not isinstance(reason, str) or not reason.strip():
            raise SpecError(path, [str(key)],
                            problem="an equivalent mutant needs a reason (a non-empty string)")
        out[str(key)] = reason.strip()
    return out


def classify(mutant: mutants.Mutant, result) -> MutantResult:
    """A graded mutant's status from its ``GradeResult``."""
    cases = result.cases
    if result.verdict is Verdict.CE or (cases and all(c.verdict in INVALID_VERDICTS for c in cases)):
        return MutantResult(mutant, "invalid", reason=f"{result.verdict.value} [{result.reason}]",
                            time_s=result.time_s)
    killed_by = [c.index for c in cases if c.verdict is not Verdict.AC]
    return MutantResult(mutant, "killed" if killed_by else "survived", killed_by,
                        time_s=result.time_s)


def run(problem: spec.Problem, *, jobs: int = 1, sandbox=None, progress=None,
        first_kill: bool = False) -> MutantsReport:
    """Generate and grade every mutant of ``problem``'s reference. ``sandbox``: the command's
    ``judge.run.settings.Settings``, or a ``--sandbox`` value, resolved once here. With
    ``first_kill`` (`judge check --mutants`, which reports only each mutant's status) a mutant
    is graded on the examples first, and on every case only if no example kills it: the
    status is the same, ``killed_by`` then lists the examples that kill it."""
    started = time.monotonic()
    ref = problem.reference
    try:
        source = ref.read_text(encoding="utf-8")
        generated = mutants.generate(source)
    except OSError as exc:
        raise JudgeError(f"{ref}: cannot read the reference: {exc.strerror}") from None
    except SyntaxError as exc:
        raise JudgeError(f"{ref}:{exc.lineno}: the reference does not parse: {exc.msg}") from None
    equivalents = load_equivalents(equivalents_path(problem))
    # an id written by line and column, as ids once were (``compare-L17C18-gt``): taken as the
    # mutant at that place, and reported with the id to write instead
    by_position = {m.position: m.id for m in generated}
    renamed = {old: by_position[old] for old in equivalents
               if old in by_position and by_position[old] not in equivalents}
    equivalents = {renamed.get(k, k): v for k, v in equivalents.items()}
    ids = {m.id for m in generated}
    results: dict[str, MutantResult] = {}
    with tempfile.TemporaryDirectory(prefix="judge-mutants-") as tmp:
        todo = []
        for m in generated:
            if m.id in equivalents:
                results[m.id] = MutantResult(m, "equivalent", reason=equivalents[m.id])
                continue
            path = Path(tmp) / m.id / f"{problem.entry_point}.py"
            path.parent.mkdir()
            path.write_text(m.source, encoding="utf-8")
            todo.append((m, path))

        from judge.run.settings import of as resolve_settings

        settings = resolve_settings(sandbox)

        compiles = shared_compile.start()  # a mutant's operations are compiled once for all

        def one(item):
            m, path = item
            out = None
            examples = getattr(problem, "examples", ())
            if first_kill and examples and len(examples) < len(problem.cases):
                out = classify(m, grading.grade(problem, path, examples_only=True, source_gate=False,
                                                hints=False, sandbox=settings, compiles=compiles))
                out = out if out.status == "killed" else None  # survived or invalid: every case
            if out is None:
                out = classify(m, grading.grade(problem, path, source_gate=False, hints=False,
                                                sandbox=settings, compiles=compiles))
            if progress:
                progress(f"{m.id}: {out.status}")
            return out

        pool = ThreadPoolExecutor(max_workers=max(1, jobs))
        try:
            for out in pool.map(one, todo):
                results[out.mutant.id] = out
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            if compiles is not None:
                compiles.close()
    return MutantsReport(problem.id, _shown(ref), [results[m.id] for m in generated],
                         sorted(set(equivalents) - ids), time.monotonic() - started,
                         {c.index: c.label for c in getattr(problem, "cases", ()) if hasattr(c, "label")},
                         renamed)


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def survivor_files(problem: spec.Problem, folder: Path, *, jobs: int = 1, sandbox: str | None = None,
                   progress=None) -> dict[str, Path]:
    """Grade every mutant on the problem's cases and write each survivor's source to
    ``folder/<id>/<entry point>.py``: mutant id -> file (for `judge generate --target mutants`)."""
    report = run(problem, jobs=jobs, sandbox=sandbox, progress=progress)
    files = {}
    for r in report.survivors:
        path = Path(folder) / r.mutant.id / f"{problem.entry_point}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(r.mutant.source, encoding="utf-8")
        files[r.mutant.id] = path
    return files


# -- reports ------------------------------------------------------------------------------------

def score_text(report: MutantsReport) -> str:
    counted = len(report.results) - report.count("equivalent") - report.count("invalid")
    score = "n/a" if report.score is None else f"{report.score:.2f}"
    return (f"mutation score {report.count('killed')}/{counted} = {score} ({len(report.results)} "
            f"mutants: {report.count('killed')} killed, {report.count('survived')} survived, "
            f"{report.count('equivalent')} equivalent, {report.count('invalid')} invalid)")


def _cases(indices: list[int], labels: dict, limit: int = 6) -> str:
    shown = ", ".join(labels.get(i, f"case {i}") for i in indices[:limit])
    return shown + (f", ... ({len(indices) - limit} more)" if len(indices) > limit else "")


def render_text(report: MutantsReport) -> str:
    lines = [f"{report.problem}: {len(report.results)} mutants of {report.reference}"]
    width = max((len(r.mutant.id) for r in report.results), default=0)
    for r in report.results:
        if r.status == "killed":
            what = f"killed by {len(r.killed_by)} case{'s' if len(r.killed_by) != 1 else ''}: " \
                   f"{_cases(r.killed_by, report.labels)}"
        elif r.status == "equivalent":
            what = f"equivalent: {r.reason}"
        elif r.status == "invalid":
            what = f"invalid: {r.reason}"
        else:
            what = "SURVIVED: add a case that kills it, or mark it equivalent"
        lines.append(f"  {r.mutant.id:<{width}}  {r.mutant.description}")
        lines.append(f"  {'':<{width}}    {what}")
    for mutant_id in report.unknown_equivalents:
        lines.append(f"  warning: {EQUIVALENTS_FILE} names {mutant_id!r}, which is no mutant of the "
                     f"reference any more")
    for old, new in report.renamed.items():
        lines.append(f"  warning: {EQUIVALENTS_FILE} names {old!r} by its line: {renamed_text(new)}")
    lines.append(f"{report.problem}: {score_text(report)} in {report.time_s:.1f}s")
    return "\n".join(lines) + "\n"


def render_json(report: MutantsReport) -> str:
    return json.dumps({"problem": report.problem, "score": report.score,
                       "mutants": [r.as_json() for r in report.results]}, indent=2) + "\n"


FORMATS = {"text": render_text, "json": render_json}


def main(args) -> int:
    """The CLI's ``judge mutants``: 0 no survivor, 1 some survivor, 2 (JudgeError) a usage error."""
    import sys

    from judge.reports.progress import Progress
    from judge.run import warm
    from judge.run.settings import Settings

    settings = Settings.resolve(args.sandbox)
    warm.prestart(settings)
    problem = spec.load(args.problem)
    progress = Progress()
    try:
        report = run(problem, jobs=args.jobs, sandbox=settings, progress=progress)
    finally:
        progress.clear()
    sys.stdout.write(FORMATS[args.format](report))
    return 1 if report.survivors else 0
