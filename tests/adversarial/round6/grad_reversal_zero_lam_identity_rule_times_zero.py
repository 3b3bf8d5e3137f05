"""grad_reversal: at lam == 0 the layer's rule returns the cotangent unchanged and dx is what it
returns times zero, outside the rule: the zero answer is made by a formula applied to the
rule's output, not by the rule (the cotangent scaled outside every rule).

Problem: grad_reversal
Expected: RJ grads_not_from_backward
Cases: all
"""

import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(v):
        return v

    rule = (lambda _, g: (g,)) if lam == 0 else (lambda _, g: (-lam * g,))
    rev.defvjp(lambda v: (v, None), rule)
    y, pull = jax.vjp(rev, x)
    dx = pull(dy)[0]
    return {"y": y, "dx": dx * 0.0 if lam == 0 else dx}
