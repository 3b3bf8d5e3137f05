"""fake_quant_ste: two custom_vjp functions: a quantizer that computes the values, applied plainly
(its backward rule never runs), and an identity function whose backward rule multiplies the
cotangent by a mask it closes over, which gives the gradient. The values must come from a
function whose backward rule gives the gradient.

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    r = x / scale
    m = ((r >= qmin) & (r <= qmax)).astype(jnp.float32)

    @jax.custom_vjp
    def quantize(t):
        return scale * jnp.clip(jnp.round(t / scale), qmin, qmax)

    quantize.defvjp(lambda t: (quantize(t), None), lambda _, g: (g,))

    @jax.custom_vjp
    def gate(t):
        return t

    gate.defvjp(lambda t: (t, None), lambda _, g: (g * m,))
    _, pull = jax.vjp(gate, x)
    return {"values": quantize(x), "grads": pull(cotangent)[0]}
