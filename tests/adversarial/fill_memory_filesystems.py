"""Fills every writable place it can find (/dev/shm, /dev, /tmp, its working directory) with
files just under the file-size limit, to use memory that the address-space limit does not count.

Expected: AC: /dev is read-only and the two private tmpfs mounts are capped (64 MiB each), so
at most 128 MiB can be written. If it manages more than 256 MiB, it raises (RTE).
"""
import os

import jax
import jax.numpy as jnp

BLOCK = b"\0" * (1000 * 1024)
written = 0
for folder in ("/dev/shm", "/dev", "/tmp", os.getcwd()):
    for i in range(400):
        try:
            with open(os.path.join(folder, f"fill-{i}"), "wb") as f:
                f.write(BLOCK)
            written += len(BLOCK)
        except OSError:
            break
    for i in range(400):  # give the memory back before the cases run
        try:
            os.unlink(os.path.join(folder, f"fill-{i}"))
        except OSError:
            break
if written > 256 * 2**20:
    raise RuntimeError(f"wrote {written >> 20} MiB outside the address-space limit")


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
