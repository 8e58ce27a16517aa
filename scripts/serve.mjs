// A small static file server for the built site, with the right type for .wasm.
// Usage: node scripts/serve.mjs [dir] [port]  (defaults: site, 8000; port 0 picks a free one).
// When the port is taken it tries the next ones and says which it got. A request is answered
// only from inside `dir`: its path is decoded and checked segment by segment (a malformed
// escape is a 400, a segment of "..", "." or with a slash or backslash in it a 403), so a file
// beside the site can never be reached.
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(process.argv[2] || 'site');
const port = Number(process.argv[3] ?? process.env.PORT ?? 8000);
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

// The file a URL path names inside `dir`, or an HTTP status saying why there is none.
export function resolvePath(dir, urlPath) {
  const segments = [];
  for (const raw of urlPath.split('/')) {
    if (raw === '') continue;
    let segment;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { status: 400 };
    }
    if (segment === '.' || segment === '..' || /[\\/\0]/.test(segment)) return { status: 403 };
    segments.push(segment);
  }
  return { file: path.join(dir, ...segments) };
}

function listen(server, first, tries) {
  return new Promise((resolve, reject) => {
    const attempt = (p, left) => {
      const onError = (err) => {
        if (err.code === 'EADDRINUSE' && left > 0 && p !== 0) attempt(p + 1, left - 1);
        else reject(err);
      };
      server.once('error', onError);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', onError);
        resolve(server);
      });
    };
    attempt(first, tries);
  });
}

export function serve(dir = root, listenPort = port) {
  const server = http.createServer(async (req, res) => {
    let url;
    try {
      url = new URL(req.url, 'http://localhost');
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('bad request');
      return;
    }
    const { file: named, status } = resolvePath(dir, url.pathname);
    if (status) {
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 400 ? 'bad request' : 'forbidden');
      return;
    }
    let file = named;
    try {
      if ((await fs.stat(file)).isDirectory()) file = path.join(file, 'index.html');
      const body = await fs.readFile(file);
      res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });
  return listen(server, listenPort, 20);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const server = await serve();
    const got = server.address().port;
    const note = port && got !== port ? ` (port ${port} was taken)` : '';
    console.log(`Kernel Playground is at http://127.0.0.1:${got}/${note}  (Ctrl-C stops)`);
  } catch (err) {
    console.error(`Cannot serve the site: ${err.message}`);
    process.exit(1);
  }
}
