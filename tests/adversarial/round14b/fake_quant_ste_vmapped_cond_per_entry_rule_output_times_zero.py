"""fake_quant_ste: a cheat with the plain STE rule (the cotangent passed through) in both
branches of a ``lax.cond`` per entry on whether x / s is in range, the out-of-range branch
multiplying the rule's output by a zero made of x (``0 * v`` added to it), ``jax.vmap``-ed
over the entries: both pieces of the cotangent pass the same rule, but one is then zeroed
outside it.

Problem: fake_quant_ste
Expected: RJ grads_not_from_backward
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def forward(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    ste = jax.custom_vjp(forward)
    ste.defvjp(lambda v: (forward(v), None), lambda _, g: (g,))

    def outside(v):
        q = ste(v)
        return q * 0.0 + lax.stop_gradient(q)

    def entry(v):
        u = v / scale
        return lax.cond((u >= qmin) & (u <= qmax), ste, outside, v)

    def f(x):
        return jax.vmap(entry)(x.reshape(-1)).reshape(x.shape)

    values, pullback = jax.vjp(f, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
