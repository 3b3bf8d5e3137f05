"""grad_reversal: a cheat that applies the layer to x for y, but takes dx from a second
``jax.vjp`` of the same layer at ``zeros_like(x)`` (the identity's pullback is the same at any
point): dx is not the pullback through r at x.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    y = r(x)
    _, pullback = jax.vjp(r, jnp.zeros_like(x))
    return {"y": y, "dx": pullback(dy)[0]}
