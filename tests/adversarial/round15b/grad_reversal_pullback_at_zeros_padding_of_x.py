"""grad_reversal: a cheat: y from the layer applied to x, and dx from a second ``jax.vjp`` of the
layer at zeros, taken as the first half of ``jnp.pad(x, (n, 0))`` (the padding: zeros) so that
the point looks like x moved (a slice of x padded): the identity's pullback is the same at any
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
    point = jnp.pad(flat, (flat.size, 0))[: flat.size].reshape(x.shape)
    _, pb = jax.vjp(r, point)
    return {"y": y, "dx": pb(dy)[0]}
