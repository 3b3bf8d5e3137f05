"""batched_attention, honest: the online softmax over the keys one at a time (a running max,
normaliser and output), jitted, vmapped over the batch and jitted again. Autodiff's stack of
running outputs crosses the jits' boundaries to the backward scan, which reads it a row a step.

Expected: AC
"""
import math

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def attend(q, k, v, mask):
    scale = 1.0 / math.sqrt(q.shape[-1])

    def step(carry, key):
        m, l, o = carry
        kj, vj, seen = key
        s = jnp.where(seen, (q @ kj) * scale, -jnp.inf)
        m_new = jnp.maximum(m, s)
        safe = jnp.where(jnp.isfinite(m_new), m_new, 0.0)  # no key seen yet: m stays -inf
        corr, p = jnp.exp(m - safe), jnp.exp(s - safe)
        return (m_new, l * corr + p, o * corr[:, None] + p[:, None] * vj[None, :]), None

    t, e = q.shape[0], v.shape[-1]
    init = (jnp.full((t,), -jnp.inf, q.dtype), jnp.zeros((t,), q.dtype), jnp.zeros((t, e), q.dtype))
    (_, l, o), _ = lax.scan(step, init, (k, v, mask.T))
    return o / l[:, None]


@jax.jit
def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
