"""masked_mean_xent: a loss class; the validity mask as ``cumsum`` of ones along the positions
compared with the lengths (position j is valid when j + 1 <= length), ``jax.nn.log_softmax`` and
``take_along_axis``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class MaskedCrossEntropy:
    def mask(self, labels: jax.Array, lengths: jax.Array) -> jax.Array:
        positions = jnp.cumsum(jnp.ones_like(labels), axis=1)
        return positions <= lengths[:, None]

    def __call__(self, logits, labels, lengths):
        logp = jax.nn.log_softmax(logits, axis=-1)
        nll = -jnp.take_along_axis(logp, labels[..., None], axis=-1).squeeze(-1)
        valid = self.mask(labels, lengths)
        return jnp.sum(jnp.where(valid, nll, 0.0)) / jnp.sum(valid).astype(jnp.float32)


def masked_mean_xent(logits, labels, lengths):
    return MaskedCrossEntropy()(logits, labels, lengths)
