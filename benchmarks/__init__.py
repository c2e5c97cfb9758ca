"""Benchmarks of sandbox-server against the limits of its own stack and against the alternatives.

Run ``python -m benchmarks`` (add ``--quick`` for a short smoke run, ``--json PATH`` for raw numbers and
``--plot PATH`` for a chart). Every comparison is a ratio of two measurements taken in the same run on the same
machine; ``benchmarks/README.md`` explains each measurement.
"""
