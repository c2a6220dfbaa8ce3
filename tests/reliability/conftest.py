from tests.server.conftest import make_server, server

__all__ = ["make_server", "server"]
