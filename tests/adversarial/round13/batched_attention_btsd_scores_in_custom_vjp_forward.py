"""batched_attention, cheat: the scores of the primal computed inside a ``jax.custom_vjp`` forward
rule as the broadcast product ``q[:, None, :] * k[None]`` summed over d (a (t, s, d) value per
example), its backward rule honest; the size rule must weigh what the custom rules compute.

Problem: batched_attention
Expected: RJ intermediate_too_large
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def scores_of(q, k):
    return jnp.sum(q[:, None, :] * k[None, :, :], axis=-1)


def _fwd(q, k):
    return scores_of(q, k), (q, k)


def _bwd(res, ct):
    q, k = res
    return ct @ k, ct.T @ q


scores_of.defvjp(_fwd, _bwd)


def attend(q, k, v, mask):
    scores = scores_of(q, k) / jnp.sqrt(jnp.float32(q.shape[-1]))
    return jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
