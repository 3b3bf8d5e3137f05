import jax
import jax.numpy as jnp


class MaskedCrossEntropy:
    """Token-level cross-entropy averaged over the non-padded positions."""

    def __init__(self, axis=-1):
        self.axis = axis

    def mask(self, lengths, t):
        return jnp.arange(t)[None, :] < lengths[:, None]

    def token_losses(self, logits, labels):
        logp = jax.nn.log_softmax(logits, axis=self.axis)
        onehot = jax.nn.one_hot(labels, logits.shape[-1], dtype=logits.dtype)
        return -(onehot * logp).sum(axis=-1)

    def __call__(self, logits, labels, lengths):
        valid = self.mask(lengths, logits.shape[1])
        losses = jnp.where(valid, self.token_losses(logits, labels), 0.0)
        return losses.sum() / valid.sum().astype(losses.dtype)


_loss = MaskedCrossEntropy()


def masked_mean_xent(logits, labels, lengths):
    return _loss(logits, labels, lengths)
