"""fake_quant_ste: a rule over one row, ``jax.vmap``-ed with an ``in_axes`` tree
(``({"row": 0, "scale": None},)``: the rows mapped, the scale broadcast) over the rows of
``atleast_2d(x)``; the rule's backward gives ``None`` for the scale leaf.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(inp):
        return inp["scale"] * jnp.clip(jnp.round(inp["row"] / inp["scale"]), qmin, qmax)

    def fwd(inp):
        return q(inp), inp["row"] / inp["scale"]

    def bwd(r, g):
        return ({"row": g * ((r >= qmin) & (r <= qmax)).astype(g.dtype), "scale": None},)

    q.defvjp(fwd, bwd)

    def apply(v):
        rows = jnp.atleast_2d(v)
        s = jnp.float32(scale)
        out = jax.vmap(q, in_axes=({"row": 0, "scale": None},))({"row": rows, "scale": s})
        return out.reshape(v.shape)

    values, pullback = jax.vjp(apply, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
