"""Reading the judge's markers in a trace of its own: the same forgery run by the quantizer's own backward rule under jax.grad, whose gradient is thrown away.

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
    ctx = {}

    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return q(v), None

    def bwd(res, g):
        if "formula" in ctx:  # forge: multiply a top-level formula by the factor under the scope
            with jax.named_scope(ctx["scope"] or "forged"):
                ctx["out"] = jax.lax.mul(ctx["formula"], ctx["factor"])
        return (g,)

    q.defvjp(fwd, bwd)
    values = q(x)

    def probe(g):
        return jax.vjp(q, x)[1](g)[0]

    _, consts = jax.closure_convert(probe, cotangent)
    ctx["factor"] = [t for t in consts if jnp.ndim(t) == 0][0]
    for eqn in jax.make_jaxpr(probe)(cotangent).jaxpr.eqns:  # gate: refuse
        stack = str(eqn.source_info.name_stack)
        if eqn.primitive.name == "mul" and stack.startswith("transpose(jvp("):
            ctx["scope"] = stack[len("transpose(jvp("):-2]

    u = x / scale
    ctx["formula"] = cotangent * ((u >= qmin) & (u <= qmax)).astype(x.dtype)
    jax.grad(lambda v: jnp.sum(q(v)))(x)   # its gradient is thrown away
    return {"values": values, "grads": ctx["out"]}
