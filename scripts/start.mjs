// `npm start`: build what is not built yet, then run the server in this same process so that
// SIGTERM reaches it directly and it can stop gracefully.
import { ensureBuilt } from './ensure-built.mjs';

ensureBuilt();
await import('../server/dist/server.js');
