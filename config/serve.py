"""Serve the application: ``python -m config.serve`` (what `make run`, the image and the
benchmarks start).

uvicorn with ``WEB_PROCESSES`` worker processes (default 2) on ``HOST``:``PORT``, serving
``config.asgi:application``. Its own proxy-header handling is off: the client's address
is read by the application, from ``NUM_PROXIES`` trusted proxies only (docs/security.md).
Its HTTP protocol is httptools' with timeouts for slow or idle clients
(:mod:`config.protocol`); a connection idle after a response is closed after
``KEEPALIVE_TIMEOUT`` seconds.
The open-file limit is raised to its maximum, since every waiting client holds a socket.
uvicorn's supervisor pings each worker and replaces one that does not answer within
``WORKER_HEALTHCHECK_SECONDS`` (30; uvicorn's own 5 s killed busy workers, their waiting
clients' connections with them, when a loaded machine kept a worker off the CPU that long).
"""

from __future__ import annotations

import resource

import uvicorn

from config.env import env_bool, env_int, env_str
from config.protocol import TimedHttpToolsProtocol, setting_seconds


def main(application: str = "config.asgi:application") -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    uvicorn.run(
        application,
        host=env_str("HOST", "127.0.0.1") or "127.0.0.1",
        port=env_int("PORT", 8000),
        workers=env_int("WEB_PROCESSES", 2),
        timeout_worker_healthcheck=setting_seconds("WORKER_HEALTHCHECK_SECONDS", 30),
        loop="uvloop",
        http=TimedHttpToolsProtocol,
        timeout_keep_alive=setting_seconds("KEEPALIVE_TIMEOUT", 5),
        lifespan="off",
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=5,
        access_log=env_bool("ACCESS_LOG", default=True),
        log_level=(env_str("LOG_LEVEL", "info") or "info").lower(),
    )


if __name__ == "__main__":
    main()
