"""fake_quant_ste: a near miss: the ``custom_vjp`` quantizer applied twice, ``q(q(x))``, on every
case: with a scale that is not a power of two, ``s * qmax / s`` can land just above qmax, so the
second application's rule zeroes the gradient of an entry in range. Numerically wrong, not
refused (it was, as values not computed by the function, before an application's input marker
took off what an earlier application of the same function had made).

Problem: fake_quant_ste
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        r = v / scale
        return quant(v), (r >= qmin) & (r <= qmax)

    def bwd(inside, g):
        return (jnp.where(inside, g, jnp.zeros_like(g)),)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(lambda v: quant(quant(v)), x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
