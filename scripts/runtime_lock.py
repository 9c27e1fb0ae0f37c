"""Write requirements.runtime.lock: the part of requirements.lock the service runs on.

requirements.lock pins everything `make test` installs (the tools and test servers
among them); the image (Dockerfile) installs only what the service imports at run time:
pyproject.toml's ``dependencies``, the packages they require in turn (their extras and
environment markers weighed for Linux and Python 3.11), with the same versions and hashes
as in requirements.lock, so the two never disagree. Run by `make lock`; a test checks the
file is what this script writes.

    python scripts/runtime_lock.py [--check]
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
FULL = ROOT / "requirements.lock"
RUNTIME = ROOT / "requirements.runtime.lock"
HEADER = "# The service's run-time part of requirements.lock (scripts/runtime_lock.py writes it).\n"
# the image's platform: python:3.11-slim on Linux
ENVIRONMENT = {
    **default_environment(),
    "python_version": "3.11",
    "python_full_version": "3.11.0",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
}


def needed(requirement: Requirement, extras: frozenset[str]) -> bool:
    """Whether ``requirement`` applies on the image's platform, with ``extras`` asked for."""
    if requirement.marker is None:
        return True
    return any(
        requirement.marker.evaluate({**ENVIRONMENT, "extra": extra}) for extra in extras or {""}
    )


def closure(roots: list[str]) -> set[str]:
    """The canonical names of ``roots`` and of everything they require, as installed."""
    found: set[str] = set()
    todo = [Requirement(root) for root in roots]
    while todo:
        requirement = todo.pop()
        if not needed(requirement, frozenset()):
            continue
        name = canonicalize_name(requirement.name)
        extras = frozenset(requirement.extras)
        key = f"{name}[{','.join(sorted(extras))}]"
        if key in found:
            continue
        found.add(key)
        for line in metadata.requires(name) or []:
            inner = Requirement(line)
            if needed(inner, extras):
                inner.marker = None
                todo.append(inner)
    return {key.split("[")[0] for key in found}


def blocks(text: str) -> dict[str, str]:
    """requirements.lock's entries (a pin, its hashes and its "via" comments), by name."""
    entries: dict[str, str] = {}
    for block in re.split(r"\n(?=\S)", text.strip()):
        name = canonicalize_name(block.split("==", 1)[0])
        entries[name] = block
    return entries


def runtime_lock() -> str:
    roots = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    entries = blocks(FULL.read_text())
    names = closure(roots)
    missing = sorted(names - entries.keys())
    if missing:
        raise SystemExit(f"runtime_lock: not in requirements.lock: {', '.join(missing)}")
    return HEADER + "\n".join(entries[name] for name in sorted(names)) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the file is not current")
    args = parser.parse_args()
    text = runtime_lock()
    if args.check:
        current = RUNTIME.read_text() if RUNTIME.exists() else ""
        if current != text:
            print(f"{RUNTIME.name} is not current: run `make lock`", file=sys.stderr)
            return 1
        return 0
    RUNTIME.write_text(text)
    print(f"wrote {RUNTIME.name}: {text.count('==')} packages of {FULL.read_text().count('==')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
