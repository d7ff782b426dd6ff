/**
 * Imported first by the server's and the command line's entries: on a Node.js older than the
 * project supports, say so and stop, before the SQLite driver's binary (built for Node-API on 22
 * and later) can crash the process. See docs/deploy.md#nodejs.
 */
const oldest = 22;
const major = Number(process.versions.node.split('.')[0]);
if (major < oldest) {
  process.stderr.write(
    `This server needs Node.js ${oldest} or newer (24 recommended); this is Node.js ${process.versions.node}.\n` +
      'Install a supported Node.js, or run it through npm (npm start, npm run admin), which uses the one the project pins.\n',
  );
  process.exit(2);
}
