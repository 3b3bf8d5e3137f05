"""fake_quant_ste: ``jax.grad`` of a weighted sum whose quantizer call sits in a ``lax.cond`` on
x (both branches the same objective, one through a jitted helper): the cotangent enters as the
weights of the sum inside the branches, multiplied by the seed one, and passes the rule there.
Refused until the dataflow let the cotangent the forward branches hand on unchanged pass a cond
on x (the choice of branch changes nothing in it), and took a literal one handed to a branch for
a one there (the seed).

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
    objective = lambda v: jnp.sum(q(v) * cotangent)

    def weighted(v):
        return lax.cond(jnp.max(v) > 0, objective, jax.jit(objective), v)

    return {"values": q(x), "grads": jax.grad(weighted)(x)}
