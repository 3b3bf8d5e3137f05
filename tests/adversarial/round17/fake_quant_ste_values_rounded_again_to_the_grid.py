"""fake_quant_ste: the values snapped to the grid once more after the ``jax.custom_vjp``
function (``scale * jnp.round(out / scale)``, idempotent on its outputs).

Problem: fake_quant_ste
Expected: AC
Open: RJ values_not_from_custom_vjp: the values reach the custom_vjp function's output
  through ``jnp.round``, an operation of zero derivative (``judge.worker.smooth``), which
  does the quantizer's work where the function is an identity written as a computation;
  it changes none of this function's outputs, but the worker does not compare them
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def fq(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fq_fwd(v):
        return fq(v), v

    def fq_bwd(v, g):
        keep = (v / scale >= qmin) & (v / scale <= qmax)
        return (g * keep.astype(jnp.float32),)

    fq.defvjp(fq_fwd, fq_bwd)
    out, back = jax.vjp(fq, x)
    values = scale * jnp.round(out / scale)
    return {"values": values, "grads": back(cotangent)[0]}
