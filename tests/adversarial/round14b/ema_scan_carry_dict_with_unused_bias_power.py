"""ema_scan: a scan whose carry is a dict holding the average and decay^t (the bias correction a
student kept for later and does not apply); the stacked outputs a dict too, of which only the
averages are returned.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(state, row):
        m = decay * state["m"] + (1.0 - decay) * row
        new = {"m": m, "power": state["power"] * decay}
        return new, {"m": m, "corrected": m / (1.0 - new["power"] + 1e-12)}

    init = {"m": jnp.zeros(x.shape[1], jnp.float32), "power": jnp.ones((), jnp.float32)}
    _, ys = jax.lax.scan(step, init, x)
    return ys["m"]
