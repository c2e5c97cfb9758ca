"""Prints how long the crypto module takes for common work, in one isolate (medians; no assertions).

`.venv/bin/python tests/js_runtime/node/measure_crypto_speed.py` (from the repository root) times, inside the
isolate, SHA-256, MD5 and the other digests of 1 MiB given as bytes and as a string, 1000 HMAC-SHA-256 of 1 KiB,
PBKDF2 with 100,000 iterations and 1 MiB of random bytes, each five times after a first run that lets V8 compile
the code.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from isolate_harness import Isolate

CODE = r"""
const c = require('crypto');
const mb = new Uint8Array(1 << 20);
for (let i = 0; i < mb.length; i++) mb[i] = (i * 7) & 255;
const ascii = 'abcdefghij'.repeat(104858).slice(0, 1 << 20);
const accented = 'h\u00e9llo w\u00f6rld \u2713 '.repeat(60000);
const kb = mb.subarray(0, 1024);
function time(label, work, runs = 5) {
  work();
  const took = [];
  for (let i = 0; i < runs; i++) {
    const start = Date.now();
    work();
    took.push(Date.now() - start);
  }
  took.sort((a, b) => a - b);
  return label.padEnd(44) + String(took[runs >> 1]).padStart(5) + ' ms';
}
[
  time('sha256, 1 MiB of bytes', () => c.createHash('sha256').update(mb).digest('hex')),
  time('md5, 1 MiB of bytes', () => c.createHash('md5').update(mb).digest('hex')),
  time('sha1, 1 MiB of bytes', () => c.createHash('sha1').update(mb).digest('hex')),
  time('sha512, 1 MiB of bytes', () => c.createHash('sha512').update(mb).digest('hex')),
  time('sha256, 1 MiB ASCII string', () => c.createHash('sha256').update(ascii).digest('hex')),
  time('md5, 1 MiB ASCII string', () => c.createHash('md5').update(ascii).digest('hex')),
  time('sha256, ' + accented.length + ' chars, non-ASCII', () => c.createHash('sha256').update(accented).digest('hex')),
  time('hmac-sha256 of 1 KiB, 1000 times', () => {
    for (let i = 0; i < 1000; i++) c.createHmac('sha256', 'secret').update(kb).digest('hex');
  }),
  time('pbkdf2Sync sha256, 100,000 iterations', () => c.pbkdf2Sync('pw', 'salt', 100000, 32, 'sha256'), 3),
  time('randomBytes, 1 MiB', () => c.randomBytes(1 << 20)),
].join('\n')
"""


def main() -> None:
    isolate = Isolate()
    try:
        outcome = isolate.run(CODE, output_cap=1 << 20, node=True)
    finally:
        isolate.close()
    if outcome["error"] is not None:
        sys.exit(f"the measurement failed: {outcome['error']}")
    sys.stdout.write(outcome["result"] + "\n")


if __name__ == "__main__":
    main()
