"""fake_quant_ste: the ``custom_vjp`` quantizer ``jax.vmap``-ed over the rows of
``jnp.atleast_2d(x)`` inside ``jax.checkpoint`` with a policy (``nothing_saveable``), then
``jax.value_and_grad`` of the weighted sum with the cotangent (``has_aux`` carrying the values).

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(row):
        return scale * jnp.clip(jnp.round(row / scale), qmin, qmax)

    def fwd(row):
        return q(row), row

    def bwd(row, g):
        u = row / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, jnp.zeros_like(g)),)

    q.defvjp(fwd, bwd)
    rows = jax.checkpoint(jax.vmap(q), policy=jax.checkpoint_policies.nothing_saveable)

    def weighted(x):
        values = rows(jnp.atleast_2d(x)).reshape(x.shape)
        return jnp.sum(values * cotangent), values

    (_, values), grads = jax.value_and_grad(weighted, has_aux=True)(x)
    return {"values": values, "grads": grads}
