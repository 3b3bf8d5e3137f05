"""``recurrence``'s ``degenerate``: static values at which the recurrence vanishes from the
answer (ema_scan's decay 0) are not asked for a loop; every other value is, and the key is
checked when the spec loads."""

from types import SimpleNamespace

import pytest
import yaml

from judge.errors import SpecError
from judge.problem import spec
from judge.rules import required_primitives
from judge.rules.base import TraceEvidence
from tests.helpers import ROOT

RULE = {"id": "required_primitives", "recurrence": "T", "degenerate": {"decay": [0]}}
#: a program traced with T as a symbol whose only loop carries nothing: no recurrence
NO_LOOP = SimpleNamespace(symbolic=True, loops=[], live={}, primitives={})


def _trace(decay):
    return TraceEvidence(label="this case", shapes={"x": (4, 2)}, program=NO_LOOP,
                         symbols={"T": (1, 64)}, values={"decay": decay})


@pytest.mark.parametrize("decay, spared", [(0.0, True), (-0.0, True), (0, True), (1e-30, False),
                                           (0.5, False), (0.9, False)])
def test_only_the_degenerate_values_are_spared(decay, spared):
    breach = required_primitives.check(RULE, _trace(decay), None)
    assert (breach is None) is spared, breach
    if not spared:
        assert breach.reason == "missing_primitive"


def test_without_degenerate_every_value_asks_for_the_recurrence():
    rule = {"id": "required_primitives", "recurrence": "T"}
    assert required_primitives.check(rule, _trace(0.0), None).reason == "missing_primitive"


def test_a_trace_without_the_value_is_not_spared():
    trace = TraceEvidence(label="probe", shapes={"x": (4, 2)}, program=NO_LOOP, symbols={"T": (1, 64)})
    assert required_primitives.check(RULE, trace, None).reason == "missing_primitive"


def test_the_statement_names_the_values():
    assert "except where decay is 0" in required_primitives.describe(RULE)


def _variant(tmp_path, change):
    data = yaml.safe_load((ROOT / "problems" / "ema_scan.yaml").read_text())
    change(data["rules"][0])
    path = tmp_path / "ema_scan.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.mark.parametrize("change, field, words", [
    (lambda r: r["degenerate"].update(x=[0]), "rules[0].degenerate.x", "not a static number parameter"),
    (lambda r: r.update(degenerate={"decay": ["zero"]}), "rules[0].degenerate.decay", "number"),
    (lambda r: r.update(degenerate={}), "rules[0].degenerate", "empty"),
    (lambda r: (r.pop("recurrence"), r.update(primitives=["scan"])), "rules[0].degenerate", "give recurrence"),
])
def test_a_bad_degenerate_names_its_field(tmp_path, change, field, words):
    with pytest.raises(SpecError) as info:
        spec.load(_variant(tmp_path, change))
    assert info.value.field.startswith(field), info.value.field
    assert words in info.value.problem, info.value.problem


def test_the_bundled_spec_spares_decay_zero():
    problem = spec.load(ROOT / "problems" / "ema_scan.yaml")
    rule = next(r for r in problem.rules if r["id"] == "required_primitives")
    assert rule["degenerate"] == {"decay": [0]}
