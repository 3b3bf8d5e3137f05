"""The backward rule special-cases lam == 0 (a zero gradient, no multiplication); otherwise it
returns -lam * g. jax.custom_vjp called as a function rather than used as a decorator.

Expected verdict: accepted (on the hidden case lam = 0 too: its zeros are what the rule
returns, though they do not depend on the cotangent).
"""
import jax
import jax.numpy as jnp


def _identity(v):
    return v


def grad_reverse(x, lam, dy):
    rev = jax.custom_vjp(_identity)

    def fwd(v):
        return v, None

    def bwd(_, g):
        if lam == 0:
            return (jnp.zeros_like(g),)
        return (g * (-lam),)

    rev.defvjp(fwd, bwd)
    y, pullback = jax.vjp(rev, x)
    (dx,) = pullback(dy)
    return {"y": y, "dx": dx}
