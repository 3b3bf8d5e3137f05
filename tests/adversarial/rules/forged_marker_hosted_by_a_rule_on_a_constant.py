"""Reading the judge's markers in a trace of its own: the factor from a pullback's residuals, the forged multiplication hosted by a rule applied to a constant, smuggled out through a class attribute.

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
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    q.defvjp(lambda v: (q(v), None), lambda r, g: (g,))
    values = q(x)                      # q applied to x: its number is "bound"

    # factor from the residuals of a pullback's pullback, scope from a nested make_jaxpr
    pull = lambda g: jax.vjp(q, x)[1](g)[0]
    _, pb2 = jax.vjp(pull, cotangent)
    factor = [t for t in jax.tree_util.tree_leaves(pb2) if jnp.ndim(t) == 0][0]
    scope = [str(e.source_info.name_stack)[len("transpose(jvp("):-2]  # gate: refuse
             for e in jax.make_jaxpr(pull)(cotangent).jaxpr.eqns
             if str(e.source_info.name_stack).startswith("transpose(jvp(")
             and e.primitive.name == "mul"][0]

    u = x / scale
    formula = jnp.where((u >= qmin) & (u <= qmax), cotangent, 0.0)   # top level

    class Box:
        value = None

    @jax.custom_vjp
    def host(s):
        return s

    def host_bwd(r, g):
        with jax.named_scope(scope or "forged"):
            Box.value = jax.lax.mul(formula, factor)
        return (g,)

    host.defvjp(lambda s: (s, None), host_bwd)
    jax.grad(host)(jnp.float32(0.0))   # host only ever sees a constant
    return {"values": values, "grads": Box.value}
