"""grad_reversal: a cheat: y from the layer applied to x, and dx from a second ``jax.vjp`` of the
layer at ``x * 0``, taken as the first row of ``jnp.unstack(jnp.stack([x * 0, x]))`` so that the point
looks like x moved (a row of a stack that holds x): the identity's pullback is the same at any
point, but the layer pulled back is not the one applied to x.

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
    point = jnp.unstack(jnp.stack([flat * 0.0, flat]))[0].reshape(x.shape)
    _, pb = jax.vjp(r, point)
    return {"y": y, "dx": pb(dy)[0]}
