import { readEdgeUrl } from '@chat-site/contract';
import { getJson, logFailure } from '../../../lib/http';

/** The alternate Android URL from the operator's edge service, or undefined. */
export async function getEdgeUrl(edgeServiceUrl: string): Promise<string | undefined> {
  try {
    return readEdgeUrl(await getJson(edgeServiceUrl));
  } catch (error) {
    logFailure('edge service', error);
    return undefined;
  }
}
