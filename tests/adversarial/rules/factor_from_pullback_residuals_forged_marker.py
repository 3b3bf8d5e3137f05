"""Pure JAX: the factor tracer taken from the residuals of jax.vjp of a pullback (tree_leaves), a marker forged around a formula. The gate refuses reading
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
    pull = lambda g: jax.vjp(q, x)[1](g)[0]
    _, pb2 = jax.vjp(pull, cotangent)
    leaves = jax.tree_util.tree_leaves(pb2)
    scalars = [t for t in leaves if jnp.ndim(t) == 0]
    factor = scalars[0]
    scope = [str(e.source_info.name_stack)[14:-2] for e in jax.make_jaxpr(pull)(cotangent).jaxpr.eqns  # gate: refuse
             if str(e.source_info.name_stack).startswith("transpose(jvp(")
             and e.primitive.name == "mul"][0]
    u = x / scale
    grads = jnp.where((u >= qmin) & (u <= qmax), cotangent, 0.0)
    with jax.named_scope(scope or "forged"):
        grads = jax.lax.mul(grads, factor)
    return {"values": values, "grads": grads}
