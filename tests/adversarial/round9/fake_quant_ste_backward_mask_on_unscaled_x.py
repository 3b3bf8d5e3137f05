"""fake_quant_ste: a plausible wrong answer: the backward rule's window tested on x itself,
qmin <= x <= qmax, the division by the scale forgotten there (the forward divides); right
only where the scale is 1.

Problem: fake_quant_ste
Expected: WA
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def fq(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def fwd(x):
        return fq(x), x

    def bwd(x, g):
        return (jnp.where((x >= qmin) & (x <= qmax), g, 0.0),)

    fq.defvjp(fwd, bwd)
    values, pull = jax.vjp(fq, x)
    return {"values": values, "grads": pull(cotangent)[0]}
