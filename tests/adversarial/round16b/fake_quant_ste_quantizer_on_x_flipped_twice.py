"""fake_quant_ste: honest code that applies the quantizer to ``jnp.flip(jnp.flip(x, 0), 0)`` (a
helper written for reversed sequences, called twice): the same values as ``x``, differentiated
through the whole with ``jax.vjp``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def reverse_rows(v):
    return jnp.flip(v, axis=0)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    q.defvjp(lambda v: (q(v), v / scale),
             lambda r, g: (g * ((r >= qmin) & (r <= qmax)),))
    values, pb = jax.vjp(lambda v: q(reverse_rows(reverse_rows(v))), x)
    return {"values": values, "grads": pb(cotangent)[0]}
