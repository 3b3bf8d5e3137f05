"""ema_scan: a Keras-style RNN cell: a class with ``state_size`` set in ``build`` and a
``call(inputs, states)`` returning ``(output, new_states)`` with the states a list, and a small
``RNN`` wrapper that scans the cell over the rows.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class EMACell:
    def __init__(self, decay):
        self.decay = decay
        self.state_size = None

    def build(self, input_shape):
        self.state_size = input_shape[-1]

    def call(self, inputs, states):
        (prev,) = states
        out = self.decay * prev + (1.0 - self.decay) * inputs
        return out, [out]


class RNN:
    def __init__(self, cell):
        self.cell = cell

    def __call__(self, inputs):
        self.cell.build(inputs.shape)
        init = [jnp.zeros((self.cell.state_size,), inputs.dtype)]

        def step(states, x_t):
            out, new_states = self.cell.call(x_t, states)
            return new_states, out

        _, outputs = jax.lax.scan(step, init, inputs)
        return outputs


def ema(x, decay):
    return RNN(EMACell(decay))(x)
