// The file name a response's Content-Disposition gives (RFC 6266): `filename*` (RFC 8187's
// UTF-8 form, the list's own title in any script) over the ASCII `filename`; null when it names
// none. For a file the app saves itself from a fetched answer (components/export-links.tsx).

export function downloadName(header: string | null): string | null {
  if (header === null) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // A malformed encoding: the plain name, if any.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
  if (!plain) return null;
  return (plain[1] ?? plain[2]!).replace(/\\(.)/g, '$1');
}
