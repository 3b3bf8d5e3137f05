import jax.numpy as jnp


def ema(x, decay):
    m = jnp.zeros_like(x[0])
    rows = []
    for t in range(x.shape[0]):
        m = decay * m + (1 - decay) * x[t]
        rows.append(m)
    return jnp.stack(rows)
