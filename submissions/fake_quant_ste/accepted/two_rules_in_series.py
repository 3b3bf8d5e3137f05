"""Two custom_vjp functions in series: a straight-through round, then a clip whose backward rule
applies the range mask. The cotangent passes through both backward rules, so the gradient is
what the rules returned even though no single rule computes all of it.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def ste_round(u):
    return jnp.round(u)


ste_round.defvjp(lambda u: (jnp.round(u), None), lambda _, g: (g,))


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def clip_to_range(u):
        return jnp.clip(u, qmin, qmax)

    def clip_fwd(u):
        return clip_to_range(u), u

    def clip_bwd(u, g):
        # the mask looks at x / scale before rounding, so this rule must come first in the
        # backward pass: clip(u) is applied to the unrounded u and rounded afterwards
        return (jnp.where((u >= qmin) & (u <= qmax), g, jnp.zeros_like(g)),)

    clip_to_range.defvjp(clip_fwd, clip_bwd)

    def quantize(v):
        return scale * ste_round(clip_to_range(v / scale))

    values, pullback = jax.vjp(quantize, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
