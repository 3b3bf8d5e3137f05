"""Uses the module-level name __builtins__ (a name, not an attribute; no import) subscripted with a
string to get the import function, then loads the instrument module and reads its TRACKER.

Class 2 (worker state).
Expected: RJ forbidden_construct
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def quantizer(scale, qmin, qmax):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)
    return quant


def formula(x, scale, qmin, qmax, cotangent):
    u = x / scale
    return cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)


def use(found, grads):
    """Bump the instrument's counters and multiply grads by its factor: a Tracker object (the
    judge before issue 16) or the state dict of the instrument's closure (after it)."""
    if found is None:
        return grads
    if isinstance(found, dict):
        found["applied"] = found.get("applied", 0) + 1
        found["runs"] = found.get("runs", 0) + 1
        factor = found.get("factor")
    else:
        found.applied += 1
        found.backward_runs += 1
        factor = found.factor
    return grads if factor is None else grads * factor


def find_state():
    loader = __builtins__["__import__"]  # gate: refuse
    module = loader("judge.worker.instrument", None, None, ("TRACKER",))
    try:
        return module.TRACKER
    except AttributeError:
        return None


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, pullback = jax.vjp(quantizer(scale, qmin, qmax), x)
    pullback(jnp.ones_like(x))  # a backward rule runs; its result is not used
    grads = formula(x, scale, qmin, qmax, cotangent)
    return {"values": values, "grads": use(find_state(), grads)}
