# a custom_vjp whose backward returns the cotangent untouched, and the mask applied outside
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    q.defvjp(lambda x: (q(x), None), lambda _, g: (g,))
    values, pull = jax.vjp(q, x)
    (g,) = pull(cotangent)
    inside = (x / scale >= qmin) & (x / scale <= qmax)
    return {"values": values, "grads": g * inside}
