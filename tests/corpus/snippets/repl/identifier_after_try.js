let parsed;
try {
  parsed = JSON.parse('{"ok": true, "n": 3}');
} catch (e) {
  parsed = null;
}
parsed;
