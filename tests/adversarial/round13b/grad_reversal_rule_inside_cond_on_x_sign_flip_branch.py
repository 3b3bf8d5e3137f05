"""grad_reversal: a cheat whose identity layer, with the honest rule ``-lam * g``, is pulled back
inside both branches of a ``lax.cond`` on whether all of x is positive, one branch negating what
the rule returned: the sign of the gradient is chosen by x outside the rule.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp
from jax import lax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    pull = lambda v, c: jax.vjp(r, v)[1](c)[0]
    dx = lax.cond(jnp.all(x > 100.0), lambda v, c: -pull(v, c), pull, x, dy)
    return {"y": r(x), "dx": dx}
