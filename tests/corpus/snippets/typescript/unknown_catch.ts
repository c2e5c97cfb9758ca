function safeParse<T = unknown>(json: string): { ok: true; value: T } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(json) as T };
  } catch (e: unknown) {
    const message = e instanceof Error ? e.name : String(e);
    return { ok: false, error: message };
  }
}

const inputs: string[] = ['{"a":1}', '[1,2', 'null'];
inputs.map(s => safeParse<{ a: number }>(s));
