/**
 * A release's update payloads (docs/releases.md#update-payloads): the files installed apps'
 * updaters fetch beside the download people take. Each is checked at publish, before anything is
 * stored: a role its platform has, a file of the kind that role installs from, one per role and
 * architecture, and a Tauri payload's signature as the release's own is checked.
 */
import type { OperatingSystem } from '@chat-site/contract';
import type { PayloadArch, PayloadBody, PayloadRole } from '@chat-site/contract/admin';
import type { Kysely } from 'kysely';
import type { Database, ReleasePayloadRow } from '../db/schema.js';
import { findFile } from '../files/repository.js';
import { badRequest, type ErrorDetail } from '../lib/errors.js';
import { fieldPath } from '../lib/error-codes.js';
import type { MinisignKey } from '../lib/minisign.js';
import { downloadUrlProblem } from '../lib/schemas.js';
import type { FileStorage } from '../storage/index.js';
import { checkedSignature } from './signature-check.js';

type DbHandle = Kysely<Database>;

export interface NewPayload {
  role: PayloadRole;
  arch: PayloadArch | null;
  /** file/preview/<key> or an http(s) URL. */
  downloadUrl: string;
  fileKey: string | null;
  size: number | null;
  sha256: string | null;
  sha512: string | null;
  signature: string | null;
}

/** The names each role installs from, per platform: what electron-updater and the Tauri updater
 * (v1's zipped installers, v2's installers themselves) take. */
const payloadKinds: Record<'mac' | 'windows', Record<PayloadRole, string[]>> = {
  mac: { electron: ['.zip'], electron_blockmap: ['.blockmap'], tauri: ['.app.tar.gz'] },
  windows: { electron: ['.exe'], electron_blockmap: ['.blockmap'], tauri: ['.nsis.zip', '.msi.zip', '.exe', '.msi'] },
};

export interface PayloadContext {
  db: DbHandle;
  storage: FileStorage;
  tauriKey: MinisignKey | undefined;
  /** The release's version, which a signature's trusted comment must name when it names one. */
  version: string | undefined;
}

/** The payloads as they will be stored, or a 400 naming the first payload at fault. */
export async function checkedPayloads(
  os: OperatingSystem,
  given: PayloadBody[],
  context: PayloadContext,
): Promise<NewPayload[]> {
  const seen = new Set<string>();
  const checked: NewPayload[] = [];
  for (const [index, payload] of given.entries()) {
    const at = `payloads/${index}`;
    const kinds = os === 'mac' || os === 'windows' ? payloadKinds[os] : undefined;
    if (kinds === undefined) {
      throw refuse(`${at}/role`, 'payload_wrong_platform', `${os} releases have no update payloads`);
    }
    if ((payload.file_key === undefined) === (payload.url === undefined)) {
      throw refuse(
        `${at}/file_key`,
        'invalid_field',
        'give the payload as file_key (an uploaded file) or as url (an outside address), one of them',
      );
    }
    const arch = payload.arch ?? null;
    const slot = `${payload.role} ${arch ?? 'every architecture'}`;
    if (seen.has(slot)) {
      throw refuse(`${at}/role`, 'payload_repeated', `a ${slot} payload is given twice`, slot);
    }
    seen.add(slot);
    checked.push(await checkedPayload(payload, at, kinds[payload.role], context));
  }
  return checked;
}

async function checkedPayload(
  payload: PayloadBody,
  at: string,
  kinds: string[],
  { db, storage, tauriKey, version }: PayloadContext,
): Promise<NewPayload> {
  const source =
    payload.url === undefined ? await hostedSource(db, payload.file_key ?? '', at) : outsideSource(payload.url, at);
  const where = `${at}/${payload.url === undefined ? 'file_key' : 'url'}`;
  if (!kinds.some((kind) => source.name.toLowerCase().endsWith(kind))) {
    throw refuse(
      where,
      'payload_wrong_kind',
      `${source.name} is not a ${payload.role} payload of this platform (${kinds.join(', ')})`,
      source.name,
    );
  }
  const given = payload.signature?.trim() === '' ? undefined : payload.signature;
  if (given !== undefined && payload.role !== 'tauri') {
    throw refuse(`${at}/signature`, 'invalid_field', 'only a tauri payload carries a signature');
  }
  const open = source.key === undefined ? undefined : () => storage.open(source.key ?? '');
  const signature =
    given === undefined
      ? null
      : await checkedSignature(given, { name: source.name, version, open }, tauriKey, `${at}/signature`);
  return {
    role: payload.role,
    arch: payload.arch ?? null,
    downloadUrl: source.url,
    fileKey: source.key ?? null,
    size: source.size,
    sha256: source.sha256,
    sha512: source.sha512,
    signature,
  };
}

