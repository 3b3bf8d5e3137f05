"""Forks in a loop (each child sleeps), as a fork bomb would.

Expected: RTE (exception): the sandbox's seccomp filter refuses new processes, so the first
fork raises PermissionError. If every fork succeeds, it returns correct values (AC).
"""
import os
import time

import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    for _ in range(200):
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)

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
