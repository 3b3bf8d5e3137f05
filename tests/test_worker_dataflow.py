"""Which operands the program summary counts as data (``judge.worker.dataflow``): a bool is a
decision (``finite``, a one-hot of labels), unless it is an array computed from floating data,
whose bits can rebuild the floats."""

import jax
import jax.numpy as jnp
from jax import lax

from judge.run.summary import program as decode
from judge.worker import dataflow, program

BITS = jnp.arange(32, dtype=jnp.int32)


def _rebuilt(a):
    """``a`` rebuilt exactly from its bits, each read through a bool."""
    i = lax.bitcast_convert_type(a, jnp.int32)
    on = ((i[..., None] >> BITS) & 1) == 1
    return lax.bitcast_convert_type(jnp.sum(jnp.where(on, jnp.left_shift(1, BITS), 0), axis=-1),
                                    jnp.float32)


def _rebuilt_by_comparisons(a):
    """``a`` rebuilt (to a step of 2^-20) by a greedy binary expansion: comparisons of floats."""
    rest, out = a + 8.0, jnp.zeros_like(a)
    for e in range(3, -21, -1):
        on = rest >= 2.0 ** e
        out = out + jnp.where(on, 2.0 ** e, 0.0)
        rest = rest - jnp.where(on, 2.0 ** e, 0.0)
    return out - 8.0


def _data_operands(fn, *args, primitives=("mul", "dot_general")):
    typed = decode(program.summarize(jax.make_jaxpr(fn)(*args)), "program").typed
    return sorted(k[3] for k, n in typed.items() for _ in range(n) if k[0] in primitives)


X, DZ, Y = jnp.linspace(-3, 3, 12).reshape(4, 3), jnp.ones((4, 2)), jnp.array([0, 1, 1, 0])


def test_a_float_rebuilt_through_bools_is_still_data():
    assert jnp.array_equal(_rebuilt(X), X)
    assert _data_operands(lambda x, dz: _rebuilt(x).T @ dz, X, DZ) == [2]
    assert _data_operands(lambda x, dz: _rebuilt_by_comparisons(x)[:, :2] * dz, X, DZ) == [2]
    # inside a jit, a vmap and a loop body too
    assert _data_operands(lambda x, dz: jax.jit(_rebuilt)(x).T @ dz, X, DZ) == [2]
    assert _data_operands(lambda x, dz: jax.vmap(lambda r, d: _rebuilt(r)[:2] * d)(x, dz), X, DZ) == [2]
    assert _data_operands(lambda x, dz: lax.fori_loop(0, 2, lambda i, c: c + _rebuilt(x)[:, :2] * dz, dz),
                          X, DZ) == [2]


def test_decisions_stay_out_of_the_count():
    """``finite`` (shape ()), the scale chosen by it, and a one-hot of integer labels."""
    g, s = jnp.ones((3, 2)), jnp.float32(4.0)
    assert _data_operands(lambda g, s: jnp.where(jnp.isfinite(g).all(), s, s / 2) * g, g, s) == [1]
    assert _data_operands(lambda g, s: g * jnp.isfinite(g).all(), g, s) == [1]
    one_hot = lambda y, x: (y[:, None] == jnp.arange(3)[None, :]).astype(jnp.float32)  # noqa: E731
    assert _data_operands(lambda y, x: one_hot(y, x).T @ x, Y, X) == [1]
    assert _data_operands(lambda y, x: jax.nn.one_hot(y, 3) * x, Y, X) == [1]
    assert _data_operands(lambda y, x: jnp.einsum("nk,nk->n", jnp.eye(3)[y], x), Y, X) == [1]
    # the labels themselves, as integers or converted to floats, are data
    assert _data_operands(lambda y, x: y * y, Y, X) == [2]
    assert _data_operands(lambda y, x: y.astype(jnp.float32)[:, None] * x, Y, X) == [2]
    q = jnp.ones((4, 3), jnp.int8)  # quantized values given as integers
    assert _data_operands(lambda q, x: q.astype(jnp.float32) @ x.T, q, X) == [2]


