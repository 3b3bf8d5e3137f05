"""ema_scan: one column's EMA by a ``fori_loop`` writing each entry into its output vector with
``.at[t].set``, ``jax.vmap``-ed over the columns (``in_axes=1``, ``out_axes=1``).

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _column(col, decay):
    def body(t, state):
        m, out = state
        m = decay * m + (1 - decay) * col[t]
        return m, out.at[t].set(m)

    return jax.lax.fori_loop(0, col.shape[0], body, (jnp.float32(0), jnp.zeros_like(col)))[1]


def ema(x, decay):
    return jax.vmap(lambda c: _column(c, decay), in_axes=1, out_axes=1)(x)
