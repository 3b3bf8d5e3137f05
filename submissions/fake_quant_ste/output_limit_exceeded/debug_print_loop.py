"""Leaves a debugging print in a loop that never ends.

Expected verdict: output_limit_exceeded -- the captured stdout passes limits.output_kb.
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    i = 0
    while True:
        print("debug: iteration", i, "scale", scale, "qmin", qmin, "qmax", qmax)
        i += 1
    return {"values": x, "grads": jax.grad(lambda v: jnp.sum(v))(x)}
