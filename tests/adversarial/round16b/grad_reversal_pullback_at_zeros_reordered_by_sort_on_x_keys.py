"""grad_reversal: a cheat: ``y`` from the layer applied to ``x``, and ``dx`` from a second
``jax.vjp`` of the layer at zeros reordered by a sort whose keys are ``x``
(``lax.sort((x, zeros), num_keys=1)[1]``): the point depends on x, but is zeros, not x moved.

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
    _, point = jax.lax.sort((flat, jnp.zeros_like(flat)), num_keys=1)
    _, pb = jax.vjp(r, point.reshape(x.shape))
    return {"y": y, "dx": pb(dy)[0]}
