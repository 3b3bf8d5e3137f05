"""grad_reversal: honest code whose layer's forward passes ``x`` through
``lax.reduce_precision`` at float32's own precision (a helper written for lower-precision
activations, called here at full precision: the identity).

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

EXPONENT_BITS, MANTISSA_BITS = jnp.finfo(jnp.float32).nexp, jnp.finfo(jnp.float32).nmant


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return jax.lax.reduce_precision(v, exponent_bits=EXPONENT_BITS, mantissa_bits=MANTISSA_BITS)

    r.defvjp(lambda v: (r(v), None), lambda _, g: (-lam * g,))
    y, pb = jax.vjp(r, jax.lax.reduce_precision(x, EXPONENT_BITS, MANTISSA_BITS))
    return {"y": y, "dx": pb(dy)[0]}
