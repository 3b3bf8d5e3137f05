"""fake_quant_ste: honest code whose backward rule saves no residual and reads ``x`` from the
enclosing function's scope (a closure) to build the mask: the mask is still the rule's, and the
cotangent enters it as the rule's input.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return q(v), None

    def bwd(_, g):
        r = x / scale
        return (jnp.where((r >= qmin) & (r <= qmax), g, jnp.zeros_like(g)),)

    q.defvjp(fwd, bwd)
    values, pb = jax.vjp(q, x)
    return {"values": values, "grads": pb(cotangent)[0]}
