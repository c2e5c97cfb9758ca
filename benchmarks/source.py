"""What source analysis (TypeScript blanking, last statement) costs each call, and what importing it costs.

Run as ``python -m benchmarks --only source``. The worker analyses every piece of code before V8 runs it, so the
numbers that matter are plain JavaScript's: ``1+1`` (the shortcut that skips the parser) and a typical 2 kB
script; a 2 kB TypeScript script shows the added cost of blanking, and the JavaScript grammar's check what
telling JavaScript from TypeScript costs where the code could be either.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

__all__ = ["JAVASCRIPT_2K", "TYPESCRIPT_2K", "measure_import_ms", "report"]

JAVASCRIPT_2K = """\
// Summarise orders per customer and month, as a model would write it.
const orders = [];
for (let i = 0; i < 200; i++) {
  orders.push({
    id: i,
    customer: ['acme', 'globex', 'initech', 'umbrella'][i % 4],
    amount: Math.round(((i * 37) % 1000) * 1.5) / 10,
    date: new Date(Date.UTC(2024, i % 12, (i % 28) + 1)),
  });
}

function monthKey(date) {
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

const byCustomer = new Map();
for (const order of orders) {
  const key = order.customer;
  if (!byCustomer.has(key)) byCustomer.set(key, { total: 0, count: 0, months: {} });
  const entry = byCustomer.get(key);
  entry.total += order.amount;
  entry.count += 1;
  const month = monthKey(order.date);
  entry.months[month] = (entry.months[month] ?? 0) + order.amount;
}

const summary = [...byCustomer.entries()]
  .map(([customer, { total, count, months }]) => ({
    customer,
    total: Math.round(total * 100) / 100,
    average: count > 0 ? Math.round((total / count) * 100) / 100 : 0,
    bestMonth: Object.entries(months).sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
  }))
  .sort((a, b) => b.total - a.total);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const amounts = orders.map((o) => o.amount);
const stats = {
  count: amounts.length,
  mean: amounts.reduce((a, b) => a + b, 0) / amounts.length,
  median: median(amounts),
  max: Math.max(...amounts),
  min: Math.min(...amounts),
};

const report = summary
  .map((s, i) => `${i + 1}. ${s.customer.padEnd(10)} ${s.total.toFixed(2).padStart(10)} (best ${s.bestMonth})`)
  .join('\\n');

console.log(report);
const top = summary[0];
const share = top.total / summary.reduce((a, s) => a + s.total, 0);
({ top: top.customer, share: Math.round(share * 1000) / 10, stats })
"""

TYPESCRIPT_2K = """\
// The same summary, written as TypeScript.
interface Order {
  id: number;
  customer: string;
  amount: number;
  date: Date;
}

interface Summary {
  customer: string;
  total: number;
  average: number;
  bestMonth: string | null;
}

type Entry = { total: number; count: number; months: Record<string, number> };

const orders: Order[] = [];
for (let i: number = 0; i < 200; i++) {
  orders.push({
    id: i,
    customer: ['acme', 'globex', 'initech', 'umbrella'][i % 4]!,
    amount: Math.round(((i * 37) % 1000) * 1.5) / 10,
    date: new Date(Date.UTC(2024, i % 12, (i % 28) + 1)),
  });
}

function monthKey(date: Date): string {
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

const byCustomer = new Map<string, Entry>();
for (const order of orders) {
  const key: string = order.customer;
  if (!byCustomer.has(key)) byCustomer.set(key, { total: 0, count: 0, months: {} });
  const entry = byCustomer.get(key)!;
  entry.total += order.amount;
  entry.count += 1;
  const month: string = monthKey(order.date);
  entry.months[month] = (entry.months[month] ?? 0) + order.amount;
}

const summary: Summary[] = [...byCustomer.entries()]
  .map(([customer, { total, count, months }]): Summary => ({
    customer,
    total: Math.round(total * 100) / 100,
    average: count > 0 ? Math.round((total / count) * 100) / 100 : 0,
    bestMonth: Object.entries(months).sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
  }))
  .sort((a: Summary, b: Summary) => b.total - a.total);

function median(values: readonly number[]): number {
  const sorted: number[] = [...values].sort((a, b) => a - b);
  const mid: number = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const amounts: number[] = orders.map((o: Order) => o.amount);
const stats = {
  count: amounts.length,
  mean: amounts.reduce((a, b) => a + b, 0) / amounts.length,
  median: median(amounts),
} as const;

const top = summary[0] as Summary;
({ top: top.customer, stats })
"""

IMPORT_PROBE = """\
import time
import sandbox_server.sandbox.worker
start = time.perf_counter()
import sandbox_server.sandbox.source
print((time.perf_counter() - start) * 1000)
"""


def _median_us(call: Callable[[], object], runs: int, clock: Callable[[], float] = time.perf_counter) -> float:
    samples = []
    for _ in range(runs):
        start = clock()
        call()
        samples.append(clock() - start)
    return statistics.median(samples) * 1e6


def measure_import_ms(runs: int = 11) -> float:
    """Median time to import the module in a fresh interpreter that has already imported the worker."""
    samples = [
        float(subprocess.run([sys.executable, "-c", IMPORT_PROBE], check=True, capture_output=True, text=True).stdout)
        for _ in range(runs)
    ]
    return statistics.median(samples)


def _engine_comparison(runs: int) -> list[str]:
    """The same scripts evaluated by V8 on a warm isolate, for scale: what the analysis adds to a call."""
    from benchmarks.engine import warm_eval_sync
    from sandbox_server.sandbox.source import analyze

    lines = []
    for label, code in (("JavaScript 2 kB", JAVASCRIPT_2K), ("TypeScript 2 kB, blanked", TYPESCRIPT_2K)):
        script = f"globalThis.console = {{ log() {{}} }}; (0, eval)({json.dumps(analyze(code).code)}); 0"
        wall_us = statistics.median(warm_eval_sync(script, runs, lambda: None)) * 1000
        lines.append(f"V8 eval of {label} on a warm isolate: median {wall_us:.1f} us wall over {runs} runs")
    return lines


def _javascript_check(runs: int) -> list[str]:
    """The parse with tree-sitter's JavaScript grammar that tells JavaScript from TypeScript, on its own.

    analyze makes it only where blanking was about to change code that could be JavaScript (``a < b > (c)``):
    the first line is what it adds to a plain script with such a look-alike, the second what it would cost on
    TypeScript, where the grammar recovers from error after error.
    """
    from sandbox_server.sandbox.source import _javascript_tree
    from sandbox_server.sandbox.source.model import _utf8

    lines = []
    for label, code in (("JavaScript 2 kB", JAVASCRIPT_2K), ("TypeScript 2 kB", TYPESCRIPT_2K)):
        data = _utf8(code)
        wall_us = _median_us(lambda data=data: _javascript_tree(data), runs)
        lines.append(f"JavaScript grammar's check of {label}: median {wall_us:.1f} us wall over {runs} runs")
    return lines


def report(quick: bool = False) -> str:
    """The study's lines: the analysis of ``1+1``, a 2 kB script and a 2 kB TypeScript script, the grammar's check,
    V8's own evaluation for scale, and the import time."""
    from sandbox_server.sandbox.source import analyze

    runs = 200 if quick else 2_000
    lines = []
    for label, code in (("1+1", "1+1"), ("JavaScript 2 kB", JAVASCRIPT_2K), ("TypeScript 2 kB", TYPESCRIPT_2K)):
        analysis = analyze(code)
        wall_us = _median_us(lambda code=code: analyze(code), runs)
        cpu_us = _median_us(lambda code=code: analyze(code), runs, time.thread_time)
        lines.append(
            f"analyze({label}, {len(code)} chars): median {wall_us:.1f} us wall, {cpu_us:.1f} us CPU"
            f" over {runs} runs (typescript={analysis.typescript})"
        )
    lines += _javascript_check(runs)
    lines += _engine_comparison(runs=30 if quick else 300)
    imports = 3 if quick else 11
    import_ms = measure_import_ms(imports)
    lines.append(
        f"import sandbox_server.sandbox.source after the worker's own imports: median {import_ms:.1f} ms"
        f" over {imports} fresh interpreters"
    )
    return "## Source analysis\n\n```\n" + "\n".join(lines) + "\n```\n"
