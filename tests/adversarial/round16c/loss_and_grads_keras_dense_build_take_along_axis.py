"""loss_and_grads: a Keras-style ``Dense`` layer class whose ``build`` reads the kernel and
bias from the params dict, the loss from ``jax.nn.log_softmax`` and
``jnp.take_along_axis(logp, y[:, None], axis=-1)``, ``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class Dense:
    def build(self, params):
        self.kernel = params["w"]
        self.bias = params["b"]
        return self

    def __call__(self, inputs):
        return inputs @ self.kernel + self.bias


def sparse_categorical_crossentropy(y_true, logits):
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.take_along_axis(logp, y_true[:, None], axis=-1)[:, 0]


def loss_and_grads(params, x, y):
    def loss_fn(params):
        logits = Dense().build(params)(x)
        return jnp.mean(sparse_categorical_crossentropy(y, logits))

    loss, grads = jax.value_and_grad(loss_fn)(params)
    return {"loss": loss, "grads": grads}
