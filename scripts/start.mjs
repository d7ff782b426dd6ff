// `npm start`: build what is not built yet, then run the server in this same process so that
// SIGTERM reaches it directly and it can stop gracefully. With NODE_ENV=production the install
// has no build tools (npm ci --omit=dev): the build is what `npm run build` left, run as it is
// (docs/operations.md#deploy).
if (process.env.NODE_ENV !== 'production') {
  const { ensureBuilt } = await import('./ensure-built.mjs');
  ensureBuilt();
}
await import('../server/dist/server.js');
