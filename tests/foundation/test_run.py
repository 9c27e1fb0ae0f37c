"""`make run` starts the whole service on embedded servers, and the walkthrough works on it.

One slow test walks through what a new user does: start the service on a fresh data
folder, read the docs, run `scripts/walkthrough.sh` (a whole hole against two COMs on
the worker), verify the match, stop with Ctrl-C (every process ends, the embedded
PostgreSQL and Redis included), start again and find the match still there. On the way a
crashed worker and a crashed Redis are started again.
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import re
import signal
import socket
import subprocess
import sys
import termios
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.foundation.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]
SERVICE_SETTINGS = {
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CACHE_URL",
    "REDIS_URL",
    "DEBUG",
    "SECRET_KEY",
    "EVENT_CHAIN_KEYS",
}  # (a fresh `make run` has none of them: it makes its own)


def fetch(url: str, token: str | None = None) -> tuple[int, str]:
    headers = {"Authorization": f"Token {token}"} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


class Service:
    """`scripts/run.py` (what `make run` runs) in a process group of its own."""

    def __init__(
        self,
        var: Path,
        port: int | None = None,
        terminal: tuple[int, int] | None = None,
        stdout_to_log: bool = False,
    ) -> None:
        """With ``terminal`` (a pseudo-terminal's two ends), from a terminal: it is the
        run's controlling one, and what is written there goes to the log (as does stdout,
        with ``stdout_to_log``: `make run > file`)."""
        self.var = var
        self.groups: set[int] = set()  # the process groups of what it started, as seen
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in os.environ.items() if k not in SERVICE_SETTINGS}
        self.env.update(PORT=str(self.port), GOLF_VAR_DIR=str(var))
        self.env.pop("DJANGO_SETTINGS_MODULE", None)
        self.log = (var.parent / f"run-{self.port}.log").open("w+")
        if terminal is None:
            self.proc = subprocess.Popen(
                [sys.executable, "scripts/run.py"],
                cwd=ROOT,
                env=self.env,
                stdout=self.log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            return
        main, other = terminal
        # a session of its own, the terminal its controlling one (as a shell's job's is)
        with open(os.ttyname(other), "rb+", buffering=0) as tty:
            self.proc = subprocess.Popen(
                ["setsid", "--ctty", sys.executable, "scripts/run.py"],
                cwd=ROOT,
                env=self.env,
                stdin=tty,
                stdout=self.log if stdout_to_log else tty,
                stderr=tty,
            )
        threading.Thread(target=self._copy, args=(main,), daemon=True).start()

    def _copy(self, terminal: int) -> None:
        while True:
            try:
                data = os.read(terminal, 65536)
            except OSError:  # (every process that had it open has gone)
                return
            if not data:
                return
            self.log.write(data.decode(errors="replace"))
            self.log.flush()

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def wait_ready(self, timeout: float = 90) -> float:
        started = time.monotonic()
        while True:
            assert self.proc.poll() is None, self.output()
            try:
                if fetch(self.base + "/readyz")[0] == 200:
                    return time.monotonic() - started
            except OSError:
                pass
            assert time.monotonic() - started < timeout, f"/readyz not 200 within {timeout} s"
            time.sleep(0.5)

    def interrupt(self) -> str:
        """Ctrl-C, as a terminal sends it: to the whole foreground process group."""
        os.killpg(self.proc.pid, signal.SIGINT)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            raise
        return self.output()

    def wait_for(self, text: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output():
            assert self.proc.poll() is None, self.output()[-3000:]
            assert time.monotonic() < deadline, f"no {text!r} within {timeout} s"
            time.sleep(0.2)

    def child(self, marker: str) -> int:
        """The pid of the process `make run` started whose command line holds ``marker``."""
        for child in self.children():
            if marker in Path(f"/proc/{child}/cmdline").read_text().replace("\0", " "):
                return child
        raise AssertionError(f"no process of make run runs {marker!r}")

    def children(self) -> list[int]:
        pid = self.proc.pid
        children = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        self.groups.update(children)  # each leads a process group of its own
        return children

    def embedded_status(self) -> str:
        return subprocess.run(
            [sys.executable, "scripts/embedded.py", "status", "--dir", str(self.var)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout


def group_gone(pgid: int, timeout: float = 20) -> bool:
    """Whether process group ``pgid`` has no process left within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)


