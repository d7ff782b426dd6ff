/**
 * Imported first by the server's and the command line's entries: on a Node.js older than the
 * project supports, say so and stop, before the SQLite driver's binary (built for Node-API on 22
 * and later) can crash the process, or a module loaded at first use (lib/lazy.ts: ES modules
 * through `require`, which Node.js 22 does from 22.12) fails on an operator's first write. See
 * docs/deploy.md#nodejs.
 */
const oldest = { major: 22, minor: 12 };

/** Whether a Node.js version (`process.versions.node`) is one the server runs on. */
export function supportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > oldest.major || (major === oldest.major && minor >= oldest.minor);
}

if (!supportedNode(process.versions.node)) {
  process.stderr.write(
    `This server needs Node.js ${oldest.major}.${oldest.minor} or newer (24 recommended); this is Node.js ${process.versions.node}.\n` +
      'Install a supported Node.js (docs/deploy.md#nodejs). In a checkout with its development packages, npm start and\n' +
      'npm run admin use the Node.js the project pins; an install without them (npm ci --omit=dev) has none, so there\n' +
      'only an installed Node.js will do.\n',
  );
  process.exit(2);
}
