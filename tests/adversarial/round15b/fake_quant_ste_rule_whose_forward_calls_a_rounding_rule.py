"""fake_quant_ste: nested rules: the quantizer's forward calls a ``custom_vjp`` rounding of its
own (a straight-through round, whose rule never runs here: JAX runs the outer forward plainly),
and the quantizer's backward rule applies the clipped mask.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def round_ste(v):
    return jnp.round(v)


round_ste.defvjp(lambda v: (round_ste(v), None), lambda _, g: (g,))


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(round_ste(v / scale), qmin, qmax)

    def fwd(v):
        return q(v), v / scale

    def bwd(r, g):
        return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),)

    q.defvjp(fwd, bwd)
    values, pb = jax.vjp(q, x)
    return {"values": values, "grads": pb(cotangent)[0]}
