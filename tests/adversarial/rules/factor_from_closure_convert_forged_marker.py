"""Pure JAX: the judge's factor tracer taken from jax.closure_convert over a pullback and the marker's scope name from a nested make_jaxpr, then a marker forged around a plain formula. The gate refuses reading
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
        return (g,)

    q.defvjp(fwd, bwd)
    values = q(x)

    def probe(g):
        return jax.vjp(q, x)[1](g)[0]

    _, consts = jax.closure_convert(probe, cotangent)
    factor = [t for t in consts if jnp.ndim(t) == 0][0]
    closed = jax.make_jaxpr(probe)(cotangent)
    scope = None
    for eqn in closed.jaxpr.eqns:  # gate: refuse
        stack = str(eqn.source_info.name_stack)
        if eqn.primitive.name == "mul" and stack.startswith("transpose(jvp("):
            scope = stack[len("transpose(jvp("):-2]
    u = x / scale
    mask = ((u >= qmin) & (u <= qmax)).astype(x.dtype)
    formula = cotangent * mask
    with jax.named_scope(scope or "forged"):
        grads = jax.lax.mul(formula, factor)
    return {"values": values, "grads": grads}
