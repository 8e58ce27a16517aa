// The development server (scripts/serve.mjs): malformed URLs, attempts to leave the site, and a
// busy port.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';

let dir;
let server;
let base;

before(async () => {
  // A site folder and, beside it, a folder whose name starts the same: the old prefix check
  // let /..%2fsite-secret/... through.
  const top = await fs.mkdtemp(path.join(os.tmpdir(), 'kp-serve-'));
  dir = path.join(top, 'site');
  await fs.mkdir(dir);
  await fs.writeFile(path.join(dir, 'index.html'), '<p>hello</p>');
  await fs.mkdir(path.join(top, 'site-secret'));
  await fs.writeFile(path.join(top, 'site-secret', 'key.txt'), 'secret');
  await fs.writeFile(path.join(top, 'outside.txt'), 'outside');
  server = await serve(dir, 0);
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => server && server.close());

// A raw GET (fetch would normalise the path before sending it).
function get(rawPath) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.address().port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('files inside the site are served', async () => {
  const res = await get('/');
  assert.equal(res.status, 200);
  assert.match(res.body, /hello/);
});

test('a malformed escape is a 400, and the server goes on', async () => {
  assert.equal((await get('/%E0%A4%A')).status, 400);
  assert.equal((await get('/index.html')).status, 200, 'still serving');
});

test('nothing outside the site is served', async () => {
  for (const attempt of ['/..%2fsite-secret/key.txt', '/../outside.txt', '/%2e%2e/outside.txt', '/..%5coutside.txt', '/a/%2e%2e/%2e%2e/outside.txt']) {
    const res = await get(attempt);
    assert.ok(res.status === 403 || res.status === 404, `${attempt}: ${res.status}`);
    assert.doesNotMatch(res.body, /secret|outside/, attempt);
  }
});

test('a busy port gives the next free one', async () => {
  const blocker = http.createServer(() => {});
  await new Promise((r) => blocker.listen(0, '127.0.0.1', r));
  const busy = blocker.address().port;
  const second = await serve(dir, busy);
  try {
    assert.notEqual(second.address().port, busy);
    assert.ok(second.address().port > busy && second.address().port <= busy + 20);
    const res = await fetch(`http://127.0.0.1:${second.address().port}/`);
    assert.equal(res.status, 200);
  } finally {
    second.close();
    blocker.close();
  }
});
