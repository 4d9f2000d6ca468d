"""The referee's network side: how a seat's bot is reached and asked, apart from the engines.

- :mod:`.endpoints`: which bot endpoints the platform may call (the endpoint policy, bounded name
  resolution);
- :mod:`.sockets`: a socket under a deadline, and when each piece of an answer arrived;
- :mod:`.connection`: one keep-alive HTTP/1.1 connection to a bot, each exchange under a deadline;
- :mod:`.agents`: the referee's side of a seat, an in-process bot or a bot endpoint over HTTP;
- :mod:`.ping`: the signed ``ping`` that tells whether a bot endpoint is ready to play.

The engines (every game package, and the referee's modules outside this one) import no socket,
TLS, ``select`` or HTTP library: ``tests/test_imports.py`` says so.
"""
