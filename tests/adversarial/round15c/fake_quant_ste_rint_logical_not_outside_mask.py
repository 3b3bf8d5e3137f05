"""fake_quant_ste: round half to even by ``jnp.rint``, the clip by ``jnp.minimum``/``jnp.maximum``
with the Python ints, the backward mask ``~((r < qmin) | (r > qmax))`` multiplied in after a
``jnp.float32`` cast; ``jax.vjp`` with the quantizer a closure over the three numbers.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def fq(a):
        return scale * jnp.minimum(jnp.maximum(jnp.rint(a / scale), qmin), qmax)

    def fq_fwd(a):
        return fq(a), a / scale

    def fq_bwd(r, g):
        outside = (r < qmin) | (r > qmax)
        return (g * jnp.float32(~outside),)

    fq.defvjp(fq_fwd, fq_bwd)
    values, vjp_fn = jax.vjp(fq, x)
    return {"values": values, "grads": vjp_fn(cotangent)[0]}
