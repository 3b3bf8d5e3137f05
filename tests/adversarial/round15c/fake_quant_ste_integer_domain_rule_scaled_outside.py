"""fake_quant_ste: the PyTorch ``fake_quantize`` habit of working in the integer domain: the
``custom_vjp`` rounds and clips ``r = x / scale`` (its rule masks on ``r``), and the scale is
divided in before it and multiplied back after it.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def round_clip(r):
        return jnp.clip(jnp.round(r), qmin, qmax)

    def rc_fwd(r):
        return round_clip(r), (r >= qmin) & (r <= qmax)

    def rc_bwd(inside, g):
        return (jnp.where(inside, g, 0.0),)

    round_clip.defvjp(rc_fwd, rc_bwd)
    values, pull = jax.vjp(lambda a: scale * round_clip(a / scale), x)
    return {"values": values, "grads": pull(cotangent)[0]}
