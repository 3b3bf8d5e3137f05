"""ema_scan: a ``jax.jit(..., inline=True)`` helper for the linear interpolation (PyTorch's
``torch.lerp(start, end, weight)``: the mean moves by ``1 - decay`` of the way to the row), a
``fori_loop`` over the rows writing each mean with ``lax.dynamic_update_slice`` and reading each
row with ``lax.dynamic_slice_in_dim``, ``jnp.zeros_like(x)`` as the output buffer.

Problem: ema_scan
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp
from jax import lax


@functools.partial(jax.jit, inline=True)
def lerp(a, b, w):
    return a + w * (b - a)


def ema(x, decay):
    def body(t, state):
        prev, out = state
        row = lax.dynamic_slice_in_dim(x, t, 1, axis=0)[0]
        cur = lerp(prev, row, 1.0 - decay)
        return cur, lax.dynamic_update_slice(out, cur[None, :], (t, 0))

    init = (jnp.zeros(x.shape[1:], jnp.float32), jnp.zeros_like(x))
    _, out = lax.fori_loop(0, x.shape[0], body, init)
    return out
