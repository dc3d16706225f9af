interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/** The console's side of the management API: a session cookie and the {success, message, data} envelope. */
export class ManagementClient {
  private cookie = '';

  constructor(private readonly baseUrl: string) {}

  async login(username: string, password: string): Promise<void> {
    const response = await fetch(`${this.baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const envelope = (await response.json()) as Envelope<unknown>;
    if (!envelope.success) throw new Error(`login as ${username} failed: ${envelope.message}`);
    this.cookie = response.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ');
  }

  /** Answers `data`; a business failure or an HTTP error throws with the server's message. */
  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        cookie: this.cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let envelope: Envelope<T>;
    try {
      envelope = JSON.parse(text) as Envelope<T>;
    } catch {
      throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`);
    }
    if (!response.ok || !envelope.success) {
      throw new Error(`${method} ${path}: HTTP ${response.status} ${envelope.message}`);
    }
    return envelope.data;
  }
}
