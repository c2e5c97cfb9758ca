"""npm packages for the sandbox: added once from a registry, pinned by a lock, verified, and read offline.

``sandbox-server packages add NAME[@RANGE]`` resolves the names and their dependencies against npm's registry
(:mod:`.config` says which one), downloads each tarball, checks it against the registry's ``dist.integrity`` before
anything is unpacked (:mod:`.integrity`), unpacks it with bounds and without links or paths that leave the package
(:mod:`.tarball`), indexes its files (:mod:`.index`: a digest per file, each JavaScript file's format and the
modules it names, ES modules turned into functions the isolate can run, :mod:`.esm`) and records everything in the
lock (:mod:`.lock`). No install script ever runs. :mod:`.store` is the folder and its commands.

At run time nothing touches the network: the worker reads the files a call's code needs from the folder, each one
checked against the digest its lock recorded (:mod:`.loading`), and resolves module names as Node 20 does
(:mod:`.nodepath`), so that the loader in the isolate (``js_runtime/packages.js``) only looks names up.

Layout of the folder (``SANDBOX_PACKAGES_DIR``, by default a per-user data folder)::

    lock.json                         what is added: the names asked for, every package's exact version and
                                      integrity, its dependencies, and the digest of its index
    store/NAME@VERSION/files/...      the package's files, as its tarball had them (read-only)
    store/NAME@VERSION/derived/...    ES module files as the isolate runs them
    store/NAME@VERSION/index.json     digests of both, formats and the module names each file uses
"""

from __future__ import annotations

__all__: list[str] = []
