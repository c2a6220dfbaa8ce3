"""The multiplayer server: lobby, rooms, seats, the match master, wire protocol, clock, persistence.

``create_app(settings)`` builds the ASGI app; ``wolfden serve`` runs it on uvicorn.
"""

from wolfden.server.app import create_app
from wolfden.server.settings import Settings

__all__ = ["Settings", "create_app"]
