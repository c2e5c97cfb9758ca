from tests.packages.support import npm_packages

__all__ = ["npm_packages"]
