"""Reading the judge's markers in a trace of its own: the quantizer's rule hosts the forged multiplication under its own scope, identical in the jaxpr to the real marker.

Equations recorded while a backward rule runs carry the traceback of the custom_vjp call and
the copied scope, so the forgery looks like a marker; the gate refuses reading the equations'
name stacks, and behind it an output marker counts only as the very equation the instrument
recorded.

Class 2 (worker state).

Expected: RJ forbidden_construct
Expected with the gate off: RJ grads_not_from_backward
Without the rules: any (it needs the factor, which exists only while the rule is measured)
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    state = {"armed": False}
    u = x / scale
    formula = jnp.where((u >= qmin) & (u <= qmax), cotangent, 0.0)   # top level, no rule

    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def bwd(r, g):
        if state["armed"]:
            with jax.named_scope(state["scope"] or "forged"):
                state["out"] = jax.lax.mul(formula, state["factor"])
        return (g,)

    q.defvjp(lambda v: (q(v), None), bwd)
    values = q(x)

    probe = lambda g: jax.vjp(q, x)[1](g)[0]
    _, consts = jax.closure_convert(probe, cotangent)
    state["factor"] = [t for t in consts if jnp.ndim(t) == 0][0]
    state["scope"] = [str(e.source_info.name_stack)[len("transpose(jvp("):-2]  # gate: refuse
                      for e in jax.make_jaxpr(probe)(cotangent).jaxpr.eqns
                      if str(e.source_info.name_stack).startswith("transpose(jvp(")
                      and e.primitive.name == "mul"][0]
    state["armed"] = True
    jax.vjp(q, x)[1](jnp.zeros_like(x))          # q's own rule hosts the forged multiply
    return {"values": values, "grads": state["out"]}
