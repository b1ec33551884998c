"""gunicorn's settings for the site; `gunicorn` started in the repository root reads this file itself.

Every worker is ready before its first request: the app is loaded once in the master (`preload_app`)
and warmed there (the compiled rules, the URLconf, the templates; armylists/ops/warmup.py), so the workers
fork with all of it in memory, and a worker gunicorn replaces later is ready just as fast.

Environment (see docs/deploy.md): GUNICORN_BIND (127.0.0.1:8000; comma-separated for several),
WEB_CONCURRENCY (workers, default 2 per core), GUNICORN_THREADS (1), GUNICORN_TIMEOUT (30 seconds),
FORWARDED_ALLOW_IPS (127.0.0.1: the reverse proxy whose X-Forwarded-* headers are trusted),
GUNICORN_ACCESS_LOG (off; "-" logs to stdout), GUNICORN_CONTROL_SOCKET (off; a path turns it on).
"""
import gc
import os

wsgi_app = "armylists.wsgi:application"
bind = [part.strip() for part in os.getenv("GUNICORN_BIND", "127.0.0.1:8000").split(",") if part.strip()]
workers = int(os.getenv("WEB_CONCURRENCY", str(2 * (os.cpu_count() or 1))))
threads = int(os.getenv("GUNICORN_THREADS", "1"))
timeout = int(os.getenv("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
preload_app = True
# Workers are replaced now and then (a leak stays bounded); forked from the warmed master, at no cost.
max_requests = 10000
max_requests_jitter = 1000
forwarded_allow_ips = os.getenv("FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = os.getenv("GUNICORN_ACCESS_LOG") or None
# gunicorn's control socket (gunicornc) only when asked for: its default path is one per user, which two
# instances on one machine would fight over.
control_socket = os.getenv("GUNICORN_CONTROL_SOCKET") or "gunicorn.ctl"
control_socket_disable = not os.getenv("GUNICORN_CONTROL_SOCKET")


def on_starting(server):
    """In the master, after the app is loaded (preload) and before it listens: warm it once for all."""
    if server.cfg.preload_app:
        from armylists.ops.warmup import warm

        server.log.info("warmed before listening: %s", _seconds(warm()))
        # Move everything loaded so far out of the collector's generations: the workers' collections
        # then never touch (and so never copy) the pages they share with the master.
        gc.freeze()


def post_worker_init(worker):
    """In each worker before its first request: nothing left to do after a preloading master's fork."""
    from armylists.ops.warmup import warm

    took = warm()
    if took["rules"] > 0.05:
        worker.log.info("worker warmed: %s", _seconds(took))


def _seconds(took):
    return ", ".join(f"{part} {value:.2f}" if isinstance(value, float) else f"{part} {value}"
                     for part, value in took.items())
