"""ema_scan: a scan of length T whose carry is only a power of decay; each step returns a whole row
of decay weights times x (a T-element row, never T x T at once): the carry reaches the output,
but no element of the output through an element of its own.

Problem: ema_scan
Expected: RJ missing_primitive
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    # the scan carries only decay^t; each step's row is a weighted sum of all of x
    T = x.shape[0]
    idx = jnp.arange(T)

    def step(p, t):
        lag = t - idx
        powers = decay ** jnp.maximum(lag, 0).astype(jnp.float32)
        w = jnp.where(lag >= 0, (1 - decay) * powers, 0.0) * (p / p)
        return p * decay + (1 - decay), w @ x

    _, out = jax.lax.scan(step, jnp.float32(1.0), idx)
    return out
