// zod as the browser build imports it: the build points `zod` here (vite.config.ts), so this
// runs before any module that uses a schema. zod checks once whether it may compile parsers with
// `new Function`; under the page's CSP (no 'unsafe-eval') that probe is refused, and although
// zod catches the refusal, the browser reports it as a violation of the page's own policy (the
// console, Lighthouse's best practices, any CSP report endpoint). Jitless, zod never asks; the
// server, on Node, keeps its compiled parsers.

import { config } from 'zod/v4/core';

config({ jitless: true });

export * from 'zod/v4';
