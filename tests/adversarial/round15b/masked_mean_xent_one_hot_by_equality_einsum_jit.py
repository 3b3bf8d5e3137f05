"""masked_mean_xent: the one-hot built by comparing the labels with ``jnp.arange(c)`` (c is a
number here), the target log-probability an ``einsum`` of it with ``log_softmax``, a float mask
through ``jnp.less``, all under ``jax.jit``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.jit
def masked_mean_xent(logits, labels, lengths):
    c = logits.shape[-1]
    onehot = (labels[..., None] == jnp.arange(c)).astype(logits.dtype)
    logp = jax.nn.log_softmax(logits)
    nll = -jnp.einsum("btc,btc->bt", onehot, logp)
    w = jnp.less(jnp.arange(labels.shape[1])[None, :], lengths[:, None]).astype(jnp.float32)
    return (nll * w).sum() / w.sum()
