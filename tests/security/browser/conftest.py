from tests.web.conftest import browser, pages, server

__all__ = ["browser", "pages", "server"]
