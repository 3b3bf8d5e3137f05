"""ema_scan: a ``lax.while_loop`` tested by ``lax.ne(t, T)``, the state a dict.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]

    def body(s):
        m = decay * s["m"] + (1.0 - decay) * x[s["t"]]
        return {"t": s["t"] + 1, "m": m, "out": s["out"].at[s["t"]].set(m)}

    s = jax.lax.while_loop(lambda s: jax.lax.ne(s["t"], T), body,
                           {"t": 0, "m": jnp.zeros_like(x[0]), "out": jnp.zeros_like(x)})
    return s["out"]
