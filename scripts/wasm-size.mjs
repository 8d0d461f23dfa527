// Prints what a page downloads before it is interactive: the site's WASM
// and JS glue (target/site/pkg, from `make build`), raw, gzip -9 and
// brotli, against issue 13's budget of 350 KB gzipped per page (home and
// ranking); and what the first answer of the agent needs on home, ranking
// and detail, against issue 30's budget of 300 KB gzipped in 12 requests.
//
// The build is split (`cargo leptos build --split`): every page loads the
// main module (advisor-review.wasm/.js and the split loader's JS) and, before
// it hydrates, its route's chunks: the split module of the route's view and
// the shared `chunk_N` modules it needs, as listed in
// pkg/__wasm_split_manifest.json. Which manifest entry a page needs is read
// from the page itself when a server is given (its `<link rel=preload>` tags,
// exactly what the browser fetches), else from the route's name.
//
// The first answer needs, besides, the turn's chunks (the manifest's
// `panel_turn`: a chat turn, see app/src/split.rs), the CSS, the page's HTML
// (counted only with --url: its size depends on the data) and the turn's own
// POST. What the browser really fetches before the answer, and when, is
// `make bench-front`'s to say (end2end/bench/front.bench.ts).
//
// Usage: node scripts/wasm-size.mjs [site-root] [--url http://127.0.0.1:3000]
//        (make size)
// Exits 1 when a page is over issue 13's budget, 2 when there is no build;
// issue 30's budget is printed, not enforced (yet).
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { gzipSync, brotliCompressSync, constants } from 'zlib';

const args = process.argv.slice(2);
const urlAt = args.indexOf('--url');
const server = urlAt >= 0 ? args.splice(urlAt, 2)[1] : null;
const root = args[0] ?? 'target/site';
const pkg = join(root, 'pkg');
const BUDGET_KB = 350;
// Issue 30: everything the first answer needs, gzipped, and its requests.
const ANSWER_BUDGET_KB = 300;
const ANSWER_BUDGET_REQUESTS = 12;
// The manifest entry of a chat turn's chunks (app/src/split.rs: `panel_turn`).
const TURN = 'panel_turn';
const OUTPUT = 'advisor-review';
// The pages of issues 13 and 30, their path, the lazy route that draws them
// (app/src/routes.rs; the split's name is the snake-cased `<Route>_View`) and
// whether issue 13's budget is theirs. The demo data's advisor 1 is at
// 北京大学 (as in end2end/tests/access.spec.ts).
const PAGES = [
  ['home', '/', 'home_route', true],
  ['ranking', `/ranking?school=${encodeURIComponent('北京大学')}&major=${encodeURIComponent('计算机科学与技术')}`, 'ranking_route', true],
  ['detail', '/advisor/1', 'advisor_route', false],
];

const kb = (n) => (n / 1024).toFixed(1);
let files;
let css;
try {
  files = readdirSync(pkg).filter((f) => f.endsWith('.wasm') || f.endsWith('.js'));
  css = readdirSync(pkg).filter((f) => f.endsWith('.css'));
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

// The chunks a page preloads, from its server-rendered HTML, and the HTML's
// own size (gzip -9, as a browser without brotli gets the assets).
const htmlGz = new Map();
async function preloadsOf(path) {
  const res = await fetch(new URL(path, server));
  const html = await res.text();
  htmlGz.set(path, gzipSync(Buffer.from(html), { level: 9 }).length);
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
  const keys = Object.keys(manifest).filter((k) =>
    route === TURN ? k === TURN : k.toLowerCase().includes(route),
  );
  if (keys.length === 0) throw new Error(`no entry for ${route} in ${manifestFile}`);
  return keys.flatMap((k) => manifest[k].map((m) => (m.endsWith('.wasm') ? m : `${m}.wasm`)));
}

let over = false;
const answers = [];
for (const [page, path, route, budget13] of PAGES) {
  let pageFiles;
  if (!manifest) {
    pageFiles = files;
  } else if (server) {
    const preloads = await preloadsOf(path);
    if (preloads.some((f) => f.startsWith('split_'))) {
      pageFiles = [...new Set([...mainFiles, ...preloads])];
    } else {
      // Some renders of ranking and detail preload none of the route's
      // chunks (README, "Time to the first answer"): the browser then asks
      // for them after the main module, and they are counted all the same.
      console.log(`${page}: the HTML preloads none of its chunks this time; counted from the manifest`);
      pageFiles = [...new Set([...mainFiles, ...chunksOf(route)])];
    }
  } else {
    pageFiles = [...new Set([...mainFiles, ...chunksOf(route)])];
  }
  const answerFiles = manifest ? [...new Set([...pageFiles, ...chunksOf(TURN)])] : files;
  const missing = answerFiles.filter((f) => !existsSync(join(pkg, f)));
  if (missing.length) {
    console.error(`${page}: ${missing.join(', ')} not in ${pkg}`);
    process.exit(2);
  }
  const sum = (list) => {
    const total = { gz: 0, br: 0, wasmGz: 0, wasmBr: 0, wasm: 0, js: 0 };
    for (const f of list) {
      const s = size(f);
      total.gz += s.gz;
      total.br += s.br;
      if (f.endsWith('.wasm')) {
        total.wasmGz += s.gz;
        total.wasmBr += s.br;
        total.wasm += 1;
      } else if (f.endsWith('.js')) {
        total.js += 1;
      }
    }
    return total;
  };
  if (budget13) {
    const total = sum(pageFiles);
    const ok = total.wasmGz / 1024 <= BUDGET_KB;
    over ||= !ok;
    console.log(
      `${page}: WASM ${kb(total.wasmGz)} KB gzipped, ${kb(total.wasmBr)} KB brotli; ` +
        `with JS ${kb(total.gz)} KB gzipped, ${kb(total.br)} KB brotli ` +
        `(budget ${BUDGET_KB} KB) ${ok ? 'met' : 'NOT met'}`,
    );
    console.log(`  ${pageFiles.map((f) => `${f} ${kb(size(f).gz)}`).join(' + ')} (gzip KB)`);
  }
  answers.push([page, path, pageFiles, answerFiles, sum(answerFiles)]);
}

// Issue 30: the first answer. Requests: the HTML, the CSS, every WASM and
// JS file, the turn's POST (whose few hundred bytes are not counted).
console.log('');
console.log(`first answer (issue 30: ${ANSWER_BUDGET_KB} KB gzipped in ${ANSWER_BUDGET_REQUESTS} requests):`);
for (const [page, path, pageFiles, answerFiles, total] of answers) {
  const cssGz = css.reduce((n, f) => n + size(f).gz, 0);
  const html = htmlGz.get(path);
  const gz = total.gz + cssGz + (html ?? 0);
  const requests = 1 + css.length + answerFiles.length + 1;
  const ok = gz / 1024 <= ANSWER_BUDGET_KB && requests <= ANSWER_BUDGET_REQUESTS;
  const turnOnly = answerFiles.length - pageFiles.length;
  console.log(
    `${page}: ${requests} requests (HTML, ${css.length} CSS, ${total.wasm} WASM of which ${turnOnly} the turn's alone, ` +
      `${total.js} JS, the turn's POST), ${kb(gz)} KB gzipped ` +
      `(WASM ${kb(total.wasmGz)}, JS ${kb(total.gz - total.wasmGz)}, CSS ${kb(cssGz)}, ` +
      `HTML ${html === undefined ? 'not counted: no --url' : kb(html)}) ${ok ? 'met' : 'NOT met'}`,
  );
}
process.exit(over ? 1 : 0);
