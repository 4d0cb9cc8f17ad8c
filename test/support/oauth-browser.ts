/**
 * What a browser does in an OAuth flow, with fetch: follow redirects, keep cookies per
 * origin, stop when the client's redirect URI is reached. Tests use it where a person
 * would click through a sign-in.
 */
import { createHash, randomBytes } from 'node:crypto';

export class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  private cookieHeader(url: URL): string | undefined {
    const cookies = this.jar.get(url.host);
    return cookies && cookies.size ? [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }

  private keep(url: URL, res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const cookies = this.jar.get(url.host) ?? new Map<string, string>();
      const value = pair!.slice(at + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(pair!.slice(0, at));
      else cookies.set(pair!.slice(0, at), value);
      this.jar.set(url.host, cookies);
    }
  }

  /**
   * Opens `start` and follows redirects until one leads to `until` (returned), or a page
   * answers without redirecting (an error: its status and body are thrown).
   */
  async follow(start: string, until: string): Promise<URL> {
    let url = new URL(start);
    for (let hops = 0; hops < 20; hops++) {
      if (url.href.startsWith(until)) return url;
      const cookie = this.cookieHeader(url);
      const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      this.keep(url, res);
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        url = new URL(location, url);
        continue;
      }
      throw new FlowStopped(res.status, await res.text(), url.href);
    }
    throw new Error(`too many redirects from ${start}`);
  }

  /** Opens `start`, follows every redirect, and returns the page it ends on. */
  async visit(start: string): Promise<{ status: number; body: string; url: string }> {
    try {
      await this.follow(start, 'no-such-scheme:');
    } catch (err) {
      if (err instanceof FlowStopped) return { status: err.status, body: err.body, url: err.at };
      throw err;
    }
    throw new Error('unreachable');
  }
}

export class FlowStopped extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly at: string,
  ) {
    super(`the flow stopped at ${at} with ${status}: ${body}`);
  }

  get json(): { error?: string; error_description?: string } {
    return JSON.parse(this.body) as { error?: string; error_description?: string };
  }
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function postForm(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
