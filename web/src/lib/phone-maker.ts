/**
 * The Android store of the visitor's phone maker, from the model the user agent names, so the
 * download screen can list it first (docs/site.md#the-android-stores). Chinese phones ship
 * their maker's store and open its pages without the warning a downloaded APK gets.
 */
import { androidStores, type AndroidStore } from '@chat-site/contract';

// HONOR before Huawei: older HONOR phones still name Huawei's browser. Models as phones send
// them: Xiaomi "23049RAD8C", "M2012K11AC"; OPPO "PHB110", realme "RMX3700", OnePlus "CPH2449",
// "PJD110"; vivo "V2227A".
const makers: [AndroidStore, RegExp][] = [
  ['honor', /HONOR/i],
  ['appgallery', /HUAWEI|HarmonyOS|HMSCore/i],
  ['xiaomi', /Xiaomi|MIUI|Redmi|POCO|; (M\d{4}[A-Z]\d{1,2}[A-Z]{0,3}|2\d{3,7}[A-Z][A-Z0-9]{0,6})[;) ]/i],
  ['oppo', /OPPO|OnePlus|realme|HeyTap|; (P[A-Z]{2}\d{3}|P[A-Z]{3}\d{2}|CPH\d{4}|RMX\d{4})[;) ]/i],
  ['vivo', /vivo|iQOO|; V\d{4}[A-Z]{0,2}[;) ]/i],
];

export function phoneMakerStore(userAgent: string): AndroidStore | undefined {
  return makers.find(([, pattern]) => pattern.test(userAgent))?.[0];
}

/** The stores in their listing order, the visitor's maker's first. */
export function storesFor(userAgent: string): AndroidStore[] {
  const mine = phoneMakerStore(userAgent);
  return mine === undefined ? [...androidStores] : [mine, ...androidStores.filter((store) => store !== mine)];
}
