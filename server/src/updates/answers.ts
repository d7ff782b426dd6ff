/**
 * The three wire forms of an update check (docs/releases.md#update-checks), made from one
 * Offer: the chat apps' own check (TangSengDaoDao's appversion), the Tauri updater's dynamic
 * server answer, and electron-updater's latest.yml.
 */
import type { OperatingSystem } from '@chat-site/contract';
import { toWireTime } from '../lib/time.js';
import type { Offer, OfferPayload } from './current.js';
import { compareParsed, isOlder, parseVersion } from './version.js';

export interface AppVersionAnswer {
  app_version?: string;
  os?: string;
  is_force?: number;
  update_desc?: string;
  download_url?: string;
  created_at?: string;
}

/** Whether a client at `client` is offered `offer`: when it is older, or unreadable; never when
 * the offer's own version cannot be read (then nothing can be said to be newer). */
export function offers(offer: Offer, client: string): boolean {
  const latest = parseVersion(offer.version);
  return latest !== undefined && isOlder(client, latest);
}

/** Forced when the release says so, or when the client is below the platform's lowest supported
 * version (an unreadable client version is not known to be below it). */
function forced(offer: Offer, client: string): boolean {
  if (offer.force) return true;
  const minimum = offer.minVersion === null ? undefined : parseVersion(offer.minVersion);
  const parsed = parseVersion(client);
  return minimum !== undefined && parsed !== undefined && compareParsed(parsed, minimum) < 0;
}

/** `{}` when the client is current (or nothing is offered), else the release to update to. */
export function appVersionAnswer(
  offer: Offer | undefined,
  os: OperatingSystem,
  client: string,
  timeZone: string,
): AppVersionAnswer {
  if (offer === undefined || !offers(offer, client)) return {};
  return {
    app_version: offer.version,
    os,
    is_force: forced(offer, client) ? 1 : 0,
    update_desc: offer.notes ?? '',
    download_url: offer.url,
    created_at: toWireTime(offer.releasedAt, timeZone),
  };
}

export interface TauriAnswer {
  url: string;
  version: string;
  notes: string;
  pub_date: string;
  signature: string;
}

/** Undefined (answered 204) when the client is current, nothing is offered, or the release's
 * Tauri payloads are all for other architectures than the client's. */
export function tauriAnswer(offer: Offer | undefined, client: string, arch?: string): TauriAnswer | undefined {
  if (offer === undefined || !offers(offer, client)) return undefined;
  const tauri = offer.payloads.filter((payload) => payload.role === 'tauri');
  const payload = tauri.length === 0 ? undefined : tauriPayloadFor(tauri, arch);
  if (tauri.length > 0 && payload === undefined) return undefined;
  return {
    url: payload?.url ?? offer.url,
    version: offer.version,
    notes: offer.notes ?? '',
    // RFC 3339, to the second.
    pub_date: new Date(offer.releasedAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    signature: (payload === undefined ? offer.signature : payload.signature) ?? '',
  };
}

/** The Tauri payload for the client's architecture (Tauri's {{arch}}: x86_64, aarch64, i686,
 * armv7): one built for it, else one for every architecture. Without an architecture asked, the
 * one for every architecture, or the only payload there is (docs/releases.md#update-payloads). */
function tauriPayloadFor(payloads: OfferPayload[], arch: string | undefined): OfferPayload | undefined {
  const universal = payloads.find((payload) => payload.arch === null);
  if (arch === undefined || arch === '') return universal ?? (payloads.length === 1 ? payloads[0] : undefined);
  return payloads.find((payload) => payload.arch === arch) ?? universal;
}

/** One file of electron-updater's `files`. */
export interface YmlFile {
  url: string;
  sha512: string;
  size: number;
}

/**
 * electron-updater's update info (its UpdateInfo: version, files, path, sha512, releaseDate,
 * releaseNotes, and stagingPercentage during a staged roll-out) as YAML. Every value is written as a JSON string, which YAML reads as a
 * double-quoted scalar: no value can break the document, whatever the operator typed.
 */
export function latestYml(offer: Offer, files: [YmlFile, ...YmlFile[]], stagingPercentage?: number): string {
  const q = yamlString;
  const [first] = files;
  return [
    `version: ${q(offer.version)}`,
    'files:',
    ...files.flatMap((file) => [`  - url: ${q(file.url)}`, `    sha512: ${q(file.sha512)}`, `    size: ${file.size}`]),
    `path: ${q(first.url)}`,
    `sha512: ${q(first.sha512)}`,
    `releaseDate: ${q(new Date(offer.releasedAt).toISOString())}`,
    ...(offer.notes === null ? [] : [`releaseNotes: ${q(offer.notes)}`]),
    // Read by electron-updater's isStagingMatch: installs whose own bucket is below it update.
    ...(stagingPercentage === undefined ? [] : [`stagingPercentage: ${stagingPercentage}`]),
    '',
  ].join('\n');
}

/** A double-quoted YAML scalar: JSON's escapes, plus those of the characters YAML will not take
 * bare (DEL, C1 controls, line and paragraph separators); lone surrogates become U+FFFD. */
export function yamlString(text: string): string {
  const wellFormed = text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  return JSON.stringify(wellFormed).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
