"""grad_reversal: honest code that checks its input's bits (a NaN guard on the int32 view, never
true here) and applies the layer to ``x`` viewed back from them,
``bitcast_convert_type(bitcast_convert_type(x, int32), float32)``: ``x`` itself.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    bits = jax.lax.bitcast_convert_type(x, jnp.int32)
    has_nan = jnp.any((bits & 0x7FFFFFFF) > 0x7F800000)
    point = jax.lax.bitcast_convert_type(bits, jnp.float32)
    y, pb = jax.vjp(r, point)
    return {"y": jnp.where(has_nan, jnp.nan, y), "dx": pb(dy)[0]}
