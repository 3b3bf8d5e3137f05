"""fake_quant_ste: nested ``jax.custom_vjp`` functions: an inner ``round_ste`` (rounding with
an identity rule, a library's building block) used inside the outer fake quantizer, whose own
rule applies the clipped mask.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def round_ste(v):
    return jnp.round(v)


round_ste.defvjp(lambda v: (jnp.round(v), None), lambda _, g: (g,))


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def fake_quant(v):
        return scale * jnp.clip(round_ste(v / scale), qmin, qmax)

    def fwd(v):
        return fake_quant(v), v

    def bwd(v, g):
        r = v / scale
        return (g * ((r >= qmin) & (r <= qmax)).astype(g.dtype),)

    fake_quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(fake_quant, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
