"""On a machine that opens no TCP socket (gVisor's TPU VMs), the tests that need one are skipped
with the reason the machine gave; everywhere else they run."""

import pytest

from tests import helpers


@pytest.fixture()
def fresh_answer():
    helpers._tcp_refused.cache_clear()
    yield
    helpers._tcp_refused.cache_clear()  # the next test asks the real machine again


def test_a_machine_without_tcp_skips_with_its_reason(monkeypatch, fresh_answer):
    def refused(*args, **kwargs):
        raise OSError(97, "Address family not supported by protocol")

    monkeypatch.setattr(helpers.socket, "create_server", refused)
    with pytest.raises(pytest.skip.Exception, match=r"no TCP socket .*Address family not supported"):
        helpers.free_port()


def test_a_machine_with_tcp_gets_a_free_port(fresh_answer):
    if helpers._tcp_refused() is not None:
        pytest.skip("this machine opens no TCP socket")
    port = helpers.free_port()
    assert 0 < port < 65536
    with helpers.socket.create_server(("127.0.0.1", port)):  # free: it can be bound
        pass
