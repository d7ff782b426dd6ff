import { siteConfig } from '../config/site-config';
import { readString, storageKeys } from './storage';

/** The base address for package URLs that are not absolute: a stored one, else the app URL. */
export function downloadBase(): string {
  return readString(storageKeys.downloadBase) || siteConfig.appUrl;
}
