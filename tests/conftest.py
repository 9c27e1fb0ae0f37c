"""What every test shares: tool caches under ``var/``, never in the repository's root."""

from pathlib import Path

from hypothesis.configuration import set_hypothesis_home_dir

set_hypothesis_home_dir(Path(__file__).resolve().parent.parent / "var" / "cache" / "hypothesis")
