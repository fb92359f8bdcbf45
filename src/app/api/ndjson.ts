// Answers that stream a line of JSON per event (the walk of a whole list, many lists' feeds).

/** The lines of an NDJSON body, as they complete; a last line without its newline too. */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
      let newline = rest.indexOf('\n');
      while (newline >= 0) {
        const line = rest.slice(0, newline).trim();
        rest = rest.slice(newline + 1);
        if (line !== '') yield line;
        newline = rest.indexOf('\n');
      }
    }
    rest += decoder.decode();
    if (rest.trim() !== '') yield rest.trim();
  } finally {
    reader.releaseLock();
  }
}
