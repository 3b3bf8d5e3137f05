"""Reading the judge's markers in a trace of its own: the marker's scope read from the name stacks of a nested make_jaxpr, the factor from closure_convert, and the formula multiplied by it under that scope inside a dummy rule's backward pass, smuggled out through a list.

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

    # the formula, at top level, outside any backward rule
    u = x / scale
    mask = ((u >= qmin) & (u <= qmax)).astype(x.dtype)
    formula = cotangent * mask

    box = []

    @jax.custom_vjp
    def d(v):
        return v

    def dfwd(v):
        return v, None

    def dbwd(res, g):
        # runs during transposition: JAX records under the forward call's traceback
        with jax.named_scope(scope or "forged"):
            box.append(jax.lax.mul(formula, factor))
        return (g,)

    d.defvjp(dfwd, dbwd)
    jax.vjp(d, x)[1](jnp.zeros_like(x))
    grads = box[0]
    return {"values": values, "grads": grads}
