"""grad_reversal: a Python branch on the static lam: when lam == 0 the answer is known, so dx is
written as zeros and no custom_vjp runs at all; otherwise an honest layer. dx is not pulled back
through a backward rule on those cases, which the statement forbids (lam >= 0 includes 0): the
hidden case lam = 0 traces the branch that applies no custom_vjp.

Problem: grad_reversal
Expected: RJ no_custom_vjp
Cases: all
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
