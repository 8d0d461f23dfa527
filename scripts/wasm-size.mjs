// Prints what a page downloads before it is interactive: the site's WASM
// and JS glue (target/site/pkg, from `make build`), raw, gzip -9 and
// brotli, against issue 13's budget of 350 KB gzipped per page.
//
// The build is split (`cargo leptos build --split`): every page loads the
// main module (advisor-review.wasm/.js and the split loader's JS) and, before
// it hydrates, its route's chunks: the split module of the route's view and
// the shared `chunk_N` modules it needs, as listed in
// pkg/__wasm_split_manifest.json. Which manifest entry a page needs is read
// from the page itself when a server is given (its `<link rel=preload>` tags,
// exactly what the browser fetches), else from the route's name.
//
// Usage: node scripts/wasm-size.mjs [site-root] [--url http://127.0.0.1:3000]
//        (make size)
// Exits 1 when a page is over budget, 2 when there is no build.
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { gzipSync, brotliCompressSync, constants } from 'zlib';

const args = process.argv.slice(2);
const urlAt = args.indexOf('--url');
const server = urlAt >= 0 ? args.splice(urlAt, 2)[1] : null;
const root = args[0] ?? 'target/site';
const pkg = join(root, 'pkg');
const BUDGET_KB = 350;
const OUTPUT = 'advisor-review';
// The pages of issue 13, their path and the lazy route that draws them
// (app/src/routes.rs; the split's name is the snake-cased `<Route>_View`).
const PAGES = [
  ['home', '/', 'home_route'],
  ['ranking', `/ranking?school=${encodeURIComponent('北京大学')}&major=${encodeURIComponent('计算机科学与技术')}`, 'ranking_route'],
];

const kb = (n) => (n / 1024).toFixed(1);
let files;
try {
  files = readdirSync(pkg).filter((f) => f.endsWith('.wasm') || f.endsWith('.js'));
} catch {
  console.error(`没有找到 ${pkg}：先运行 make build`);
  process.exit(2);
}

const sizes = new Map();
function size(f) {
  if (!sizes.has(f)) {
    const data = readFileSync(join(pkg, f));
    sizes.set(f, {
      raw: data.length,
      gz: gzipSync(data, { level: 9 }).length,
      br: brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    });
  }
  return sizes.get(f);
}

console.log('| file | raw KB | gzip KB | brotli KB |');
console.log('| --- | --- | --- | --- |');
for (const f of files.sort()) {
  const s = size(f);
  console.log(`| ${f} | ${kb(s.raw)} | ${kb(s.gz)} | ${kb(s.br)} |`);
}

// The manifest (hashed as __wasm_split_manifest.<hash>.json with hash-files).
const manifestFile = readdirSync(pkg).find((f) => /^__wasm_split_manifest.*\.json$/.test(f));
const manifest = manifestFile ? JSON.parse(readFileSync(join(pkg, manifestFile), 'utf8')) : null;
const mainFiles = files.filter(
  (f) => f === `${OUTPUT}.wasm` || f === `${OUTPUT}.js` || /^__wasm_split.*\.js$/.test(f),
);
if (!manifest) {
  console.log('(no __wasm_split_manifest.json: not a split build, every page loads every file)');
}

// The chunks a page preloads, from its server-rendered HTML.
async function preloadsOf(path) {
  const res = await fetch(new URL(path, server));
  const html = await res.text();
  const found = [];
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    if (!/rel="(preload|modulepreload)"/.test(tag)) continue;
    const href = tag.match(/href="([^"]+)"/)?.[1];
    const name = href && decodeURIComponent(href.split('?')[0].split('/').pop());
    if (name && (name.endsWith('.wasm') || name.endsWith('.js'))) found.push(name);
  }
  return found;
}

// The chunks a page needs, from the manifest: the entry of its route's view.
function chunksOf(route) {
  const keys = Object.keys(manifest).filter((k) => k.toLowerCase().includes(route));
  if (keys.length === 0) throw new Error(`no entry for ${route} in ${manifestFile}`);
  return keys.flatMap((k) => manifest[k].map((m) => (m.endsWith('.wasm') ? m : `${m}.wasm`)));
}

let over = false;
for (const [page, path, route] of PAGES) {
  let pageFiles;
  if (!manifest) {
    pageFiles = files;
  } else if (server) {
    pageFiles = [...new Set([...mainFiles, ...(await preloadsOf(path))])];
  } else {
    pageFiles = [...new Set([...mainFiles, ...chunksOf(route)])];
  }
  const missing = pageFiles.filter((f) => !existsSync(join(pkg, f)));
  if (missing.length) {
    console.error(`${page}: ${missing.join(', ')} not in ${pkg}`);
    process.exit(2);
  }
  const total = { gz: 0, br: 0, wasmGz: 0, wasmBr: 0 };
  const parts = [];
  for (const f of pageFiles) {
    const s = size(f);
    total.gz += s.gz;
    total.br += s.br;
    if (f.endsWith('.wasm')) {
      total.wasmGz += s.gz;
      total.wasmBr += s.br;
    }
    parts.push(`${f} ${kb(s.gz)}`);
  }
  const ok = total.wasmGz / 1024 <= BUDGET_KB;
  over ||= !ok;
  console.log(
    `${page}: WASM ${kb(total.wasmGz)} KB gzipped, ${kb(total.wasmBr)} KB brotli; ` +
      `with JS ${kb(total.gz)} KB gzipped, ${kb(total.br)} KB brotli ` +
      `(budget ${BUDGET_KB} KB) ${ok ? 'met' : 'NOT met'}`,
  );
  console.log(`  ${parts.join(' + ')} (gzip KB)`);
}
process.exit(over ? 1 : 0);
