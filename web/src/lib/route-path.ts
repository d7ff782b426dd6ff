/** The route as the router reads it: the hash's path without its query, `/` when empty. */
export const routePath = (hash: string = location.hash): string => hash.replace(/^#/, '').split('?')[0] || '/';
