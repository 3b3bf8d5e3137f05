"""fake_quant_ste: the straight-through rule is written for the integer levels only
(``round_clip(r)`` = clip(round(r), qmin, qmax), its backward rule masking by
qmin <= r <= qmax), and the scale applied outside it: values = s * round_clip(x / s). The
cotangent passes the product by s and the division by s, which autodiff transposes.

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

    def fwd(r):
        return round_clip(r), r

    def bwd(r, g):
        return (g * ((r >= qmin) & (r <= qmax)),)

    round_clip.defvjp(fwd, bwd)
    values, pullback = jax.vjp(lambda a: scale * round_clip(a / scale), x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