def assert_all_stopped(service: Service) -> None:
    # make run's own group, and those of the processes it started (one each, with the
    # processes they start: the worker's pool, the API's uvicorn workers)
    for group in (service.proc.pid, *service.groups):
        assert group_gone(group), f"processes of make run outlived Ctrl-C (group {group})"
    status = service.embedded_status()
    assert status == "postgres: stopped\nredis: stopped\n", status + service.output()[-3000:]
    assert not (service.var / "run.env").exists()


@pytest.mark.slow
def test_make_run_serves_the_walkthrough_on_embedded_servers_and_keeps_its_data(tmp_path):
    root_before = sorted(os.listdir(ROOT))
    var = tmp_path / "var"
    service = Service(var)
    try:
        service.wait_ready()
        assert len(service.children()) == 4  # the API, two workers, beat
        # its own secret key, kept in its data folder (the settings' fallback is in the
        # source, and the COMs' random choices are keyed by it), the same in every process
        secret_key = (var / "secret-key").read_text().strip()
        assert len(secret_key) >= 50 and (var / "secret-key").stat().st_mode & 0o077 == 0
        for child in service.children():
            environ = Path(f"/proc/{child}/environ").read_bytes().split(b"\0")
            assert f"SECRET_KEY={secret_key}".encode() in environ
        status, body = fetch(service.base + "/api/docs/")
        assert status == 200 and "swagger-ui" in body.lower()
        status, body = fetch(service.base + "/readyz")
        assert json.loads(body)["checks"] == {"database": "ok", "broker": "ok"}
        # real servers of our own, not the machine's
        assert "postgres: running on port" in service.embedded_status()
        assert "redis: running on port" in service.embedded_status()

        walk = subprocess.run(
            ["bash", "scripts/walkthrough.sh", service.base],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert walk.returncode == 0, walk.stdout + walk.stderr + service.output()[-3000:]
        lines = walk.stdout.splitlines()
        match_id = lines[0].removeprefix("match ")
        assert any(" hint: " in line for line in lines), walk.stdout
        assert any(line.startswith("totals ") for line in lines), walk.stdout
        assert "audit: " in walk.stdout and "chain faults: []" in walk.stdout
        hearts_id = next(line for line in lines if line.startswith("hearts match "))
        hearts_id = hearts_id.split()[2].rstrip(":")
        assert any(line.startswith("points taken ") for line in lines), walk.stdout
        ninety_id = next(line for line in lines if line.startswith("ninety-nine match "))
        ninety_id = ninety_id.split()[2].rstrip(":")
        assert any(line.startswith("contracts ") for line in lines), walk.stdout

        verify = subprocess.run(
            ["scripts/manage", "verify_match", "--all"],
            cwd=ROOT,
            env={**service.env},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert verify.returncode == 0, verify.stdout + verify.stderr
        for played in (match_id, hearts_id, ninety_id):
            assert f"{played}: OK" in verify.stdout, verify.stdout
        assert "0 with faults" in verify.stdout

        # a crash is not the end of the service: the API, the worker and Redis are
        # started again, and what the API started (its uvicorn workers, which would go on
        # holding the port) goes with it
        api = service.child("config.serve")
        os.kill(api, signal.SIGKILL)
        os.kill(service.child("--queues=interactive"), signal.SIGKILL)
        os.kill(int((var / "redis" / "redis.pid").read_text()), signal.SIGKILL)
        service.wait_for("run: api exited with status -9 after ")
        service.wait_for("run: worker exited with status -9 after ")
        service.wait_for("run: Redis started again on port ")
        assert group_gone(api), "the killed API's uvicorn workers outlived it"
        assert api not in service.children() and len(service.children()) == 4
        settings = dict(line.split("=", 1) for line in
                        (var / "run.env").read_text().splitlines() if "=" in line)  # fmt: skip
        deadline = time.monotonic() + 90
        while True:  # a ping sent before the new worker listens is not answered: again
            pinged = subprocess.run(
                [str(Path(sys.executable).parent / "celery"), "-A", "config", "inspect", "ping",
                 "--destination", f"interactive@{socket.gethostname()}", "--timeout", "3"],
                cwd=ROOT, env={**service.env, **settings}, capture_output=True, text=True,
                timeout=60,
            )  # fmt: skip
            if pinged.returncode == 0 or time.monotonic() > deadline:
                break
        assert "pong" in pinged.stdout, pinged.stdout + pinged.stderr + service.output()[-3000:]
        service.wait_ready(timeout=30)  # the new API
    finally:
        output = service.interrupt()
    assert "Stopping" in output
    assert "stopping the rest" not in output
    assert_all_stopped(service)

    # a second start reuses the data: the finished match is still there
    service = Service(var)
    try:
        service.wait_ready()
        assert len(service.children()) == 4
        assert (var / "secret-key").read_text().strip() == secret_key  # kept
        verify = subprocess.run(
            ["scripts/manage", "verify_match", match_id],
            cwd=ROOT,
            env={**service.env},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert f"{match_id}: OK" in verify.stdout, verify.stdout + verify.stderr
    finally:
        service.interrupt()
    assert_all_stopped(service)
    # everything it wrote is under its data folder: nothing new in the repository's root
    assert sorted(os.listdir(ROOT)) == root_before


@pytest.mark.slow
@pytest.mark.parametrize("stdout_to_log", [False, True], ids=["terminal", "stdout-to-a-file"])
def test_run_serves_from_a_terminal_that_stops_background_writers(tmp_path, stdout_to_log):
    """Every process `make run` starts is in a process group of its own, the terminal's
    background: with `stty tostop` the terminal stopped each at its first line (SIGTTOU),
    and uvicorn, which takes SIGTTOU for "one worker fewer", was left with none, spinning.
    The run lets them write while it runs, and gives the terminal its setting back; also
    with stdout sent to a file (they log on stderr, still the terminal)."""
    main, other = pty.openpty()
    attributes = termios.tcgetattr(other)
    attributes[3] |= termios.TOSTOP
    termios.tcsetattr(other, termios.TCSANOW, attributes)
    service = Service(tmp_path / "var", terminal=(main, other), stdout_to_log=stdout_to_log)
    try:
        service.wait_ready(timeout=120)
        assert not termios.tcgetattr(other)[3] & termios.TOSTOP  # while it runs
        service.wait_for("interactive@")  # (the workers wrote their banners: not stopped)
        service.children()
        service.interrupt()
        assert_all_stopped(service)
        assert termios.tcgetattr(other)[3] & termios.TOSTOP  # given back
    finally:
        if service.proc.poll() is None:  # (a failure above: nothing is left running)
            for group in service.groups:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(group, signal.SIGCONT)
            service.interrupt()
        os.close(other)
        os.close(main)


@pytest.mark.slow
def test_run_stops_everything_when_a_process_fails_as_it_starts(tmp_path):
    """A process that exits in the run's first seconds (here the API: its port is taken) is
    a setting to fix, not a crash to start again: everything stops, with status 1."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        service = Service(tmp_path / "var", port=taken.getsockname()[1])
        assert service.proc.wait(timeout=120) == 1, service.output()
    output = service.output()
    assert "address already in use" in output.lower()
    assert re.search(r"^run: api exited with status [1-9]\d* after ", output, re.MULTILINE)
    assert ", as the service started; stopping the rest" in output
    assert "starting it again" not in output
    assert_all_stopped(service)


@pytest.mark.parametrize(("argument", "status", "says"), [
    ("--help", 0, "Ctrl-C (or SIGTERM, or a closed terminal) stops all of them"),
    ("--port=8001", 2, "unrecognized arguments: --port=8001"),
])  # fmt: skip
def test_run_answers_an_argument_without_starting_anything(tmp_path, argument, status, says):
    """`scripts/run.py --help` explains itself; an option it does not take is refused.
    Neither starts a server, migrates, or makes the data folder."""
    var = tmp_path / "var"
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_SETTINGS}
    done = subprocess.run(
        [sys.executable, "scripts/run.py", argument],
        cwd=ROOT,
        env={**env, "GOLF_VAR_DIR": str(var)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == status, done.stderr
    assert says in (done.stdout + done.stderr).replace("\n", " ")
    assert not var.exists()


def test_walkthrough_explains_itself_and_refuses_an_option():
    """`scripts/walkthrough.sh --help` prints what it does instead of sending "--help" to
    curl as the service's address."""
    helped = subprocess.run(["bash", "scripts/walkthrough.sh", "--help"], cwd=ROOT,
                            capture_output=True, text=True, timeout=30)  # fmt: skip
    assert helped.returncode == 0, helped.stderr
    assert "scripts/walkthrough.sh [http://127.0.0.1:8000]" in helped.stdout
    refused = subprocess.run(["bash", "scripts/walkthrough.sh", "--verbose"], cwd=ROOT,
                             capture_output=True, text=True, timeout=30)  # fmt: skip
    assert refused.returncode == 2
    assert "unknown option --verbose" in refused.stderr
