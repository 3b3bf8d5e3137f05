"""fake_quant_ste: the ``jax.custom_vjp`` function returns the clipped level; the values
recover an exact integer with ``jnp.floor(level + 0.5)`` (the level is already whole, so no
tie ever reaches it) and multiply by the scale; the gradient is pulled back through
``scale * level`` with the rule dividing by the scale.

Problem: fake_quant_ste
Expected: AC
Open: RJ values_not_from_custom_vjp: the values reach the custom_vjp function's output
  through ``jnp.floor``, an operation of zero derivative (``judge.worker.smooth``), which
  does the quantizer's work where the function is an identity written as a computation;
  it changes none of this function's outputs, but the worker does not compare them
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def level(v):
        return jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return level(v), v

    def bwd(v, g):
        r = v / scale
        return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0) / scale,)

    level.defvjp(fwd, bwd)
    k = level(x)
    values = scale * jnp.floor(k + 0.5)
    _, pullback = jax.vjp(lambda v: scale * level(v), x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
