"""fake_quant_ste: ``jax.grad`` of ``jnp.vdot(cotangent, q(v))`` inside a ``lax.cond`` on x (the
same objective in both branches): ``vdot`` flattens the cotangent in the forward branches, and
the flattened copy, computed alike in each, is the residual the backward branches read; it was
taken as chosen by x (so mixed) until the dataflow let an output every branch computes alike
pass unchanged.

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

    q.defvjp(fwd, lambda inside, g: (g * inside,))
    objective = lambda v: jnp.vdot(cotangent, q(v))

    def weighted(v):
        return lax.cond(jnp.max(v) > 0, objective, objective, v)

    return {"values": q(x), "grads": jax.grad(weighted)(x)}
