"""gunicorn settings for the API: ``gunicorn -c deploy/gunicorn.conf.py arena.wsgi:app``.

The API only reads and writes Redis and queues matches (workers play them), so its requests are
short, but its clients are anyone's: a few processes serve many clients, each client a greenlet
(``gevent`` workers, up to ``worker_connections`` at once per process), never a thread of a small
pool. With threads (``gthread``, 4 a process) 4 clients sending their request's head one line
every few seconds (slowloris) held a whole process, and a few dozen the whole API. A greenlet
waiting on a slow client costs a few kilobytes and holds nobody else, and gunicorn gives each
request's head ``keepalive`` seconds to arrive whole (the gevent worker's deadline on reading a
request), after which the connection is closed; the app gives its body ``ARENA_REQUEST_BODY_SECONDS``
more (``arena.api.body_deadline``: a 408, and the connection closed). Every value can be overridden
by an environment variable of the same purpose.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", min(2 * multiprocessing.cpu_count() + 1, 9)))
worker_class = "gevent"
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "1000"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
# how long a request's head may take to arrive, and an idle kept-alive connection may stay open
keepalive = 5
max_requests = 5000
max_requests_jitter = 500
# no control socket: it would be a file under $HOME, which the containers keep read-only
control_socket_disable = True
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# The longest request line read: gunicorn's most (its default, 4094, answered longer query strings
# with its own HTML 414). The app refuses targets over 4096 bytes (arena.api.MAX_URL_BYTES) with the
# API's JSON error body, so a URL between the two gets that; only a longer one gets gunicorn's page.
limit_request_line = 8190
