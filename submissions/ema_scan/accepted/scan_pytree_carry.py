import jax
import jax.numpy as jnp


def ema(x, decay):
    # the carry is a pytree: the running average and a step counter beside it
    def step(state, row):
        m = decay * state["m"] + (1.0 - decay) * row
        return {"m": m, "steps": state["steps"] + 1}, m

    init = {"m": jnp.zeros_like(x[0]), "steps": jnp.zeros((), jnp.int32)}
    _, rows = jax.lax.scan(step, init, x)
    return rows
