// The server that `npm start` runs is the production one: React's server renderer, and any
// other library that reads NODE_ENV when it is first loaded, must take its production build
// (the development build of react-dom/server renders several times slower, with checks meant
// for a developer's console, and holds twice the code). Imported first by index.ts, so that it
// runs before any module that reads it is loaded. A NODE_ENV already set is kept.
// Not configuration the server reads (config.ts) but what its libraries read: set, not read.
// eslint-disable-next-line no-restricted-properties
process.env.NODE_ENV ??= 'production';
