"""``python -m sandbox_server`` does what the ``sandbox-server`` command does."""

from sandbox_server.cli import main

if __name__ == "__main__":
    main()
