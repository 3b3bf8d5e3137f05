"""grad_reversal: a cheat: ``y`` from the layer applied to ``x``, and ``dx`` from a second
``jax.vjp`` of the layer at ``lax.dynamic_update_slice(x, zeros_like(x), (i,))`` with ``i`` read
from the data: the update covers the whole operand, so the point is zeros on every input.

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
    flat = x.reshape(-1)
    start = jnp.argmin(flat)
    point = jax.lax.dynamic_update_slice(flat, jnp.zeros_like(flat), (start,))
    _, pb = jax.vjp(r, point.reshape(x.shape))
    return {"y": y, "dx": pb(dy)[0]}
