"""ema_scan: honest code: a ``lax.while_loop`` whose carry holds a counter from 0 to ``T`` by one,
the running average and the output buffer, each row written with ``dynamic_update_slice``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]

    def cond(state):
        return state[0] < T

    def body(state):
        i, m, out = state
        row = jax.lax.dynamic_slice_in_dim(x, i, 1, axis=0)[0]
        m = decay * m + (1.0 - decay) * row
        out = jax.lax.dynamic_update_slice_in_dim(out, m[None, :], i, axis=0)
        return i + 1, m, out

    init = (jnp.int32(0), jnp.zeros(x.shape[1], jnp.float32), jnp.zeros_like(x))
    return jax.lax.while_loop(cond, body, init)[2]
