"""A global call counter, the walrus operator and a match statement."""
import jax
import jax.numpy as jnp

CALLS = 0


def _flatten(a):
    match a.ndim:
        case 1:
            return a, a.shape
        case 2:
            return a.reshape(-1), a.shape
        case _:
            raise ValueError("bad rank")


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    global CALLS
    CALLS += 1
    flat, shape = _flatten(x)

    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        return (g * ((r := v / scale) >= qmin) * (r <= qmax),)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, flat)
    (g,) = pullback(cotangent.reshape(-1))
    return {"values": values.reshape(shape), "grads": g.reshape(shape)}
