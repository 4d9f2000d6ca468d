"""The ``arena`` command (:mod:`arena.cli.main`) and its subcommands: ``play`` and ``replay`` on one
machine without a server, the platform's ``serve``, ``worker`` and ``demo``, and ``ratings`` and
``archive`` on a deployment's store.
"""
