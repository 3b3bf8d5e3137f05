"""fake_quant_ste: the ``jax.custom_vjp`` function gives the clipped level with a masked
straight-through rule; the values are that level cast to ``int32`` (an integer code, as a
deployed quantizer stores it) and back, times the scale; the gradient from ``jax.vjp`` of the
level.

Problem: fake_quant_ste
Expected: AC
Open: RJ values_not_from_custom_vjp: the values reach the custom_vjp function's output
  through a cast to ``int32``, an operation of zero derivative (``judge.worker.smooth``), which
  does the quantizer's work where the function is an identity written as a computation;
  it changes none of this function's outputs, but the worker does not compare them
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def to_level(v):
        return jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return to_level(v), v

    def bwd(v, g):
        r = v / scale
        return (g * ((r >= qmin) & (r <= qmax)).astype(g.dtype),)

    to_level.defvjp(fwd, bwd)
    level, pullback = jax.vjp(to_level, x)
    (grads,) = pullback(cotangent)
    code = level.astype(jnp.int32)
    values = scale * code.astype(jnp.float32)
    return {"values": values, "grads": grads}
