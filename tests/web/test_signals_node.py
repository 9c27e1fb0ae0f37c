"""The web client's requests where the browser has no ``AbortSignal.any`` (Chrome before
116, Firefox before 124, Safari before 17.4): ``web/api.js`` run by Node without it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
globalThis.localStorage = { getItem: () => "a-token", setItem() {}, removeItem() {} };
globalThis.window = globalThis;
globalThis.addEventListener = () => {};
globalThis.fetch = async (_url, init) => {
  if (init.signal.aborted) throw new DOMException("aborted", "AbortError");
  const headers = { "content-type": "application/json" };
  return new Response(JSON.stringify({ version: 1 }), { status: 200, headers });
};
delete AbortSignal.any;
const api = await import("./web/api.js");
const out = {};
out.read = await api.stateAt("m", 1, new AbortController().signal);
const [a, b] = [new AbortController(), new AbortController()];
const either = api.anySignal([a.signal, b.signal]);
out.before = either.aborted;
b.abort("gone");
out.after = [either.aborted, either.reason];
const done = new AbortController();
done.abort("earlier");
out.already = [api.anySignal([done.signal, a.signal]).aborted];
const aborted = new AbortController();
aborted.abort();
try {
  await api.stateAt("m", 1, aborted.signal);
  out.abort = "answered";
} catch (error) {
  out.abort = error.name;
}
process.stdout.write(JSON.stringify(out));
"""


def test_requests_with_a_signal_work_without_abort_signal_any():
    """Every table's first read (with the table's signal) threw 'AbortSignal.any is not a
    function': no match could be opened on such a browser."""
    done = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=60,
    )
    out = json.loads(done.stdout)
    assert out["read"] == {"version": 1}
    assert out["before"] is False and out["after"] == [True, "gone"]
    assert out["already"] == [True]
    assert out["abort"] == "AbortError"  # (the caller's abort stays one)
