"""masked_mean_xent: the padded logits replaced by zeros before anything else (so nothing
large is ever computed there), the log-softmax by hand with a stopped max, and N as
``jnp.count_nonzero`` of the mask cast to float32.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    pos = jax.lax.broadcasted_iota(jnp.int32, labels.shape, 1)
    valid = pos < lengths[:, None]
    z = jnp.where(valid[..., None], logits, 0.0)
    mx = jax.lax.stop_gradient(jnp.max(z, axis=-1, keepdims=True))
    lse = jnp.log(jnp.sum(jnp.exp(z - mx), axis=-1)) + mx[..., 0]
    target = jnp.take_along_axis(z, labels[..., None], axis=-1)[..., 0]
    n = jnp.count_nonzero(valid).astype(jnp.float32)
    return jnp.sum(jnp.where(valid, lse - target, 0.0)) / n
