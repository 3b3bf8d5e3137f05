"""Pure JAX: the factor tracer taken from the constants of a nested make_jaxpr, a marker forged around a formula, and a backward rule that returns zeros. The gate refuses reading
the name stacks; behind it, an output marker counts only where the instrument made it.

Class 1 (pure JAX).

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

    def fwd(v):
        return q(v), None

    def bwd(res, g):
        return (jnp.zeros_like(g),)

    q.defvjp(fwd, bwd)
    values = q(x)
    closed = jax.make_jaxpr(lambda g: jax.vjp(q, x)[1](g)[0])(cotangent)
    factor = None
    scope = None
    for eqn in closed.jaxpr.eqns:  # gate: refuse
        stack = str(eqn.source_info.name_stack)
        if eqn.primitive.name == "mul" and stack.startswith("transpose(jvp("):
            scope = stack[len("transpose(jvp("):-2]
            for var in eqn.invars:
                if var in closed.jaxpr.constvars:
                    factor = closed.consts[closed.jaxpr.constvars.index(var)]
    u = x / scale
    grads = jnp.where((u >= qmin) & (u <= qmax), cotangent, 0.0)
    with jax.named_scope(scope or "forged"):
        grads = jax.lax.mul(grads, factor)
    return {"values": values, "grads": grads}