def test_a_one_hot_of_labels_compared_as_floats_is_a_decision():
    """The labels converted to floats are quantities (``y_f * x`` multiplies two data values),
    but a comparison of them holds nothing the labels' own comparisons do not: the one-hot it
    makes is a decision, however it is spelled. A float input beside them makes the comparison
    data again, and so does one of the labels with the floats."""
    yf = lambda y: y.astype(jnp.float32)  # noqa: E731
    one_hot = lambda y: (yf(y)[:, None] == jnp.arange(3, dtype=jnp.float32)).astype(jnp.float32)  # noqa: E731
    assert _data_operands(lambda y, x: jnp.einsum("nk,nk->n", one_hot(y), x), Y, X) == [1]
    assert _data_operands(lambda y, x: one_hot(y).T @ x, Y, X) == [1]
    assert _data_operands(lambda y, x: jnp.where(yf(y) + 1.0 > 1.5, 1.0, 0.0) * x[:, 0], Y, X) == [1]
    assert _data_operands(lambda y, x: yf(y)[:, None] * x, Y, X) == [2]
    assert _data_operands(lambda y, x: (yf(y)[:, None] + x > 1.0) * x, Y, X) == [2]
    assert _data_operands(lambda y, x: (yf(y)[:, None] == x) * x, Y, X) == [2]


def test_a_bool_array_from_floats_is_data():
    """A mask of the floats themselves (``x > 0``) is computed from them; a mask given as an
    input is not (it is no float)."""
    assert _data_operands(lambda x, dz: (x[:, :2] > 0) * dz, X, DZ) == [2]
    mask = jnp.array([[True, False]] * 4)
    assert _data_operands(lambda m, dz: m * dz, mask, DZ) == [1]


def test_input_levels():
    closed = jax.make_jaxpr(lambda x, y, s, m: 0)(X, Y, jnp.float32(1), jnp.ones(2, bool))
    assert dataflow.input_levels(closed.jaxpr.invars) == (dataflow.FLOATING, dataflow.LABELS,
                                                          dataflow.NONE, dataflow.LABELS)


def test_a_data_divisor_counts_twice():
    """``1 / a`` is a nonlinear function of ``a`` (a square is ``1 / (1 / a - 1 / (a + 1)) - a``),
    so a quotient by a data value counts as a product of two; a quotient of data by a scalar
    input (``g / loss_scale``) or by a constant counts one."""
    g, s = jnp.ones((3, 2)), jnp.float32(4.0)
    div = ("div",)
    assert _data_operands(lambda g, s: g / s, g, s, primitives=div) == [1]
    assert _data_operands(lambda g, s: g / 3.0, g, s, primitives=div) == [1]
    assert _data_operands(lambda g, s: 1.0 / g, g, s, primitives=div) == [2]
    assert _data_operands(lambda g, s: s / g, g, s, primitives=div) == [2]
    assert _data_operands(lambda g, s: g / (g + 1.0), g, s, primitives=div) == [3]
    assert _data_operands(lambda g, s: jnp.remainder(s, g), g, s, primitives=("rem",)) == [2]
    assert _data_operands(lambda g, s: jnp.remainder(g, s), g, s, primitives=("rem",)) == [1]


# --- widened: floating data computed in a type other than float16 --------------------------------

F16 = jnp.float16


def test_an_indexing_primitive_counts_its_data_indices_alone():
    """A lookup at indices read off floating data (a table of squares indexed by float16 bits)
    counts one data operand; data moved by constant indices or by labels, and a scatter's data
    updates at constant indices, count none."""
    table = jnp.arange(16, dtype=jnp.float32) ** 2
    bits = lambda a: lax.bitcast_convert_type(a.astype(jnp.float16), jnp.uint16).astype(jnp.int32) & 15  # noqa: E731
    lookups = ("gather", "dynamic_slice", "scatter", "scatter-add")
    assert _data_operands(lambda x: jnp.take(table, bits(x)), X, primitives=lookups) == [1]
    assert _data_operands(lambda x: lax.dynamic_slice(table, (bits(x)[0, 0],), (2,)), X,
                          primitives=lookups) == [1]
    assert _data_operands(lambda x: jnp.zeros(16).at[bits(x)].add(1.0), X, primitives=lookups) == [1]
    assert _data_operands(lambda x: x[:, jnp.array([2, 0])], X, primitives=lookups) == [0]
    assert _data_operands(lambda y, x: x[y % 4], Y, X, primitives=lookups) == [0]
    assert _data_operands(lambda x: jnp.zeros(4).at[jnp.arange(4)].set(x[:, 0]), X, primitives=lookups) == [0]


def _widened(fn, *args, primitives=("dot_general", "mul")):
    """The widened operands of each live float16 equation of these primitives."""
    typed = decode(program.summarize(jax.make_jaxpr(fn)(*args)), "program").typed
    return sorted(k[4] for k, n in typed.items() for _ in range(n)
                  if k[0] in primitives and "float16" in k[1])


