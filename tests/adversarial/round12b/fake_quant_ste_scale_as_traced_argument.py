"""fake_quant_ste: the custom_vjp takes the scale as a second, differentiable argument (a
float32 array), the backward returns ``(g * mask, 0.0 * g.sum())`` for it; the gradient with
respect to x only, through ``jax.vjp`` of a lambda closing over the scale.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def fq(v, s):
        return s * jnp.clip(jnp.round(v / s), qmin, qmax)

    def fwd(v, s):
        return fq(v, s), (v, s)

    def bwd(res, g):
        v, s = res
        u = v / s
        mask = (u >= qmin) & (u <= qmax)
        return g * mask.astype(g.dtype), jnp.zeros_like(s)

    fq.defvjp(fwd, bwd)
    s = jnp.float32(scale)
    values, back = jax.vjp(lambda v: fq(v, s), x)
    return {"values": values, "grads": back(cotangent)[0]}
