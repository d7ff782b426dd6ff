import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { promisify } from 'node:util';

/** A download resumed as people do it: the first `have` bytes already in `target`, then
 * `curl -C -` for the rest. Returns curl's status and the size it downloaded, "206 <n>". */
export async function resumeWithCurl(url: string, target: string, whole: Buffer, have: number): Promise<string> {
  writeFileSync(target, whole.subarray(0, have));
  const { stdout } = await promisify(execFile)('curl', [
    '--silent',
    '--show-error',
    '--fail',
    '-C',
    '-',
    '-o',
    target,
    '--write-out',
    '%{http_code} %{size_download}',
    url,
  ]);
  return stdout;
}
