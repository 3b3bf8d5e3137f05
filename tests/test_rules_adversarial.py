"""The custom_vjp rule of fake_quant_ste against submissions that attack it, and the honest styles
that must still pass (issue 16; the layer switch of issue 15).

* ``tests/adversarial/rules/*.py``: attacks with correct values and gradients, so that only the
  rule (or the source gate) can catch them. Each docstring is the one source of truth for its
  outcome, in two lines::

      Expected: RJ grads_not_from_backward                 (the gate on: the default)
      Expected with the gate off: RJ grads_not_from_backward

  A verdict may name alternative reasons (``RJ callback_used or grads_not_from_backward``);
  ``any`` asserts nothing (in-process forging with the gate off stays best effort). Where the
  gate must refuse, the source line it must name ends with ``# gate: refuse``. A line
  ``Open: WHY`` marks a way around the rule that is known and not closed: the test is an
  expected failure, and passes unnoticed once it is closed.
* ``tests/honest/fake_quant_ste/*.py``: one style each, all ``AC`` with the gate on.
* Every attack is also graded with the gate off and the problem's rules removed: it must be
  ``AC`` then, so its expected verdict comes from the rule, not from a wrong answer (unless a
  line ``Without the rules: any (WHY)`` says its answer depends on how the judge traces).

Expectations of ``forbidden_construct`` are skipped until that reason exists, and the gate-off
layer until ``grading.grade`` takes ``source_gate``. Everything selected is graded up front, two
at a time (examples only, warm workers under bwrap where it runs), the first time a test asks.
"""

import ast
import dataclasses
import inspect
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from judge.grade import grading
from judge.run import sandbox
from judge.grade.verdicts import REASONS, Verdict
from tests.helpers import sampled

TESTS = Path(__file__).resolve().parent
ATTACKS = sorted((TESTS / "adversarial" / "rules").glob("*.py"))
HONEST = sorted((TESTS / "honest" / "fake_quant_ste").glob("*.py"))

GATE_SWITCH = "source_gate" in inspect.signature(grading.grade).parameters
GATE_REASON = "forbidden_construct" in REASONS
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
WORKERS = 2  # the machine's cores; other people's tests share them

_EXPECTED = re.compile(r"^Expected( with the gate off)?:\s*(.+?)\s*$", re.M)
_OPEN = re.compile(r"^Open:\s*(.+?)\s*$", re.M)
_UNRULED = re.compile(r"^Without the rules:\s*any\b", re.M)


@dataclasses.dataclass(frozen=True)
class Outcome:
    verdict: Verdict
    reasons: frozenset[str]

    def __str__(self) -> str:
        return f"{self.verdict.value} {' or '.join(sorted(self.reasons))}"


def _outcome(text: str) -> Outcome | None:
    """``RJ reason [or reason ...]``, or ``any`` (None: nothing asserted)."""
    if text == "any":
        return None
    verdict, _, rest = text.partition(" ")
    reasons = frozenset(r.strip() for r in rest.split(" or ") if r.strip())
    for reason in reasons:
        assert REASONS.get(reason, Verdict(verdict)) is Verdict(verdict), text
    return Outcome(Verdict(verdict), reasons)


def refused_line(path: Path) -> int | None:
    """The line an attack marks as the one the source gate must name."""
    marked = [n for n, line in enumerate(path.read_text().splitlines(), 1)
              if line.rstrip().endswith("# gate: refuse")]
    assert len(marked) <= 1, f"{path.name}: more than one line marked for the gate"
    return marked[0] if marked else None


def expectations(path: Path) -> tuple[Outcome | None, Outcome | None, str | None]:
    """(gate on, gate off, open) from an attack's docstring."""
    doc = ast.get_docstring(ast.parse(path.read_text())) or ""
    found = {bool(off): text for off, text in _EXPECTED.findall(doc)}
    assert set(found) == {False, True}, f"{path.name}: needs both Expected lines"
    opened = _OPEN.search(doc)
    return _outcome(found[False]), _outcome(found[True]), opened and opened.group(1)


# --- the jobs: (layer, path) ------------------------------------------------------------------

GATE_ON, GATE_OFF, NO_RULES = "gate on", "gate off", "gate off, no rules"


def _skip(layer: str, expected: Outcome | None) -> str | None:
    if layer != GATE_ON and not GATE_SWITCH:
        return "grading.grade has no source_gate switch yet (issue 15)"
    if expected and "forbidden_construct" in expected.reasons and not GATE_REASON:
        return "there is no source gate yet (RJ forbidden_construct, issue 16)"
    return None


def _params():
    for path in ATTACKS:
        on, off, opened = expectations(path)
        for layer, expected in ((GATE_ON, on), (GATE_OFF, off)):
            if expected is None:
                continue
            marks = []
            if _skip(layer, expected):
                marks.append(pytest.mark.skip(reason=_skip(layer, expected)))
            if opened:
                marks.append(pytest.mark.xfail(reason=f"open: {opened}", strict=False))
            yield pytest.param((layer, path), expected, marks=marks,
                               id=f"{path.stem}[{layer}]")


def _correct_params():
    for path in ATTACKS:
        if _UNRULED.search(ast.get_docstring(ast.parse(path.read_text())) or ""):
            continue
        marks = []
        if not GATE_SWITCH and GATE_REASON:  # a gate that cannot be switched off refuses most
            marks.append(pytest.mark.skip(reason="the source gate cannot be switched off"))
        yield pytest.param((NO_RULES, path), marks=marks, id=path.stem)


