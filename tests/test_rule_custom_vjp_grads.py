"""The decision of the rule ``custom_vjp_grads`` from a case's measured evidence: a field that
does not depend on the cotangent is refused, unless it is zero everywhere and what a backward
rule returned (a rule that special-cases a zero answer, as at lam = 0)."""

import numpy as np
import pytest

from judge.rules import custom_vjp_grads
from judge.rules.base import TraceEvidence
from judge.run import boundary

RULE = {"id": "custom_vjp_grads", "field": "dx", "cotangent": "dy", "plumbed": True}


def _trace(dx, used: bool, returned: bool, scaled=None) -> TraceEvidence:
    dx = np.asarray(dx, np.float32)
    flow = boundary.Provenance(reached=False, used=used, rules=1, opaque=0, returned=returned)
    evidence = boundary.Evidence(custom_vjp_applied=1, backward_runs=1, instrument_intact=True,
                                 provenance=flow,
                                 scaled={"y": dx, "dx": dx if scaled is None else scaled})
    report = boundary.CaseReport(index=0, time_s=0.0, stdout="", stderr="", evidence=evidence)
    return TraceEvidence(label="this case", shapes={}, report=report,
                         output={"y": dx, "dx": dx}, factor=4.0)


@pytest.mark.parametrize("dx, used, returned, breach", [
    ([-1.0, 2.0], True, True, None),                        # pulled back through the rule
    ([0.0, -0.0], False, True, None),                       # zeros the rule returned (lam = 0)
    ([0.0, -0.0], False, False, "grads_not_from_backward"),  # zeros written beside the rule
    ([1.0, 2.0], False, True, "grads_not_from_backward"),   # a rule's constant, not a gradient
    ([0.0, 1.0], False, True, "grads_not_from_backward"),   # zero in part only
])
def test_a_field_that_ignores_the_cotangent(dx, used, returned, breach):
    scaled = np.asarray(dx, np.float32) * 4
    found = custom_vjp_grads.check(RULE, _trace(dx, used, returned, scaled), None)
    assert (found and found.reason) == breach, found


def test_an_old_worker_message_without_returned_relaxes_nothing():
    flow = boundary.Provenance(reached=False, used=False, rules=1, opaque=0)
    assert flow.returned is False
