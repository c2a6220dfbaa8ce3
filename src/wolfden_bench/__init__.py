"""Tools that measure wolfden, shipped with it but outside the product package.

``wolfden bench`` (playouts, OpenSpiel beside them, the simulator's scaling, the environments,
the server), ``wolfden soak`` (bounded load on a real server) and the Robbers' Horror strength
table. wolfden's own modules never import this package; the ``wolfden`` command loads it only
when one of these commands is named.
"""
