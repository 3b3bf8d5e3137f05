import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


def batched_attention(q, k, v, mask):
    """Batched throughout: the log of each row's normalizer with logsumexp over the visible keys
    only, the weights as exp(scores - lse) (of -inf where masked), and the values mixed by a
    batched dot_general whose output shape is spelled out from v's."""
    d = q.shape[-1]
    scores = jnp.einsum("btd,bsd->bts", q, k) / jnp.sqrt(jnp.asarray(d, q.dtype))
    lse = logsumexp(jnp.where(mask, scores, -jnp.inf), axis=-1, keepdims=True)
    weights = jnp.exp(jnp.where(mask, scores - lse, -jnp.inf))
    out = jax.lax.dot_general(weights, v, (((2,), (1,)), ((0,), (0,))))
    return out.reshape(q.shape[:2] + v.shape[2:])
