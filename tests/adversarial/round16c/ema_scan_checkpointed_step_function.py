"""ema_scan: the scan's body wrapped in ``jax.checkpoint`` (a habit from long recurrences whose
backward pass would store every carry), the carry a dict.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    @jax.checkpoint
    def body(carry, row):
        mean = decay * carry["mean"] + (1.0 - decay) * row
        return {"mean": mean}, mean

    _, means = jax.lax.scan(body, {"mean": jnp.zeros(x.shape[1:], x.dtype)}, x)
    return means