interface Source {
  name: string;
  url: string;
  key: string | undefined;
  size: number | null;
  sha256: string | null;
  sha512: string | null;
}

/** A hosted file with its own size and hashes, taken at intake. */
async function hostedSource(db: DbHandle, key: string, at: string): Promise<Source> {
  const file = await findFile(db, key);
  if (file === undefined) {
    throw refuse(`${at}/file_key`, 'invalid_field', `there is no hosted file ${key}; upload it first`);
  }
  return {
    name: file.name,
    url: `file/preview/${file.key}`,
    key: file.key,
    size: Number(file.size),
    sha256: file.sha256,
    sha512: file.sha512,
  };
}

/** An outside address, never fetched: its name is its last segment, and it has no hashes. */
function outsideSource(url: string, at: string): Source {
  const problem = downloadUrlProblem(url) ?? (/^https?:\/\//i.test(url) ? undefined : 'must be an http(s) URL');
  if (problem !== undefined) throw refuse(`${at}/url`, 'invalid_field', problem);
  return { name: lastSegment(new URL(url).pathname), url, key: undefined, size: null, sha256: null, sha512: null };
}

/** A 400 whose message starts with the field, as every refusal of the body does. */
function refuse(pointer: string, code: ErrorDetail['code'], message: string, found?: string) {
  return badRequest(`body/${pointer}: ${message}`, {
    code,
    field: fieldPath(pointer),
    ...(found !== undefined && { found }),
  });
}

/** An address's file name, percent-decoded when it decodes. */
export function lastSegment(path: string): string {
  const segment = path.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Stores the payloads of a release just written (within its transaction), in their order. */
export async function storePayloads(db: DbHandle, releaseId: number, payloads: NewPayload[]): Promise<void> {
  if (payloads.length === 0) return;
  await db
    .insertInto('release_payloads')
    .values(
      payloads.map((payload) => ({
        release_id: releaseId,
        role: payload.role,
        arch: payload.arch,
        download_url: payload.downloadUrl,
        file_key: payload.fileKey,
        size: payload.size,
        sha256: payload.sha256,
        sha512: payload.sha512,
        signature: payload.signature,
      })),
    )
    .execute();
}

/** The payloads of the given releases (every release without `ids`), each release's in order. */
export async function listPayloads(db: DbHandle, ids?: number[]): Promise<ReleasePayloadRow[]> {
  if (ids !== undefined && ids.length === 0) return [];
  let query = db.selectFrom('release_payloads').selectAll().orderBy('release_id').orderBy('id');
  if (ids !== undefined) query = query.where('release_id', 'in', ids);
  return query.execute();
}

/**
 * Where the blockmap of an electron payload is: electron-updater asks for it at the payload's
 * own address + `.blockmap`, and a hosted blockmap has a key of its own. Undefined when `key` is
 * no electron payload's or its release has no blockmap (for its architecture, or for all).
 */
export async function blockmapOf(db: DbHandle, key: string): Promise<string | undefined> {
  const electron = await db
    .selectFrom('release_payloads')
    .select(['release_id', 'arch'])
    .where('role', '=', 'electron')
    .where('file_key', '=', key)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (electron === undefined) return undefined;
  const blockmaps = await db
    .selectFrom('release_payloads')
    .select(['arch', 'download_url'])
    .where('release_id', '=', electron.release_id)
    .where('role', '=', 'electron_blockmap')
    .execute();
  const blockmap = blockmaps.find((row) => row.arch === electron.arch) ?? blockmaps.find((row) => row.arch === null);
  return blockmap?.download_url;
}