def test_inputs_cast_to_float16_are_not_widened():
    assert _widened(lambda x, dz: x.astype(F16).T @ dz.astype(F16), X, DZ) == [0]
    assert _widened(lambda x, dz: x.astype(F16)[:, :2].reshape(2, 4) @ dz.astype(F16), X, DZ) == [0]


def test_float32_work_cast_to_float16_is_widened():
    assert _widened(lambda x, dz: (x * x).astype(F16).T @ dz.astype(F16), X, DZ) == [1]
    assert _widened(lambda x, dz: jnp.exp(x).astype(F16).T @ dz.astype(F16), X, DZ) == [1]
    r = lambda x, y: x.astype(F16).astype(jnp.float32) - y  # noqa: E731 - a float32 residual
    assert _widened(lambda x, dz: r(x[:, :2], dz).astype(F16) * dz.astype(F16), X, DZ) == [1]
    # through its bits, a jit, a loop of one trip and an int32 fixed point
    bits = lambda a: lax.bitcast_convert_type(lax.bitcast_convert_type(a, jnp.int32), jnp.float32)  # noqa: E731
    assert _widened(lambda x, dz: bits(x).astype(F16).T @ dz.astype(F16), X, DZ) == [1]
    assert _widened(lambda x, dz: jax.jit(lambda a: a * a)(x).astype(F16).T @ dz.astype(F16),
                    X, DZ) == [1]
    assert _widened(lambda x, dz: lax.fori_loop(0, 1, lambda i, a: a * 1.0, x).astype(F16).T
                    @ dz.astype(F16), X, DZ) == [1]
    # a difference of two data values as a sum over their stack (``stack`` combines them); but a
    # concatenation moves values (ravel_pytree of float32 params cast to float16 is honest), so
    # the same sum over a concatenation is not seen (an open gap)
    pair = lambda x, dz: jnp.stack([x[:, :2], -dz]).sum(0)  # noqa: E731
    assert _widened(lambda x, dz: pair(x, dz).astype(F16) * dz.astype(F16), X, DZ) == [1]
    cat = lambda x, dz: jnp.concatenate([x[None, :, :2], -dz[None]]).sum(0)  # noqa: E731
    assert _widened(lambda x, dz: cat(x, dz).astype(F16) * dz.astype(F16), X, DZ) == [0]
    flat = lambda x, dz: jnp.concatenate([x.ravel(), dz.ravel()])  # noqa: E731
    assert _widened(lambda x, dz: flat(x, dz).astype(F16) * flat(x, dz).astype(F16), X, DZ) == [0]
    fixed = lambda a: (jnp.round(a * 256).astype(jnp.int32) * 3).astype(F16) / 256  # noqa: E731
    assert _widened(lambda x, dz: fixed(x).T @ dz.astype(F16), X, DZ) == [1]


def test_float16_work_and_float32_work_after_it_are_not_widened():
    """The honest mixed-precision step: the network in float16, its gradient cast up, unscaled
    and applied in float32 (nothing float16 reads that float32 work)."""
    def step(x, dz):
        g = x.astype(F16).T @ dz.astype(F16)
        return x[:2] - 0.1 * (g.astype(jnp.float32).T / 4.0)[:, :3][:2]
    assert _widened(step, X, DZ) == [0]
    assert _widened(lambda x, dz: jnp.tanh(x.astype(F16) @ jnp.ones((3, 2), F16)) * dz.astype(F16),
                    X, DZ) == [0, 0]


def test_a_float16_mean_summed_in_float32_is_not_widened():
    """``jnp.mean`` of float16 values sums them in float32 and divides by the count: a sum and a
    scaling of one data operand keep what float16 holds."""
    assert _widened(lambda x, dz: jnp.mean(x.astype(F16), axis=0) * dz.astype(F16)[:3, 0],
                    X, DZ) == [0]
    assert _widened(lambda x, dz: (jnp.sum(x.astype(F16).astype(jnp.float32)) * 0.5).astype(F16)
                    * dz.astype(F16), X, DZ) == [0]


