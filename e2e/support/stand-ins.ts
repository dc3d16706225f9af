/**
 * The third parties of the account journeys, in one process that playwright.config.ts starts beside the
 * gateway: an SMTP server that keeps what it receives, GitHub (its authorise page, plus the token exchange
 * and user API of the server tests' fake) and a WeChat server. Journeys drive it through /control/*.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { startFakeGitHub, type GitHubUser } from '../../apps/server/test/support/fake-github';
import { startFakeWeChat } from '../../apps/server/test/support/fake-wechat';
import { startSmtpCatcher } from '../../apps/server/test/support/smtp-catcher';
import {
  CONSOLE_URL,
  E2E_GITHUB_APP,
  E2E_SMTP_LOGIN,
  E2E_WECHAT_SERVER_TOKEN,
  STAND_IN_HOST,
  STAND_IN_PORT,
} from './stand-in-config';

const smtp = await startSmtpCatcher(E2E_SMTP_LOGIN);
const github = await startFakeGitHub(E2E_GITHUB_APP.clientId, E2E_GITHUB_APP.clientSecret);
const wechat = await startFakeWeChat(E2E_WECHAT_SERVER_TOKEN);
/** the person signed in at GitHub in the browser, chosen by the journey */
let gitHubSession: GitHubUser | null = null;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
  response.end(body);
}

// The official account's QR code, as the console shows it in the WeChat dialog.
const QR_CODE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 7 7" shape-rendering="crispEdges">
<path d="M0 0h3v3H0zM4 0h3v3H4zM0 4h3v3H0zM4 4h1v1H4zM6 4h1v3H5V6h1zM4 6h1v1H4z"/></svg>`;

/** GitHub's authorise page: the visitor approves the app and is sent to its callback with a one-time code. */
function authorizePage(query: URLSearchParams): { status: number; html: string } {
  if (query.get('client_id') !== E2E_GITHUB_APP.clientId) {
    return { status: 404, html: '<h1>404: This is not the web page you are looking for</h1>' };
  }
  if (!gitHubSession) return { status: 200, html: '<h1>Sign in to GitHub</h1><p>No one is signed in.</p>' };
  const callback = new URL('/oauth/github', CONSOLE_URL);
  callback.searchParams.set('code', github.authorize(gitHubSession));
  callback.searchParams.set('state', query.get('state') ?? '');
  return {
    status: 200,
    html: `<!doctype html><title>Authorize application</title>
<h1>Authorize Gatehouse e2e</h1>
<p>Signed in as <b>${escapeHtml(gitHubSession.login)}</b>; the app asks for ${escapeHtml(query.get('scope') ?? '')}.</p>
<a href="${escapeHtml(callback.toString())}">Authorize</a>`,
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The gateway's server-to-server calls go on to the fake that speaks GitHub's documented shapes. */
async function forwardToGitHub(request: IncomingMessage, response: ServerResponse, body: Buffer) {
  const headers = new Headers();
  for (const name of ['accept', 'authorization', 'content-type', 'user-agent', 'x-github-api-version']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  const answer = await fetch(new URL(request.url ?? '/', github.url), {
    method: request.method,
    headers,
    body: body.length > 0 ? body : undefined,
  });
  send(
    response,
    answer.status,
    answer.headers.get('content-type') ?? 'application/json',
    await answer.text(),
  );
}

const server = createServer((request, response) => {
  void (async () => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const body = await readBody(request);
    if (url.pathname === '/health') return send(response, 200, 'text/plain', 'ok');
    if (url.pathname === '/control/smtp')
      return send(response, 200, 'application/json', JSON.stringify({ port: smtp.port }));
    if (url.pathname === '/control/mail') {
      try {
        const mail = await smtp.nextMailTo(url.searchParams.get('to') ?? '');
        return send(
          response,
          200,
          'application/json',
          JSON.stringify({ subject: mail.subject, text: mail.text }),
        );
      } catch (error) {
        return send(response, 404, 'application/json', JSON.stringify({ error: String(error) }));
      }
    }
    if (url.pathname === '/control/wechat') {
      return send(response, 200, 'application/json', JSON.stringify({ url: wechat.url }));
    }
    if (url.pathname === '/control/wechat-code') {
      const code = wechat.issueCode(url.searchParams.get('openid') ?? '');
      return send(response, 200, 'application/json', JSON.stringify({ code }));
    }
    if (url.pathname === '/wechat-qr.svg') return send(response, 200, 'image/svg+xml', QR_CODE_SVG);
    if (url.pathname === '/control/github-session' && request.method === 'PUT') {
      gitHubSession = JSON.parse(body.toString('utf8')) as GitHubUser;
      return send(response, 204, 'text/plain', '');
    }
    if (url.pathname === '/login/oauth/authorize') {
      const page = authorizePage(url.searchParams);
      return send(response, page.status, 'text/html', page.html);
    }
    return forwardToGitHub(request, response, body);
  })().catch((error: unknown) => send(response, 500, 'text/plain', String(error)));
});

server.listen(STAND_IN_PORT, STAND_IN_HOST);

async function shutDown() {
  server.closeAllConnections();
  server.close();
  await Promise.allSettled([smtp.close(), github.close(), wechat.close()]);
  process.exit(0);
}
process.on('SIGTERM', () => void shutDown());
process.on('SIGINT', () => void shutDown());
