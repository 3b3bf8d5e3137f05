"""ema_scan: the decay made a float32 array once (``jnp.float32(decay)``) and closed over by the
step, the scan under ``jax.named_scope("ema")``, the step decorated with ``jax.named_call``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    a = jnp.float32(decay)
    b = jnp.float32(1.0) - a

    @jax.named_call
    def step(m, row):
        m = a * m + b * row
        return m, m

    with jax.named_scope("ema"):
        _, out = jax.lax.scan(step, jnp.zeros(x.shape[1], jnp.float32), x)
    return out
