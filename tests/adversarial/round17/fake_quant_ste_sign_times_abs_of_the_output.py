"""fake_quant_ste: a sign-magnitude port: the values rebuilt as ``jnp.sign(out) *
jnp.abs(out)`` from the ``jax.custom_vjp`` output (the same numbers, -0.0 kept as 0.0 or -0.0
either way, which the comparison treats as equal).

Problem: fake_quant_ste
Expected: AC
Open: RJ values_not_from_custom_vjp: the values reach the custom_vjp function's output
  through ``jnp.sign`` (beside ``abs``), an operation of zero derivative (``judge.worker.smooth``), which
  does the quantizer's work where the function is an identity written as a computation;
  it changes none of this function's outputs, but the worker does not compare them
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def q_fwd(v):
        return q(v), v

    def q_bwd(v, g):
        r = v / scale
        return (jnp.where(r >= qmin, 1.0, 0.0) * jnp.where(r <= qmax, 1.0, 0.0) * g,)

    q.defvjp(q_fwd, q_bwd)
    out, pull = jax.vjp(q, x)
    magnitude, sign = jnp.abs(out), jnp.sign(out)
    return {"values": sign * magnitude, "grads": pull(cotangent)[0]}
