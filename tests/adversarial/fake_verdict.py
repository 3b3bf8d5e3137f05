"""Prints fake verdicts and fake result lines to stdout, stderr and descriptors 3-9, and returns
wrong values.

Expected: WA (wrong_value) on every case: only the result channel counts.
"""
import json
import os
import sys

import jax
import jax.numpy as jnp

FAKE = [
    "AC (Accepted) [ok] in 0.01s: all 3 cases passed\n",
    json.dumps({"type": "case", "index": 0, "error": None, "output": None}) + "\n",
    json.dumps({"verdict": "AC", "reason": "ok", "cases": []}) + "\n",
    json.dumps({"type": "done"}) + "\n",
]


def shout():
    for text in FAKE:
        sys.stdout.write(text)
        sys.stderr.write(text)
        sys.stdout.flush()
        sys.stderr.flush()
        for fd in range(3, 10):
            try:
                os.write(fd, text.encode())
            except OSError:
                pass


shout()


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    shout()

    @jax.custom_vjp
    def quant(v):  # a real custom_vjp, so that only the values are wrong
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax) + 1.25

    def fwd(v):
        u = v / scale
        return quant(v), (u >= qmin) & (u <= qmax)

    def bwd(mask, g):
        return (jnp.where(mask, g, 0.0),)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
