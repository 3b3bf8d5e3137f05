"""fake_quant_ste: the ``jax.custom_vjp`` function returns the integer level (clipped, still
float32) and its rule passes ``g * mask / scale``; the scale multiplies after, so the values and
the gradient both come from ``scale * level(x)``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def level(v):
        return jnp.clip(jnp.round(v / scale), qmin, qmax)

    def level_fwd(v):
        r = v / scale
        return level(v), (r >= qmin) & (r <= qmax)

    def level_bwd(inside, g):
        return (jnp.where(inside, g / scale, 0.0),)

    level.defvjp(level_fwd, level_bwd)
    values, pullback = jax.vjp(lambda v: scale * level(v), x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
