"""fake_quant_ste: two ``jax.custom_vjp`` building blocks composed, as in QAT libraries:
``clip_ste`` (a clip whose rule masks by its input, so by ``x / scale`` before rounding) then
``round_ste`` (identity rule), times the scale; clipping before rounding gives the same
levels, as the ends are integers.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def clip_ste(r):
        return jnp.clip(r, qmin, qmax)

    def clip_fwd(r):
        return clip_ste(r), (r >= qmin) & (r <= qmax)

    def clip_bwd(inside, g):
        return (jnp.where(inside, g, 0.0),)

    clip_ste.defvjp(clip_fwd, clip_bwd)

    @jax.custom_vjp
    def round_ste(r):
        return jnp.round(r)

    round_ste.defvjp(lambda r: (jnp.round(r), None), lambda _, g: (g,))

    def quantize(v):
        return scale * round_ste(clip_ste(v / scale))

    values, pullback = jax.vjp(quantize, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
