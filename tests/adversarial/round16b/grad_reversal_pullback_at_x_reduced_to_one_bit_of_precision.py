"""grad_reversal: a cheat: ``y`` from the layer applied to ``x``, and ``dx`` from a second
``jax.vjp`` of the layer at ``lax.reduce_precision(x, exponent_bits=1, mantissa_bits=0)``: a
value made of x but not x (every entry zero or infinite), at which the layer is pulled back.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    y = r(x)
    point = jax.lax.reduce_precision(x, exponent_bits=1, mantissa_bits=0)
    _, pb = jax.vjp(r, point)
    return {"y": y, "dx": pb(dy)[0]}
