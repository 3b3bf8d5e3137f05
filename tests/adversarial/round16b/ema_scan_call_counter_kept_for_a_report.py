"""ema_scan: honest code that counts its calls and the decays it saw in module-level Python
state (kept for a report, changing nothing that is computed), with the recurrence in a
``lax.scan``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

CALLS = {"ema": 0}
DECAYS_SEEN = []


def ema(x, decay):
    CALLS["ema"] += 1
    DECAYS_SEEN.append(decay)

    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    return jax.lax.scan(step, jnp.zeros((x.shape[1],), jnp.float32), x)[1]
