"""grad_reversal: a cheat whose backward rule picks, by the sign of the cotangent's sum, between
-λ g and +λ g (a rule chosen by data), then the caller flips the sign of dx where that sum was
negative: a case with a negative sum comes out right only through the scaling outside.

Problem: grad_reversal
Expected: RJ
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(x):
        return x

    def bwd(_, g):
        return (jax.lax.cond(jnp.sum(g) >= 0, lambda g: -lam * g, lambda g: lam * g, g),)

    r.defvjp(lambda x: (x, None), bwd)
    y, pullback = jax.vjp(r, x)
    dx = pullback(dy)[0]
    dx = jnp.where(jnp.sum(dy) >= 0, dx, -dx)
    return {"y": y, "dx": dx}
