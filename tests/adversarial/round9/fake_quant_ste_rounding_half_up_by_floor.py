"""fake_quant_ste: a plausible wrong answer: rounding written as ``jnp.floor(r + 0.5)`` (half up,
not half to even), otherwise an honest custom_vjp; x / s = 2.5 gives 3 instead of 2.

Problem: fake_quant_ste
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.floor(x / scale + 0.5), qmin, qmax)

    def fwd(x):
        return q(x), x / scale

    def bwd(r, g):
        return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),)

    q.defvjp(fwd, bwd)
    values, vjp = jax.vjp(q, x)
    return {"values": values, "grads": vjp(cotangent)[0]}
