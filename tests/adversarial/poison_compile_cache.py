"""Tries to poison the judge's compilation cache: overwrites every entry it can see and adds
its own, then solves the problem correctly. The judge's cache must be unchanged afterwards.
Expected: AC (for this run), with the judge's cache intact."""
import os

import jax
import jax.numpy as jnp

folder = os.environ.get("JAX_COMPILATION_CACHE_DIR") or ""
for name in (os.listdir(folder) if os.path.isdir(folder) else []):
    try:
        with open(os.path.join(folder, name), "wb") as f:
            f.write(b"poisoned")
    except OSError:
        pass
try:
    with open(os.path.join(folder, "jit_poison-entry-cache"), "wb") as f:
        f.write(b"poisoned")
except OSError:
    pass


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return q(v), v

    def bwd(v, g):
        r = v / scale
        return (g * ((r >= qmin) & (r <= qmax)).astype(g.dtype),)

    q.defvjp(fwd, bwd)
    values, pull = jax.vjp(q, x)
    return {"values": values, "grads": pull(cotangent)[0]}
