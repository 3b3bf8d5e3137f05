import jax
import jax.numpy as jnp


def example_loss(params, x_i, y_i):
    logits = x_i @ params["w"] + params["b"]
    return -jax.nn.log_softmax(logits)[y_i]


def loss_and_grads(params, x, y):
    n = x.shape[0]
    loss, grads = 0.0, jax.tree.map(jnp.zeros_like, params)
    for i in range(n):
        l_i, g_i = jax.value_and_grad(example_loss)(params, x[i], y[i])
        loss = loss + l_i / n
        grads = jax.tree.map(lambda a, g: a + g / n, grads, g_i)
    return {"loss": loss, "grads": grads}
