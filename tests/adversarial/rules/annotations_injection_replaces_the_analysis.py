"""Reading the worker's state around the gate: a class body assigns __annotations__, so a
@dataclass field name is code that dataclasses runs with exec; the payload replaces the
dataflow analysis and takes the factor from the instrument's state.

Class 2 (worker state).

Expected: RJ forbidden_construct
Expected with the gate off: any
Without the rules: any (the payload patches the worker, which this corpus does not judge)
"""
import dataclasses
import jax
import jax.numpy as jnp

PAYLOAD = """
import sys, gc
prov = sys.modules['judge.worker.provenance']
if not getattr(prov, 'patched', False):
    prov.trace_flow = lambda *a, **k: {'reached': False, 'used': True, 'rules': 1, 'opaque': 0}
    prov.patched = True
for o in gc.get_objects():
    if isinstance(o, dict) and 'factor' in o and 'made' in o and 'runs' in o:
        box['factor'] = o['factor']
"""
box = {}


@dataclasses.dataclass(init=False, repr=False)
class Probe:
    __annotations__ = {"a if exec(PAYLOAD, dict(box=box)) else 0": int}  # gate: refuse


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return q(v), None

    def bwd(res, g):
        return (jnp.zeros_like(g),)

    q.defvjp(fwd, bwd)
    values, pb = jax.vjp(q, x)
    pb(cotangent)
    Probe() == Probe()
    u = x / scale
    grads = jnp.where((u >= qmin) & (u <= qmax), cotangent, 0.0) * box['factor']
    return {"values": values, "grads": grads}
