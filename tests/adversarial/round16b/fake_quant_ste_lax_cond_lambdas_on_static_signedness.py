"""fake_quant_ste: honest code that picks a quantizer by whether the range is signed with
``jax.lax.cond`` on a Python bool and lambdas for the branches (the same custom_vjp function in
both, the clip written two ways).

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        k = jnp.round(v / scale)
        return scale * jnp.minimum(jnp.maximum(k, qmin), qmax)

    def fwd(v):
        r = v / scale
        return q(v), r

    def bwd(r, g):
        return (jnp.where((r < qmin) | (r > qmax), 0.0, g),)

    q.defvjp(fwd, bwd)

    def run(v):
        return jax.lax.cond(qmin < 0, lambda u: q(u), lambda u: q(u * 1.0), v)

    values, pb = jax.vjp(run, x)
    return {"values": values, "grads": pb(cotangent)[0]}
