"""Looks for secret-looking environment variables, in its own environment and in every
process's /proc/<pid>/environ it can read.

Expected: AC (the worker's environment is rebuilt from an allowlist). If it sees one, it raises
naming it (RTE).
"""
import os
import re

import jax
import jax.numpy as jnp

SECRET = re.compile(r"SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|API_?KEY|AWS_|JUDGE_TEST", re.I)
seen = [k for k in os.environ if SECRET.search(k)]
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                seen += [kv.split(b"=")[0].decode() for kv in f.read().split(b"\0")
                         if SECRET.search(kv.split(b"=")[0].decode(errors="replace"))]
        except OSError:
            pass
if seen:
    raise RuntimeError(f"saw {sorted(set(seen))}")


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
