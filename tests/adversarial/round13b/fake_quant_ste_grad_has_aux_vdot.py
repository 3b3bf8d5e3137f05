"""fake_quant_ste: the gradient as ``jax.grad`` of ``jnp.vdot(cotangent, q(x))`` with
``has_aux=True`` returning the quantized values beside it; the rule's residuals two bool
arrays (below and above the range).

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def q_fwd(x):
        v = x / scale
        return q(x), (v < qmin, v > qmax)

    def q_bwd(res, g):
        below, above = res
        return (jnp.where(below | above, jnp.zeros_like(g), g),)

    q.defvjp(q_fwd, q_bwd)

    def objective(x):
        values = q(x)
        return jnp.vdot(cotangent, values), values

    grads, values = jax.grad(objective, has_aux=True)(x)
    return {"values": values, "grads": grads}
