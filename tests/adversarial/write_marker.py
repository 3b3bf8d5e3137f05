"""Writes marker files outside its working directory: in the test's temporary folder
(__TMP_MARKER__), in /tmp (__SHARED_MARKER__), in the judge's checkout and in the home
directory (both named __NAME__), creating folders as needed.

Expected: AC, and none of the files exists outside the sandbox afterwards.
"""
import os

import jax
import jax.numpy as jnp

for path in ("__TMP_MARKER__", "__SHARED_MARKER__", "__ROOT__/__NAME__", "/root/__NAME__",
             os.path.expanduser("~/__NAME__")):
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("written from a submission\n")
    except OSError:
        pass


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        u = v / scale
        return quant(v), (u >= qmin) & (u <= qmax)

    def bwd(mask, g):
        return (jnp.where(mask, g, 0.0),)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
