"""masked_mean_xent: honest code with a loss class (``__call__``), ``jax.numpy`` imported as
``np``, ``jax.nn.log_softmax`` and a float mask; the count of valid tokens is ``sum(lengths)``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as np


class MaskedCrossEntropy:
    def __call__(self, logits, labels, lengths):
        t = logits.shape[1]
        mask = (np.arange(t)[None, :] < lengths[:, None]).astype(np.float32)
        logp = jax.nn.log_softmax(logits, axis=-1)
        picked = np.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
        return -np.sum(picked * mask) / np.sum(lengths).astype(np.float32)


def masked_mean_xent(logits, labels, lengths):
    return MaskedCrossEntropy()(logits, labels, lengths)
