// Builds the web view into internal/webui/dist (or the directory given as
// the first argument): index.html, app.js and app.css, minified. The same
// sources give the same bytes: no timestamps, no source maps, no hashes of
// absolute paths.
//
//   node build.mjs [outdir]            build
//   node build.mjs --serve URL [port]  serve the sources, rebuilt on each
//                                      request, with /api/ passed to URL

import * as esbuild from 'esbuild';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const defaultOut = path.join(here, '..', 'internal', 'webui', 'dist');

const options = {
  entryPoints: { app: path.join(here, 'src', 'main.js') },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  legalComments: 'none',
  charset: 'utf8',
  sourcemap: false,
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
};

async function build(outdir) {
  await mkdir(outdir, { recursive: true });
  for (const f of ['app.js', 'app.css', 'index.html']) await rm(path.join(outdir, f), { force: true });
  await esbuild.build(Object.assign({}, options, { outdir }));
  await copyFile(path.join(here, 'src', 'index.html'), path.join(outdir, 'index.html'));
}

async function serve(upstream, port) {
  const tmp = path.join(here, 'node_modules', '.dev-build');
  const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' };
  http.createServer(async (req, res) => {
    if (req.url.startsWith('/api/')) {
      const u = new URL(req.url, upstream);
      const headers = Object.assign({}, req.headers, { host: u.host });
      delete headers.origin;
      const proxied = http.request(u, { method: req.method, headers }, (up) => {
        res.writeHead(up.statusCode, up.headers);
        up.pipe(res);
      });
      proxied.on('error', (err) => { res.writeHead(502); res.end(String(err)); });
      req.pipe(proxied);
      return;
    }
    try {
      await build(tmp);
      const name = req.url.startsWith('/assets/') ? req.url.slice(8).split('?')[0] : 'index.html';
      const body = await readFile(path.join(tmp, path.basename(name)));
      res.writeHead(200, { 'Content-Type': types[path.extname(name)] || 'application/octet-stream' });
      res.end(body);
    } catch (err) {
      res.writeHead(500);
      res.end(String(err));
    }
  }).listen(port, '127.0.0.1', () => console.log(`http://127.0.0.1:${port}/ (API: ${upstream})`));
}

const args = process.argv.slice(2);
if (args[0] === '--serve') {
  await serve(args[1] || 'http://127.0.0.1:8910', Number(args[2] || 8920));
} else {
  await build(path.resolve(args[0] || defaultOut));
}
