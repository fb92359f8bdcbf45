import { openApiDocument } from './openapi-document.ts';

// `npm run lint:openapi` lints what this prints: the served OpenAPI document, as JSON, with an
// example origin in `servers` (the server fills in its own).

process.stdout.write(`${JSON.stringify(openApiDocument('https://explorer.example'), null, 2)}\n`);
