"""grad_reversal: the reversal written for one scalar (λ a ``nondiff_argnums`` argument) and
``jax.vmap``-ed over the flattened features, reshaped back; ``jax.vjp`` through the vmapped
layer.

Problem: grad_reversal
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def reverse_one(lam, x):
    return x


def _fwd(lam, x):
    return x, ()


def _bwd(lam, _, g):
    return (-lam * g,)


reverse_one.defvjp(_fwd, _bwd)


def grad_reverse(x, lam, dy):
    def layer(x):
        return jax.vmap(partial(reverse_one, lam))(x.ravel()).reshape(x.shape)

    y, pullback = jax.vjp(layer, x)
    return {"y": y, "dx": pullback(dy)[0]}
