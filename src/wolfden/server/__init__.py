"""The multiplayer server: lobby, rooms, seats, the match master, wire protocol, clock, persistence.

``wolfden.server.app.create_app(settings)`` builds the ASGI app; ``wolfden serve`` runs it on
uvicorn. The wire protocol is described in docs/protocol.md.
"""
