"""fake_quant_ste: the values as ``out / scale * scale`` (the level read back from the
``jax.custom_vjp`` output and rescaled, within an ulp of it).

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def fake_quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return fake_quant(v), v

    def bwd(v, ct):
        r = v / scale
        return (ct * ((r >= qmin) & (r <= qmax)),)

    fake_quant.defvjp(fwd, bwd)
    out, pb = jax.vjp(fake_quant, x)
    level = out / scale
    return {"values": level * scale, "grads": pb(cotangent)[0]}
