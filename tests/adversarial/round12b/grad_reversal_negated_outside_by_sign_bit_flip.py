"""grad_reversal: the rule scales by λ only, and the sign is put on the cotangent outside it by
flipping its sign bits: ``bitcast_convert_type`` to int32, xor with 0x80000000, back to
float32 (two casts around an integer operation, no product or negation).

Problem: grad_reversal
Expected: RJ
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _flip(v):
    bits = lax.bitcast_convert_type(v, jnp.int32)
    return lax.bitcast_convert_type(bits ^ jnp.int32(-2 ** 31), jnp.float32)


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (lam * g,))
    y, back = jax.vjp(r, x)
    return {"y": y, "dx": back(_flip(dy))[0]}
