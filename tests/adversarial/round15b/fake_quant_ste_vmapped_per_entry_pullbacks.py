"""fake_quant_ste: the pullback taken per entry under ``jax.vmap``: a function of one entry and
its cotangent that applies the quantizer with ``jax.vjp`` and pulls the cotangent back, mapped
over the flattened x and cotangent and reshaped back.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(e):
        return scale * jnp.clip(jnp.round(e / scale), qmin, qmax)

    def fwd(e):
        r = e / scale
        return q(e), (r >= qmin) & (r <= qmax)

    q.defvjp(fwd, lambda inside, g: (jnp.where(inside, g, 0.0),))

    def one(e, g):
        val, pb = jax.vjp(q, e)
        return val, pb(g)[0]

    values, grads = jax.vmap(one)(x.reshape(-1), cotangent.reshape(-1))
    return {"values": values.reshape(x.shape), "grads": grads.reshape(x.shape)}
