"""An unused reduction over a NaN, with jax_debug_nans turned on by the submission.

The loss that only the reduction reads is never used, so the evaluator may skip it; but with
jax_debug_nans on, computing it raises FloatingPointError, as eval_jaxpr does. Skipping it there
would turn the submission's own run-time error into an accepted answer.

Problem: fake_quant_ste
Expected: RTE exception (jax_debug_nans stops the unused reduction of a NaN, under both evaluators)
Closed by: with jax_debug_nans or jax_debug_infs on, every operation is computed (judge.worker.evaluate)
"""
import jax
import jax.numpy as jnp



def _hold():
    with jax.debug_nans(True):
        yield


_HELD = _hold()
next(_HELD)  # suspended inside the block: jax_debug_nans stays on, for the evaluation too


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
    jnp.sum(jnp.log(x * x - x * x - 1.0))  # unused: log(-1) is NaN
    return {"values": values, "grads": grads}
