import jax.numpy as jnp


def ema(x, decay):
    # m_t = (1 - decay) decay^t sum_{s <= t} decay^(-s) x_s, with a cumulative sum
    t = jnp.arange(x.shape[0], dtype=jnp.float32)[:, None]
    scale = jnp.float32(decay) ** t if decay > 0 else (t == 0).astype(jnp.float32)
    safe = jnp.where(scale > 0, scale, 1.0)
    return jnp.where(decay > 0, (1 - decay) * scale * jnp.cumsum(x / safe, axis=0), x)
