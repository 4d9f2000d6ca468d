"""The match worker: the Celery app and its tasks, the body of a match run, the sweeper that queues
abandoned matches again, ``arena worker --processes N``'s supervisor, and the embedded platform
(API, worker and in-memory Redis in one process).

Nothing here imports the API (:mod:`tests.test_imports` checks it).
"""
