"""A host callback whose result nothing reads, and which raises.

Nothing reads the callback's result, but it runs the submission's own code: the evaluator never
skips it. eval_jaxpr calls it, it raises, and the case is a run-time error.

Problem: fake_quant_ste
Expected: RTE exception (the unused callback still runs, and raises, under both evaluators)
Closed by: only plain array operations are skipped when unused (judge.worker.evaluate)
"""
import jax
import jax.numpy as jnp


def _refuse(v):
    raise ValueError("the callback ran")


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        u = v / scale
        return quant(v), (u >= qmin) & (u <= qmax)

    def quant_bwd(mask, g):
        return (jnp.where(mask, g, jnp.zeros_like(g)),)

    quant.defvjp(quant_fwd, quant_bwd)
    values, pullback = jax.vjp(quant, x)
    (grads,) = pullback(cotangent)
    jax.pure_callback(_refuse, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
    return {"values": values, "grads": grads}
