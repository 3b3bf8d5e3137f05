"""grad_reversal: a cheat: y from the layer applied to x, and dx from a second ``jax.vjp`` of the
layer at zeros, taken as ``jnp.take`` of x at indices all out of bounds with ``mode="fill"``
and a fill value of 0, so that the point looks like x moved (a gather from x): the identity's
pullback is the same at any point, but the layer pulled back is not the one applied to x.

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
    point = jnp.take(flat, jnp.arange(flat.size) + flat.size, mode="fill", fill_value=0.0)
    point = point.reshape(x.shape)
    _, pb = jax.vjp(r, point)
    return {"y": y, "dx": pb(dy)[0]}
