"""Walks the whole visible filesystem for the problem's spec, its reference and the bundled
submissions, and tries their absolute paths in the judge's checkout (__ROOT__).

Expected: AC. If anything is found, the submission raises naming it (RTE).
"""
import os

import jax
import jax.numpy as jnp

ROOT = "__ROOT__"
WANTED = {"fake_quant_ste.yaml", "sign_ste.yaml", "closure_vjp.py", "floor_half_up.py"}
found = []
for path in (f"{ROOT}/problems/fake_quant_ste.yaml", f"{ROOT}/reference/fake_quant_ste.py",
             f"{ROOT}/README.md", os.path.expanduser("~/.bashrc"), "/root/.bashrc"):
    try:
        with open(path) as f:
            f.read(1)
        found.append(path)
    except OSError:
        pass
for folder, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if os.path.join(folder, d) not in ("/proc", "/sys", "/dev")]
    for name in files:
        full = os.path.join(folder, name)
        if name in WANTED or full.endswith("reference/fake_quant_ste.py"):
            found.append(full)
    if folder.endswith("/submissions") or folder.endswith("/problems"):
        found.append(folder)
if found:
    raise RuntimeError(f"found {found[:5]}")


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
