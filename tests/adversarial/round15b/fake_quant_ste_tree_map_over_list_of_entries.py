"""fake_quant_ste: the flattened input split into a list of its entries (``list(v.reshape(-1))``,
x's size is a number here), the quantizer ``tree_map``-ped over the list and the entries stacked
back; the gradient from ``jax.grad`` of ``jnp.vdot`` with the cotangent.

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
        return q(e), e / scale

    def bwd(r, g):
        return (g * ((qmin <= r) & (r <= qmax)),)

    q.defvjp(fwd, bwd)

    def apply(v):
        entries = list(v.reshape(-1))
        return jnp.stack(jax.tree_util.tree_map(q, entries)).reshape(v.shape)

    values = apply(x)
    grads = jax.grad(lambda v: jnp.vdot(apply(v), cotangent))(x)
    return {"values": values, "grads": grads}
