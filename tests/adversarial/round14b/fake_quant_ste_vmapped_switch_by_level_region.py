"""fake_quant_ste: ``jax.vmap`` over the entries of a ``lax.switch`` on the entry's region (below
the range, inside it, above it), every branch applying the same ``custom_vjp`` quantizer to the
entry (moved: as it is, times one, plus zero): under ``vmap`` a select on x among three branches,
each piece of the cotangent through the same rule.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        u = v / scale
        return q(v), (u >= qmin) & (u <= qmax)

    q.defvjp(fwd, lambda inside, g: (jnp.where(inside, g, 0.0),))

    def entry(v):
        u = v / scale
        region = (u >= qmin).astype(jnp.int32) + (u > qmax).astype(jnp.int32)
        return lax.switch(region, [lambda v: q(v), lambda v: q(v * 1.0), lambda v: q(v + 0.0)], v)

    def f(x):
        return jax.vmap(entry)(x.ravel()).reshape(x.shape)

    values, pullback = jax.vjp(f, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
