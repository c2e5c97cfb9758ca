"""The data folder: the one place on the host the server may read (:mod:`.folder`, with the naming rules of
:mod:`.names` and the interruptible work of :mod:`.stop`), what ``execute_js``'s ``files`` argument makes of its
files (:mod:`.files`), and the folder's files as MCP resources (:mod:`.resources`)."""
