function isValidUrl(s) {
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
}
const candidates = ['https://example.com', 'example.com', 'mailto:a@b.c', 'http://', 'ftp://files.example.org/x', 'javascript:void(0)'];
candidates.map(c => `${c} -> ${isValidUrl(c)}`);
