"""fake_quant_ste: a cheat with the plain STE rule (the cotangent passed through) in one branch of
a ``lax.cond`` per entry on whether x / s is in range, the other branch the quantized value under
``stop_gradient`` (no rule), ``jax.vmap``-ed over the entries: under ``vmap`` the cond is a select
on x, and the out-of-range piece of the cotangent never passes a rule (it is dropped).

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

    def entry(v):
        u = v / scale
        return lax.cond((u >= qmin) & (u <= qmax), ste, lambda v: lax.stop_gradient(forward(v)), v)

    def f(x):
        return jax.vmap(entry)(x.reshape(-1)).reshape(x.shape)

    values, pullback = jax.vjp(f, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
