"""masked_mean_xent: a student's module: a ``MaskedXent`` class of static methods (``mask``,
``log_probs``, ``gather``), a print of the shapes at trace time (b and t print as symbols),
annotations, and a ``__main__`` block running the first example.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class MaskedXent:
    @staticmethod
    def mask(lengths: jax.Array, t) -> jax.Array:
        return jnp.arange(t) < lengths[:, None]

    @staticmethod
    def log_probs(logits: jax.Array) -> jax.Array:
        return jax.nn.log_softmax(logits, axis=-1)

    @staticmethod
    def gather(lp: jax.Array, labels: jax.Array) -> jax.Array:
        return jnp.take_along_axis(lp, labels[..., None], axis=-1)[..., 0]

    def __call__(self, logits, labels, lengths):
        print("logits", logits.shape, "labels", labels.shape)
        m = self.mask(lengths, logits.shape[1])
        nll = -self.gather(self.log_probs(logits), labels)
        return jnp.sum(nll, where=m) / m.sum()


def masked_mean_xent(logits, labels, lengths):
    return MaskedXent()(logits, labels, lengths)


if __name__ == "__main__":
    lg = jnp.zeros((2, 3, 3))
    print(masked_mean_xent(lg, jnp.zeros((2, 3), jnp.int32), jnp.array([2, 1])))
