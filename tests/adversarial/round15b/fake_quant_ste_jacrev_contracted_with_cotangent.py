"""fake_quant_ste: a near miss: the gradient from ``jax.jacrev`` of the quantizer (each basis
vector pulled back through the rule) contracted with the cotangent by ``jnp.einsum`` outside the
rule: the cotangent meets the Jacobian in a formula, not in the backward rule.

Problem: fake_quant_ste
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return q(v), v / scale

    def bwd(r, g):
        return (g * ((r >= qmin) & (r <= qmax)),)

    q.defvjp(fwd, bwd)
    flat = x.reshape(-1)
    jac = jax.jacrev(q)(flat)
    grads = jnp.einsum("i,ij->j", cotangent.reshape(-1), jac).reshape(x.shape)
    return {"values": q(x), "grads": grads}
