"""grad_reversal: a backward rule with a shortcut chosen by the cotangent's data: when the
incoming gradient is all zeros it returns zeros (made of nothing), otherwise ``-lam * g``, under
``lax.cond``; both are the rule's output.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    def bwd(_, g):
        return (lax.cond(jnp.all(g == 0), jnp.zeros_like, lambda g: -lam * g, g),)

    r.defvjp(lambda v: (v, None), bwd)
    y, pullback = jax.vjp(r, x)
    return {"y": y, "dx": pullback(dy)[0]}
