// `npm start`: build what is not built yet, then run the server in this same process so that
// SIGTERM reaches it directly and it can stop gracefully. The check runs in a child process of
// its own: imported here, it (and esbuild, which it loads) would stay in the memory of the
// supervisor for its whole life (docs/performance.md#footprint). With NODE_ENV=production the
// install has no build tools (npm ci --omit=dev): the build is what `npm run build` left, run
// as it is (docs/deploy.md).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (process.env.NODE_ENV !== 'production') {
  try {
    execFileSync(process.execPath, [fileURLToPath(new URL('ensure-built.mjs', import.meta.url))], { stdio: 'inherit' });
  } catch {
    // The build's own errors are on standard error already.
    process.exit(1);
  }
}
await import('../server/dist/server.js');
