/** The sum of a metric's samples in Prometheus's text format whose labels include `labels`. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const found = new Map([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found.get(key) === value)) total += Number(match[3]);
  }
  return total;
}

/** What `inject` needs of an app: the files tests' Fastify instance. */
interface Injects {
  inject(options: { url: string; headers: Record<string, string> }): PromiseLike<{ body: string }>;
}

/** The count of 200 answers to GET /v1/file/preview/:key in the app's /metrics. */
export async function hostedFileAnswers(app: Injects, metricsToken: string): Promise<number> {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } });
  const labels = { route: '/v1/file/preview/:key', method: 'GET', status: '200' };
  return sample(res.body, 'http_request_duration_seconds_count', labels);
}
