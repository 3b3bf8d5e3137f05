from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

TINY = np.float32(0.0)  # numpy at import time: no epsilon, kept as an explicit zero


class PowerIteration:
    def __init__(self, W):
        self.W = W

    def step(self, u):
        v = jnp.einsum("mn,m->n", self.W, u)
        v = v * jax.lax.rsqrt(jnp.sum(jnp.square(v)) + TINY)
        w = jnp.einsum("mn,n->m", self.W, v)
        return w * jax.lax.rsqrt(jnp.sum(jnp.square(w)) + TINY), v


@partial(jax.jit, static_argnums=2)
def spectral_norm(W, u0, K):
    it = PowerIteration(jax.lax.stop_gradient(W))
    u = u0
    # first step written out, the other K - 1 in the loop
    u, v = it.step(u)
    u, v = jax.lax.fori_loop(1, K, lambda i, c: it.step(c[0]), (u, v))
    return jnp.einsum("m,mn,n->", u, W, v)
