"""ema_scan, honest: the reference's scan inside a ``jax.custom_vjp`` with a hand-written
backward (a reverse scan). This problem takes no derivative, so only the forward runs; the
rules read the scan inside the custom_vjp call.

Problem: ema_scan
Expected: AC
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    @jax.custom_vjp
    def run(x):
        def step(m, row):
            m = decay * m + (1.0 - decay) * row
            return m, m

        return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]

    def fwd(x):
        return run(x), None

    def bwd(_, g):
        def back(carry, gt):
            carry = decay * carry + gt
            return carry, (1.0 - decay) * carry

        return (jax.lax.scan(back, jnp.zeros_like(g[0]), g, reverse=True)[1],)

    run.defvjp(fwd, bwd)
    return run(x)
