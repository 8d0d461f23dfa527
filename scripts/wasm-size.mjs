// Prints what the site's pages download (target/site/pkg, from `make build`):
// each file raw, gzip -9 and brotli; what the agent's first answer needs (the
// budget: 300 KB gzipped in 12 requests); and the app that applies the reply
// to the page (the WASM and its JS glue), against a ceiling that keeps it
// from growing unnoticed: 500 KB brotli, what a phone on slow 4G fetches in
// about 2.5 s. The split build's budget of 350 KB gzipped per module is gone
// with the split: it was met while the answer took 5 s (docs/architecture.md,
// "The browser bundle").
//
// The build is one WASM file, named after its content (hash-files). The
// first answer does not wait for it: the page's inline script
// (app/src/components/agent_panel/early.js) sends the first message, so the
// answer needs the page's HTML (counted with --url: its size depends on the
// data), the CSS and the turn's own POST. The app that applies the reply to
// the page needs the module and the WASM as well: both are printed. What the
// browser really fetches, and when, is `make bench-front`'s to say.
//
// Usage: node scripts/wasm-size.mjs [site-root] [--url http://127.0.0.1:3000]
//        (make size)
// Exits 1 when the first answer or the app is over its budget, 2 when there
// is no build.
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { gzipSync, brotliCompressSync, constants } from 'zlib';

const args = process.argv.slice(2);
const urlAt = args.indexOf('--url');
const server = urlAt >= 0 ? args.splice(urlAt, 2)[1] : null;
const root = args[0] ?? 'target/site';
const pkg = join(root, 'pkg');
const APP_CEILING_KB_BR = 500;
const ANSWER_BUDGET_KB = 300;
const ANSWER_BUDGET_REQUESTS = 12;
const PAGES = [
  ['home', '/'],
  ['ranking', `/ranking?school=${encodeURIComponent('北京大学')}&major=${encodeURIComponent('计算机科学与技术')}`],
  ['detail', '/advisor/1'],
];

const kb = (n) => (n / 1024).toFixed(1);
let names;
try {
  names = readdirSync(pkg).filter((f) => /\.(wasm|js|css)$/.test(f));
} catch {
  console.error(`没有找到 ${pkg}：先运行 make build`);
  process.exit(2);
}
const measure = (data) => ({
  raw: data.length,
  gz: gzipSync(data, { level: 9 }).length,
  br: brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});
const sizes = new Map(names.map((f) => [f, measure(readFileSync(join(pkg, f)))]));
const of = (ext) => names.filter((f) => f.endsWith(ext));
if (of('.wasm').length !== 1) {
  console.error(`${pkg} 中应当正好有一个 .wasm 文件（先运行 make build）`);
  process.exit(2);
}

console.log('| file | raw KB | gzip KB | brotli KB |');
console.log('| --- | --- | --- | --- |');
for (const f of names.sort()) {
  const s = sizes.get(f);
  console.log(`| ${f} | ${kb(s.raw)} | ${kb(s.gz)} | ${kb(s.br)} |`);
}
const total = (list, key) => list.reduce((n, f) => n + sizes.get(f)[key], 0);

const code = [...of('.wasm'), ...of('.js')];
const codeGz = total(code, 'gz');
const codeBr = total(code, 'br');
let ok = codeBr / 1024 <= APP_CEILING_KB_BR;
console.log('');
console.log(
  `the app (every page, after the first answer): WASM + JS ${kb(codeGz)} KB gzipped, ${kb(codeBr)} KB brotli ` +
    `(ceiling ${APP_CEILING_KB_BR} KB brotli) ${ok ? 'met' : 'NOT met'}`,
);

console.log('');
console.log(`first answer (${ANSWER_BUDGET_KB} KB gzipped in ${ANSWER_BUDGET_REQUESTS} requests):`);
const cssGz = total(of('.css'), 'gz');
for (const [page, path] of PAGES) {
  let html = null;
  if (server) {
    const body = Buffer.from(await (await fetch(new URL(path, server))).text());
    html = measure(body);
  }
  const gz = cssGz + (html?.gz ?? 0);
  const requests = 1 + of('.css').length + 1;
  const met = gz / 1024 <= ANSWER_BUDGET_KB && requests <= ANSWER_BUDGET_REQUESTS;
  ok &&= met;
  console.log(
    `${page}: ${requests} requests (the HTML with its inline scripts, the CSS, the turn's POST), ` +
      `${kb(gz)} KB gzipped (CSS ${kb(cssGz)}, HTML ${html ? kb(html.gz) : 'not counted: no --url'}) ` +
      `${met ? 'met' : 'NOT met'}; the app that applies the reply adds ${code.length} requests, ${kb(codeGz)} KB`,
  );
}
process.exit(ok ? 0 : 1);
