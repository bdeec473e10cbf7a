// docs/HOSTING.md's ```nginx block as written, made runnable: a loopback listen instead of `listen 443 ssl;`, the
// site folder instead of /srv/citypack/site, inside the http { … } a private prefix needs (the way
// test/hosting.test.mjs runs it). `hostingConfig` has the shape of fault-server.mjs's `config` option:
//   startFaultServer({ root: site, config: hostingConfig, delayMs: 100 })
// serves the site with the documented policy (gzip for JSON, ETag, CORS, cache lifetimes) behind the proxy.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root as repo } from './support.mjs';

/** The ```nginx block of docs/HOSTING.md with `listen 127.0.0.1:<port>;` and `root <site>;`. Throws when the page changed shape. */
export function hostingServerBlock(site, port) {
  const text = readFileSync(join(repo, 'docs', 'HOSTING.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(text)?.[1];
  if (!block) throw new Error('docs/HOSTING.md has no ```nginx block');
  for (const line of ['listen 443 ssl;', 'root /srv/citypack/site;']) {
    if (!block.includes(line)) throw new Error(`docs/HOSTING.md's nginx block no longer has \`${line}\``);
  }
  return block.replace('listen 443 ssl;', `listen 127.0.0.1:${port};`).replace('root /srv/citypack/site;', `root ${site};`);
}

/** A whole nginx.conf around the documented block: pid, logs and temporary files under `prefix`. */
export function hostingConfig(prefix, site, port) {
  // As root, nginx would hand requests to `nobody`, who cannot read a private temporary folder.
  const user = process.getuid?.() === 0 ? 'user root root;\n' : '';
  return `${user}worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
${hostingServerBlock(site, port)}
}
`;
}
