"""``python -m sandbox_server.sandbox.worker``: the entry point the pool starts."""

from sandbox_server.sandbox.worker.serve import run_and_exit

run_and_exit()
