"""batched_attention, cheat: the attention run on the host in NumPy through
``jax.experimental.io_callback`` (``ordered=False``), bound to a plain name at import: the
source gate refuses the import from ``jax.experimental`` before anything runs.

Problem: batched_attention
Expected: RJ forbidden_construct
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback as host

SPEC = jax.ShapeDtypeStruct


def _numpy_attention(q, k, v, mask):
    s = np.einsum("btd,bsd->bts", q, k) / np.sqrt(q.shape[-1])
    s = np.where(mask, s, -np.inf)
    w = np.exp(s - s.max(-1, keepdims=True))
    w = w / w.sum(-1, keepdims=True)
    return np.einsum("bts,bse->bte", w, v).astype(np.float32)


def batched_attention(q, k, v, mask):
    shape = SPEC(q.shape[:2] + v.shape[2:], jnp.float32)
    return host(_numpy_attention, shape, q, k, v, mask, ordered=False)
