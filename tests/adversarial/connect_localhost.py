"""Opens a TCP connection to a listener the test runs on the judge's 127.0.0.1:__PORT__.

Expected: AC (the connection fails: the sandbox has its own network namespace). If it connects,
the submission sends a marker and raises (RTE).
"""
import socket

import jax
import jax.numpy as jnp

try:
    with socket.create_connection(("127.0.0.1", __PORT__), timeout=2) as conn:
        conn.sendall(b"leaked")
    connected = True
except OSError:
    connected = False
if connected:
    raise RuntimeError("connected to the judge's loopback")


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
