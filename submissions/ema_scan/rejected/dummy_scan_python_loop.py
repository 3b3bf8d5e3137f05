import jax
import jax.numpy as jnp


def ema(x, decay):
    # a scan that only weighs each row by 1 - decay; the recurrence runs in a Python loop
    _, weighted = jax.lax.scan(lambda c, row: (c, (1 - decay) * row), 0.0, x)
    m = jnp.zeros_like(weighted[0])
    out = []
    for t in range(x.shape[0]):
        m = decay * m + weighted[t]
        out.append(m)
    return jnp.stack(out)
