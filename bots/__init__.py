"""Reference bots for every game, the helper a bot author uses to write one (:mod:`bots.sdk`), and
the HTTP server that serves the reference bots (:mod:`bots.server`)."""
