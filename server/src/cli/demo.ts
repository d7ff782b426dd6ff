/** `demo load`: the sample content the server can load on first start, on demand. */
import type { Command } from 'commander';
import { loadDemoContent } from '../demo/load.js';
import { auditCli } from './audit.js';
import { withFiles } from './context.js';
import { print } from './output.js';

export function registerDemoCommands(group: Command): void {
  group.description('sample content for trying the site out');

  group
    .command('load')
    .description('load the demo announcements, packages and app config into an empty database')
    .action(async () => {
      const loaded = await withFiles(async (db, { storage }) => {
        const done = await loadDemoContent(db, storage);
        if (done) await auditCli(db, { action: 'demo.load', target: 'demo' });
        return done;
      });
      // The load runs once per database and never over the operator's own content.
      print(
        loaded
          ? 'loaded the demo content'
          : 'loaded nothing: the demo content was loaded before, or there is content already',
      );
    });
}