def run(problem, job):
    layer, path = job
    # explicit both ways, so that JUDGE_SOURCE_GATE in the environment changes nothing here
    kwargs = {"source_gate": layer == GATE_ON} if GATE_SWITCH else {}
    if layer == NO_RULES:
        problem = dataclasses.replace(problem, rules=())
    return grading.grade(problem, path, examples_only=True, sandbox=SANDBOX, **kwargs)


class Graded:
    """Grades every selected job of this module on first use, WORKERS at a time."""

    def __init__(self, problem, jobs):
        self.problem, self.pending = problem, list(dict.fromkeys(jobs))
        self.results: dict = {}
        self.lock = threading.Lock()

    def _one(self, job):
        try:
            return job, run(self.problem, job), None
        except Exception as exc:  # noqa: BLE001 - reported by the test that asked for it
            return job, None, exc

    def __getitem__(self, job):
        with self.lock:
            if job not in self.results:
                todo = [j for j in self.pending if j not in self.results]
                if job not in todo:
                    todo.append(job)
                with ThreadPoolExecutor(WORKERS) as pool:
                    for done, result, exc in pool.map(self._one, todo):
                        self.results[done] = (result, exc)
        result, exc = self.results[job]
        if exc is not None:
            raise exc
        return result


@pytest.fixture(scope="module")
def graded(request, fq_problem):
    jobs = []
    for item in request.session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if item.module is request.module and "job" in params \
                and not item.get_closest_marker("skip"):
            jobs.append(params["job"])
    return Graded(fq_problem, jobs)


def describe(result) -> str:
    failing = [c for c in result.cases if c.reason != "ok"]
    where = f" (case {failing[0].index}: {failing[0].message})" if failing else ""
    return f"{result.verdict.value} {result.reason}: {result.message}{where}"


# --- the tests --------------------------------------------------------------------------------

def _attack_kind(values) -> tuple:
    """What a graded attack stands for: the default run grades the first attack of each kind (its
    layer, its class and the outcome it expects) and every attack the gate refuses (no worker
    starts for those); ``-m slow`` grades the rest."""
    (layer, path), expected = values
    if expected and "forbidden_construct" in expected.reasons:
        return path
    return layer, attack_class(path), str(expected)


def attack_class(path: Path) -> str:
    """``1``, ``2`` or ``3``: the attack's ``Class N (...)`` line."""
    found = re.search(r"^Class ([123]) \(", ast.get_docstring(ast.parse(path.read_text())) or "", re.M)
    return found.group(1) if found else ""


@pytest.mark.parametrize("job, expected", sampled(_params(), key=_attack_kind))
def test_attack_gets_its_verdict(graded, job, expected):
    result = graded[job]
    assert result.verdict is expected.verdict and result.reason in expected.reasons, \
        f"{job[1].name} with the {job[0]}: expected {expected}, got {describe(result)}"
    if result.reason == "forbidden_construct":  # the gate names the construct's line
        line = refused_line(job[1])
        said = " ".join([result.message] + [c.message for c in result.cases])
        assert re.search(rf"\bline {line}\b", said), \
            f"{job[1].name}: the gate should name line {line}: {describe(result)}"


@pytest.mark.parametrize("job", sampled(_correct_params(), key=lambda job: attack_class(job[1])))
def test_attack_is_right_without_the_rules(graded, job):
    """Values and gradients are correct: with no rules and no gate the attack is accepted."""
    result = graded[job]
    assert result.verdict is Verdict.AC, f"{job[1].name}: {describe(result)}"


def _honest_params():
    """Each honest style with the gate on; one whose docstring says ``Open:`` is an honest style
    the rules refuse on purpose (a strict expected failure, its cost stated in SECURITY.md)."""
    for path in HONEST:
        opened = _OPEN.search(ast.get_docstring(ast.parse(path.read_text())) or "")
        marks = [pytest.mark.xfail(reason=f"open: {opened.group(1)}", strict=True)] if opened else []
        yield pytest.param((GATE_ON, path), marks=marks, id=path.stem)


@pytest.mark.parametrize("job", sampled(list(_honest_params()), key=lambda job: HONEST.index(job[1]) // 8))
def test_honest_style_is_accepted(graded, job):
    result = graded[job]
    assert result.verdict is Verdict.AC, f"{job[1].name}: {describe(result)}"


def test_corpus_is_documented():
    """Every attack names its class and both outcomes; every honest style has a one-line
    docstring and differs from the others."""
    assert len(ATTACKS) >= 40 and len(HONEST) >= 20
    for path in ATTACKS:
        doc = ast.get_docstring(ast.parse(path.read_text())) or ""
        assert attack_class(path), f"{path.name}: no class line"
        on, _, _ = expectations(path)
        gated = on is not None and "forbidden_construct" in on.reasons
        assert gated == (refused_line(path) is not None), \
            f"{path.name}: a line '# gate: refuse' goes with, and only with, RJ forbidden_construct"
    texts = set()
    for path in HONEST:
        doc = ast.get_docstring(ast.parse(path.read_text()))
        summary = (doc or "").strip().split("\n\nOpen:")[0]  # an open style says why after it
        assert summary and "\n" not in summary, f"{path.name}: needs a one-line docstring"
        texts.add(path.read_text())
    assert len(texts) == len(HONEST)
