"""fake_quant_ste: the plain STE rule (backward passes the cotangent), its output stacked with
zeros and the clip's mask applied by a gather: ``jnp.stack([zeros, g])[inside, arange(n)]``
with ``inside`` the 0/1 mask of x / s in range as an int index. A mask by indexing instead of
a product or ``where``.

Problem: fake_quant_ste
Expected: RJ
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    q.defvjp(lambda v: (q(v), None), lambda _, g: (g,))
    values, back = jax.vjp(q, x)
    g = back(cotangent)[0].ravel()
    u = (x / scale).ravel()
    inside = ((u >= qmin) & (u <= qmax)).astype(jnp.int32)
    both = jnp.stack([jnp.zeros_like(g), g])
    grads = both[inside, jnp.arange(g.shape[0])].reshape(x.shape)
    return {"values": values, "grads": grads}
