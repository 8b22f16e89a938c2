"""gunicorn settings for the web service (stateless: run as many processes as cores allow).

The values that vary come from service.data.config, the one reader of the environment.
"""

from service.data import config as _config  # (gunicorn reads every public name here)

_settings = _config.load()
bind = _settings.bind
workers = _settings.web_processes
worker_class = "gthread"
threads = _settings.web_threads
preload_app = True  # import the engine once, before forking
timeout = 30
graceful_timeout = 20
keepalive = 5
max_requests = 5000
max_requests_jitter = 500
accesslog = None  # the app writes structured JSON request logs itself
errorlog = "-"
loglevel = _settings.log_level
# gunicorn reads X-Forwarded-Proto from the same proxies the app trusts (PIKDAME_PROXIES), only
forwarded_allow_ips = ",".join(str(network) for network in _settings.proxies)
control_socket_disable = True  # several services may share a host; we do not use it
