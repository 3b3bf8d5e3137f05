"""grad_reversal: a Python branch on the static lam: when lam == 0 the answer is known, so dx is
written as zeros and no custom_vjp runs at all; otherwise an honest layer. dx is not pulled back
through a backward rule on those cases, which the statement forbids (lam >= 0 includes 0).

Problem: grad_reversal
Expected: RJ
Cases: all
Open: AC: no case has lam = 0 (the generator leaves it out: a zero gradient cannot show that it
  came through a rule, and an honest rule may special-case it), so the branch that writes dx
  without a rule never runs
"""

import jax
import jax.numpy as jnp


@jax.custom_vjp
def _rev(v, lam):
    return v


_rev.defvjp(lambda v, lam: (v, lam), lambda lam, g: (-lam * g, None))


def grad_reverse(x, lam, dy):
    if lam == 0:
        return {"y": x, "dx": jnp.zeros_like(dy)}
    y, pull = jax.vjp(lambda v: _rev(v, jnp.float32(lam)), x)
    return {"y": y, "dx": pull(dy)[0]}
