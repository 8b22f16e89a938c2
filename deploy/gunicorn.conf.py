"""gunicorn settings for the web service (stateless: run as many processes as cores allow)."""

import multiprocessing
import os

bind = os.environ.get("PIKDAME_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", min(4, multiprocessing.cpu_count() * 2)))
worker_class = "gthread"
threads = int(os.environ.get("PIKDAME_THREADS", "4"))
preload_app = True  # import the engine once, before forking
timeout = 30
graceful_timeout = 20
keepalive = 5
max_requests = 5000
max_requests_jitter = 500
accesslog = None  # the app writes structured JSON request logs itself
errorlog = "-"
loglevel = os.environ.get("PIKDAME_LOGLEVEL", "info")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
control_socket_disable = True  # several services may share a host; we do not use it
