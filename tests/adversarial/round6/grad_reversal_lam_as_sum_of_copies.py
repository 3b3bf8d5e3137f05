"""grad_reversal: lam applied outside the rule by plumbing alone: the cotangent is broadcast and
summed (ten copies at a time, Horner's scheme over lam's decimal digits) into round(lam * 10^4)
copies of itself, pulled back through a rule that multiplies by the constant -1e-4. Only
broadcasts, sums and additions touch dy outside the rule, yet lam is applied there.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""

import jax
import jax.numpy as jnp

SCALE = 10000


@jax.custom_vjp
def r(x):
    return x


r.defvjp(lambda x: (x, None), lambda _, g: (g * (-1.0 / SCALE),))


def _times(dy, k):
    """k copies of dy summed, with broadcasts and sums only (k a Python int)."""
    total = jnp.zeros_like(dy)
    for digit in str(k):
        tens = jnp.sum(jnp.broadcast_to(total, (10,) + dy.shape), axis=0)
        ones = jnp.sum(jnp.broadcast_to(dy, (int(digit) + 1,) + dy.shape), axis=0) - dy
        total = tens + ones
    return total


def grad_reverse(x, lam, dy):
    y, pull = jax.vjp(r, x)
    (dx,) = pull(_times(dy, round(lam * SCALE)))
    return {"y": y, "dx": dx}
