"""ema_scan: a cheat whose scan of length T carries only the decay's powers (``p -> decay * p``,
nothing from the data), stacked and used to weight a closed form by doubling steps; the
recurrence over the data is the doubling, which no scan computes.

Problem: ema_scan
Expected: RJ missing_primitive
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T, d = x.shape

    def step(p, _):
        p = decay * p
        return p, p

    _, powers = jax.lax.scan(step, jnp.float32(1.0), None, length=T)
    m = (1 - decay) * x
    for k in range(6):
        shift = 2 ** k
        padded = jnp.concatenate([jnp.zeros_like(m), m])
        moved = jax.lax.dynamic_slice(padded, (jnp.maximum(jnp.array(T) - shift, 0), 0), (T, d))
        m = m + decay ** shift * moved
    return m * (powers[:, None] / powers[:, None])
