import { readImport } from './follow-files.ts';

// Reads an import file off the main thread: the page stays responsive whatever the file.
self.onmessage = (event: MessageEvent<string>) => {
  self.postMessage(readImport(event.data));
};
