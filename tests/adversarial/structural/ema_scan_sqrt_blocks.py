"""ema for ema_scan: a blocked closed form from two sqrt(T) x sqrt(T) matrices of decay powers
(dot_general and pow), then a scan that copies rows. Needs sqrt(T) as a number.

Expected: RJ dim_read_as_number
"""

import math

import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    k = max(1, math.isqrt(T))
    nb = -(-T // k)
    padded = jnp.concatenate([x, jnp.zeros((nb * k - T, x.shape[1]), x.dtype)]).reshape(nb, k, -1)
    i = jnp.arange(k)
    inner = jnp.where(i[:, None] >= i[None, :], decay ** (i[:, None] - i[None, :]).astype(x.dtype), 0.0)
    local = jnp.einsum("ij,bjd->bid", inner * (1.0 - decay), padded)
    carry = jnp.zeros_like(x[0])
    out = []
    for blk in range(nb):
        block = local[blk] + (decay ** (i + 1).astype(x.dtype))[:, None] * carry
        carry = block[-1]
        out.append(block)
    rows = jnp.concatenate(out)[:T]
    return jax.lax.scan(lambda c, r: (c, r), 0.0, rows)[1]