def _rebuilt_scalar(a):
    """One scalar rebuilt (to a step of 2^-16) from its bits, each a bool of shape ()."""
    fixed = jnp.round(jnp.abs(a) * 2.0 ** 16)
    out = jnp.float32(0)
    for k in range(24):
        out = out + jnp.where(jnp.floor(fixed * 2.0 ** -k) % 2.0 > 0.5, 2.0 ** (k - 16), 0.0)
    return jnp.where(a < 0, -out, out)


def test_scalar_decisions_in_a_loop_body_are_data():
    """Outside a loop a bool of shape () is one decision; inside a loop's body the trips'
    decisions, one entry a trip, carry a whole array: an entry rebuilt from them and multiplied
    in the same trip is a product of two data values."""
    def products(x, dz):
        fx, fd = x[:, :2].ravel(), dz.ravel()
        trip = lambda i, out: out.at[i].set(fd[i] * _rebuilt_scalar(fx[i]))  # noqa: E731
        return lax.fori_loop(0, fx.shape[0], trip, jnp.zeros_like(fd))

    assert max(_data_operands(products, X, DZ)) == 2
    # the same through a scan over the entries, and through a cond on a rebuilt bit
    scan = lambda x, dz: lax.scan(lambda c, ab: (c, ab[1] * _rebuilt_scalar(ab[0])), 0.0,  # noqa: E731
                                  (x[:, 0], dz[:, 0]))[1]
    assert max(_data_operands(scan, X, DZ)) == 2
    by_cond = lambda x, dz: lax.fori_loop(  # noqa: E731
        0, 4, lambda i, out: out.at[i].set(dz[i, 0] * lax.cond(x[i, 0] > 0, lambda: 2.0, lambda: 0.5)),
        jnp.zeros(4))
    assert max(_data_operands(by_cond, X, DZ)) == 2
    # outside a loop, finite and what it chooses stay decisions
    g = jnp.ones((3, 2))
    assert _data_operands(lambda g, s: lax.cond(jnp.isfinite(g).all(), lambda: s, lambda: s / 2) * g,
                          g, jnp.float32(4.0)) == [1]


def test_what_a_switch_on_data_chooses_is_data():
    """A ``switch`` on an index computed from the floats picks a constant per value of the index:
    the constant it returns is as much data as the index."""
    pick = lambda x, dz: lax.switch(jnp.clip(x[0, 0].astype(jnp.int32), 0, 2),  # noqa: E731
                                    [lambda: 1.0, lambda: 2.0, lambda: 3.0]) * dz
    assert _data_operands(pick, X, DZ) == [2]


def _index_operands(fn, *args):
    return _data_operands(fn, *args, primitives=("dynamic_slice", "gather"))


def test_a_trip_counter_beside_data_is_no_data_in_the_loop_body():
    table = jnp.arange(64, dtype=jnp.float32) ** 2

    def rows_summed(x):  # the counter indexes rows; the carry holds data
        return lax.fori_loop(0, x.shape[0], lambda i, acc: acc + lax.dynamic_index_in_dim(x, i, 0, False),
                             jnp.zeros(x.shape[1:], x.dtype))

    def scanned(x):
        return lax.scan(lambda c, row: ((c[0] + 1, c[1] + row * table[c[0]]), None),
                        (0, jnp.zeros(x.shape[1:])), x)[0][1]

    assert _index_operands(rows_summed, X) == [0]
    assert _index_operands(scanned, X) == [0]


def test_a_counter_that_data_moves_or_that_a_data_test_stops_is_data():
    table = jnp.arange(64, dtype=jnp.float32) ** 2

    def counted_up_to(v):  # counts the quarters below v[0], then reads the table there
        i = lax.while_loop(lambda i: i.astype(jnp.float32) * 0.25 < v[0], lambda i: i + 1, 0)
        return table[i]

    def read_in_the_loop(v):  # the table read inside a loop that a data test stops
        return lax.while_loop(lambda c: c[0].astype(jnp.float32) * 0.25 < v[0],
                              lambda c: (c[0] + 1, table[c[0]]), (0, 0.0))[1]

    def stepped_by_data(v):  # the counter steps by a flag of the data
        return lax.fori_loop(0, 4, lambda k, c: (c[0] + (v[k] > 0).astype(jnp.int32),
                                                 c[1] + table[c[0]]), (0, 0.0))[1]

    v = jnp.array([1.3, -0.5, 2.0, 0.7])
    assert _index_operands(counted_up_to, v) == [1]
    assert _index_operands(read_in_the_loop, v) == [1]
    assert _index_operands(stepped_by_data, v) == [0, 1]  # v[k] at the counter, the table at data
