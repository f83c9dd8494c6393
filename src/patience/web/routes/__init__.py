"""The JSON API under /api, one router per concept: the games offered (``catalog``), a
game started and looked up (``games``), played (``play``), the solver's help (``help``),
the statistics (``stats``), the translations (``messages``) and why a move is refused
(``why``). Each endpoint translates a request into one call of the service, the store or
the solver pool, which it declares as dependencies (``web.deps``).
"""
