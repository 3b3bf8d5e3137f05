"""masked_mean_xent: defensive code a cautious student writes: inputs re-cast with
``jnp.asarray``, labels clipped into range and zeroed at the padding, a masked max, a guarded
sum, an ``isfinite`` filter on the losses, the count floored at 1 and the result reshaped to
``()``: many small equations, still within the cap with the judge's derivative.

Problem: masked_mean_xent
Expected: AC
"""

import jax
import jax.numpy as jnp


def _stable_log_softmax(z, valid):
    z = jnp.where(valid[..., None], z, jnp.zeros_like(z))
    m = jnp.max(z, axis=-1, keepdims=True)
    m = jax.lax.stop_gradient(m)
    shifted = z - m
    e = jnp.exp(shifted)
    s = jnp.sum(e, axis=-1, keepdims=True)
    s = jnp.where(s > 0, s, jnp.ones_like(s))
    return shifted - jnp.log(s)


def masked_mean_xent(logits, labels, lengths):
    logits = jnp.asarray(logits, jnp.float32)
    labels = jnp.asarray(labels, jnp.int32)
    lengths = jnp.asarray(lengths, jnp.int32)
    b, t, c = logits.shape
    pos = jnp.arange(t, dtype=jnp.int32)
    valid = pos[None, :] < lengths[:, None]
    valid = valid & (pos[None, :] >= 0)
    safe_labels = jnp.clip(labels, 0, c - 1)
    safe_labels = jnp.where(valid, safe_labels, 0)
    logp = _stable_log_softmax(logits, valid)
    onehot = jax.nn.one_hot(safe_labels, c, dtype=logits.dtype)
    picked = jnp.sum(logp * onehot, axis=-1)
    nll = -picked
    nll = jnp.where(valid, nll, jnp.zeros_like(nll))
    nll = jnp.where(jnp.isfinite(nll), nll, jnp.zeros_like(nll))
    count = jnp.sum(valid.astype(jnp.float32))
    count = jnp.maximum(count, 1.0)
    per_seq = jnp.sum(nll, axis=1)
    total = jnp.sum(per_seq)
    loss = total / count
    return loss.astype(jnp.float32).reshape(())
