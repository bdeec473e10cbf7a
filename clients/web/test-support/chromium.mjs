// Headless Chromium driven through the DevTools protocol over a pipe (--remote-debugging-pipe: NUL-separated JSON
// on file descriptors 3 and 4), so tests need no WebSocket flag under `node --test`. One page per browser.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The chromium executable ($CHROMIUM, else Debian's), or undefined. */
export const chromiumPath = [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => p && existsSync(p));

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** Polls `probe` until it returns a truthy value or `seconds` pass (then throws naming `what`). */
export async function until(what, seconds, probe, every = 50) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${seconds} s waiting for ${what}`);
    await sleep(every);
  }
}

/**
 * Starts chromium with the profile folder `profile` (kept between launches: IndexedDB, service workers) and
 * attaches to its page. Resolves to {send, page, evaluate, navigate, console, close}.
 */
export async function launchChromium(profile) {
  const chrome = spawn(chromiumPath, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-extensions', '--disable-background-networking', `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const [toChrome, fromChrome] = [chrome.stdio[3], chrome.stdio[4]];
  let nextId = 1;
  const waiting = new Map();
  const consoleLines = [];
  let buffer = '';
  fromChrome.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    let end;
    while ((end = buffer.indexOf('\0')) >= 0) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      if (message.method === 'Runtime.consoleAPICalled') consoleLines.push(message.params.args.map((a) => a.value ?? a.description).join(' '));
      if (message.method === 'Runtime.exceptionThrown') consoleLines.push(`exception: ${message.params.exceptionDetails.exception?.description ?? message.params.exceptionDetails.text}`);
      const w = message.id && waiting.get(message.id);
      if (w) {
        waiting.delete(message.id);
        if (message.error) w.reject(new Error(`${w.method}: ${message.error.message}`));
        else w.resolve(message.result);
      }
    }
  });
  fromChrome.on('error', () => {});
  toChrome.on('error', () => {});
  const send = (method, params = {}, sessionId) =>
    new Promise((resolveCall, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => { waiting.delete(id); reject(new Error(`${method}: no answer from chromium in 60 s`)); }, 60000);
      waiting.set(id, { resolve: (v) => { clearTimeout(timer); resolveCall(v); }, reject: (e) => { clearTimeout(timer); reject(e); }, method });
      toChrome.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
    });
  const { targetInfos } = await until('a chromium page', 60, () => send('Target.getTargets').then((r) => r.targetInfos.some((t) => t.type === 'page') && r), 100);
  const { sessionId } = await send('Target.attachToTarget', { targetId: targetInfos.find((t) => t.type === 'page').targetId, flatten: true });
  const page = (method, params) => send(method, params, sessionId);
  await page('Page.enable');
  await page('Runtime.enable');
  const evaluate = async (expression) => {
    const r = await page('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`${expression.slice(0, 200)}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value;
  };
  const navigate = (url) => page('Page.navigate', { url });
  const close = async () => {
    const exited = new Promise((ok) => chrome.once('exit', ok));
    try { await send('Browser.close'); } catch { chrome.kill('SIGKILL'); }
    await Promise.race([exited, sleep(5000).then(() => chrome.kill('SIGKILL'))]);
  };
  return { send, page, evaluate, navigate, console: consoleLines, close, process: chrome };
}
