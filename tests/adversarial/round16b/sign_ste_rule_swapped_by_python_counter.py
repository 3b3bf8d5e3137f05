"""sign_ste: a near miss that counts its calls: the first trace uses the exact straight-through
form, every later one (another dtype or length) ``x + stop_gradient(sign(x) - x)``, which loses
the sign where ``x`` is huge (``sign(x) - x`` rounds to ``-x``, and the sum to 0).

Problem: sign_ste
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp

_seen = {"n": 0}


def ste_quantize(x):
    _seen["n"] += 1
    sg = jax.lax.stop_gradient
    if _seen["n"] == 1:
        return (x - sg(x)) + sg(jnp.sign(x))
    return x + sg(jnp.sign(x) - x)
