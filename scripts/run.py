"""`make run`: the whole service on this machine.

Starts embedded PostgreSQL and Redis under ``var/`` (unless ``DATABASE_URL`` /
``CELERY_BROKER_URL`` name servers to use), migrates, then runs the API server, a Celery
worker for each queue (``interactive``: COM turns people wait for, timers; ``background``:
COMs playing each other) and Celery beat. Ctrl-C (or SIGTERM) stops all of them, the
embedded servers included; the data stays in ``var/`` for the next run. When one of the
processes exits on its own, the others are stopped too and the exit status says which.

While it runs, ``var/run.env`` holds the settings it uses, so that ``scripts/manage``
(e.g. ``scripts/manage verify_match --all``) works on the same database.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

from embedded import EmbeddedError, folder_lock, servers

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
STOP_TIMEOUT = 20.0


class Stop(Exception):
    """Ctrl-C or SIGTERM: stop everything."""


def _on_signal(signum: int, frame: object) -> None:
    raise Stop(signal.Signals(signum).name)


def _processes(env: dict[str, str], var: Path) -> dict[str, list[str]]:
    return {
        "api": [str(BIN / "python"), "-m", "config.serve"],
        "worker": [str(BIN / "celery"), "-A", "config", "worker", "--loglevel=INFO",
                   "--queues=interactive", "--concurrency=2", "--hostname=interactive@%h",
                   "--without-gossip", "--without-mingle"],
        "background worker": [str(BIN / "celery"), "-A", "config", "worker", "--loglevel=INFO",
                              "--queues=background", "--concurrency=1",
                              "--hostname=background@%h", "--without-gossip", "--without-mingle"],
        "beat": [str(BIN / "celery"), "-A", "config", "beat", "--loglevel=INFO",
                 f"--schedule={var / 'celerybeat-schedule'}"],
    }  # fmt: skip


def _stop(children: dict[str, subprocess.Popen[bytes]]) -> None:
    for child in children.values():
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    for name, child in children.items():
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            print(f"run: {name} did not stop within {STOP_TIMEOUT:.0f} s; killing it")
            child.kill()
            child.wait()


def _chain_key(var: Path) -> str:
    """This installation's key for the event log's hash chain, made on the first run."""
    path = var / "chain-key"
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(f"local:{secrets.token_hex(32)}\n")
    return path.read_text().strip()


def _write_env(path: Path, env: dict[str, str]) -> None:
    names = (
        "DEBUG", "GOLF_VAR_DIR", "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL",
        "EVENT_CHAIN_KEYS",
    )  # fmt: skip
    lines = [f"{name}={shlex.quote(env[name])}" for name in names if env.get(name)]
    path.touch(mode=0o600)
    path.write_text("# written by `make run` while it runs; read by scripts/manage\n"
                    + "\n".join(lines) + "\n")  # fmt: skip


def serve(var: Path, env: dict[str, str]) -> int:
    """Run the service's processes until a signal or until one of them exits."""
    subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput"],
                   cwd=ROOT, env=env, check=True)  # fmt: skip
    children: dict[str, subprocess.Popen[bytes]] = {}
    try:
        for name, command in _processes(env, var).items():
            children[name] = subprocess.Popen(command, cwd=ROOT, env=env)
        base = f"http://{env['HOST']}:{env['PORT']}"
        print(f"Play:     {base}/ (the web client: register and play in a browser)\n"
              f"API:      {base}/api/\n"
              f"API docs: {base}/api/docs/ (Swagger UI), {base}/api/redoc/ (Redoc)\n"
              f"Admin:    {base}/admin/ (create an account: scripts/manage createsuperuser;"
              f" dashboard: {base}/admin/ops/dashboard/)\n"
              f"Health:   {base}/healthz  Ready: {base}/readyz\n"
              f"Data:     {var}\n"
              "Press Ctrl-C to stop.", flush=True)  # fmt: skip
        while True:
            for name, child in children.items():
                if child.poll() is not None:
                    print(f"run: {name} exited with status {child.returncode}; stopping the rest")
                    return 1
            time.sleep(0.2)
    except Stop:
        print("Stopping...", flush=True)
        return 0
    finally:
        # a second Ctrl-C must not cut the shutdown short
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        _stop(children)


def main(argv: list[str] | None = None) -> int:
    # no options: settings come from the environment (the README's table); --help says so
    argparse.ArgumentParser(
        description=__doc__.replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Settings are environment variables (the README's configuration table), "
        "e.g. PORT=8001 or DATABASE_URL=postgres://... make run.",
    ).parse_args(argv)
    var = Path(os.environ.get("GOLF_VAR_DIR") or ROOT / "var").resolve()
    env = {
        **os.environ,
        "DEBUG": os.environ.get("DEBUG", "1"),
        "GOLF_VAR_DIR": str(var),
        "HOST": os.environ.get("HOST", "127.0.0.1"),
        "PORT": os.environ.get("PORT", "8000"),
        "PYTHONUNBUFFERED": "1",
    }
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)
    run_env = var / "run.env"
    try:
        with (
            folder_lock(var, "`make run`"),
            servers(var, database_url=env.get("DATABASE_URL", ""),
                    redis_url=env.get("CELERY_BROKER_URL", "")) as (database_url, redis_url),
        ):  # fmt: skip
            if not env.get("CELERY_BROKER_URL"):  # the embedded Redis: broker and cache
                env["CELERY_BROKER_URL"] = f"{redis_url}/0"
                env.setdefault("CACHE_URL", f"{redis_url}/1")
            env["DATABASE_URL"] = database_url
            env.setdefault("EVENT_CHAIN_KEYS", _chain_key(var))
            _write_env(run_env, env)
            try:
                return serve(var, env)
            finally:
                run_env.unlink(missing_ok=True)
    except Stop:  # Ctrl-C while the servers were starting
        print("Stopped.")
        return 0
    except (EmbeddedError, subprocess.CalledProcessError) as exc:
        print(f"run: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
