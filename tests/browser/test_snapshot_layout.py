"""snapshot.js's stored layout under Node: what encodePages writes, readSnapshot decodes back,
whatever chunks the stream brings, and a damaged file is refused with its reason."""

from __future__ import annotations

import json
import subprocess

import pytest

from repo_paths import WEB

SNAPSHOT_JS = WEB / "snapshot.js"

# A heap of 10 pages and a partial one: zero pages, random pages, a page zero but for its last
# byte. It is encoded, cut into chunks of the given sizes (cycled) and decoded again; then each
# damaged variant is decoded and its error reported.
SCRIPT = """
import { encodePages, readSnapshot } from %(module)s;
const PAGE = 4096;
const heap = new Uint8Array(10 * PAGE + 100);
let seed = 7;
for (const page of [1, 2, 5, 9, 10]) {
  for (let i = page * PAGE; i < Math.min((page + 1) * PAGE, heap.length); i += 1) {
    seed = (seed * 1103515245 + 12345) %% 2147483648;
    heap[i] = seed & 255;
  }
}
heap[7 * PAGE + PAGE - 1] = 1;
const encoded = new Uint8Array(await encodePages(heap).arrayBuffer());
const chunked = (bytes, sizes) => new ReadableStream({
  start(controller) {
    for (let offset = 0, n = 0; offset < bytes.length; n += 1) {
      const size = sizes[n %% sizes.length];
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    }
    controller.close();
  },
});
const decode = (bytes, sizes) => readSnapshot(new Response(chunked(bytes, sizes)));
const result = { stored: encoded.length, same: [], errors: {} };
for (const sizes of [[encoded.length], [1], [3, 4096, 7], [8, 1, 4095, 4097]]) {
  const back = await decode(encoded, sizes);
  result.same.push(back.length === heap.length && back.every((b, i) => b === heap[i]));
}
const damaged = {
  truncated: encoded.slice(0, encoded.length - 1),
  longer: new Uint8Array([...encoded, 0]),
  magic: new Uint8Array([0, ...encoded.slice(1)]),
  header: encoded.slice(0, 5),
};
for (const [name, bytes] of Object.entries(damaged)) {
  result.errors[name] = await decode(bytes, [3, 1000]).then(() => null, (error) => error.message);
}
console.log(JSON.stringify(result));
"""


@pytest.fixture(scope="module")
def layout(node: str) -> dict[str, object]:
    script = SCRIPT % {"module": json.dumps(SNAPSHOT_JS.as_uri())}
    done = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return dict(json.loads(done.stdout))


def test_only_the_non_zero_pages_are_stored(layout):
    # header 8 bytes, bitmap of 11 pages (2 bytes), 6 non-zero pages (the last one partial)
    assert layout["stored"] == 8 + 2 + 5 * 4096 + 100


def test_any_chunking_decodes_to_the_same_heap(layout):
    assert layout["same"] == [True, True, True, True]


def test_a_damaged_file_is_refused_with_its_reason(layout):
    assert layout["errors"] == {
        "truncated": "truncated snapshot",
        "longer": "snapshot of the wrong length",
        "magic": "not a snapshot",
        "header": "truncated snapshot",
    }
