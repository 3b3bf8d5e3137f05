"""adamw_step: a port of a Keras optimizer: a class whose ``build`` makes the hyperparameters
and whose ``apply_gradients`` flattens the trees with ``jax.tree_util.tree_structure``, updates
the leaves in a list comprehension over ``zip`` and puts them back with ``treedef.unflatten``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class AdamW:
    def __init__(self, learning_rate, beta_1, beta_2, epsilon, weight_decay):
        self.learning_rate = learning_rate
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.weight_decay = weight_decay
        self.built = False

    def build(self, iterations):
        t = (iterations + 1).astype(jnp.float32)
        self.bias_1 = 1.0 - jnp.power(jnp.float32(self.beta_1), t)
        self.bias_2 = 1.0 - jnp.power(jnp.float32(self.beta_2), t)
        self.built = True

    def update_step(self, variable, gradient, m, v):
        m = self.beta_1 * m + (1.0 - self.beta_1) * gradient
        v = self.beta_2 * v + (1.0 - self.beta_2) * jnp.square(gradient)
        m_hat = m / self.bias_1
        v_hat = v / self.bias_2
        step = m_hat / (jnp.sqrt(v_hat) + self.epsilon) + self.weight_decay * variable
        return variable - self.learning_rate * step, m, v

    def apply_gradients(self, variables, gradients, ms, vs, iterations):
        if not self.built:
            self.build(iterations)
        treedef = jax.tree_util.tree_structure(variables)
        leaves = [jax.tree_util.tree_leaves(tree) for tree in (variables, gradients, ms, vs)]
        updated = [self.update_step(*args) for args in zip(*leaves)]
        new_vars, new_m, new_v = ([u[i] for u in updated] for i in range(3))
        return (treedef.unflatten(new_vars), treedef.unflatten(new_m), treedef.unflatten(new_v))


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    opt = AdamW(lr, b1, b2, eps, weight_decay)
    new_params, new_m, new_v = opt.apply_gradients(params, grads, m, v, count)
    return {"params": new_params, "m": new_m, "v": new_v, "count": count + 1}
