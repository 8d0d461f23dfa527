// Prints what a page downloads before it is interactive: the site's WASM
// and JS glue (target/site/pkg, from `make build`), raw, gzip -9 and
// brotli, against issue 13's budget of 350 KB gzipped. Today every page
// loads the one bundle; a split build would list its chunks here.
// Usage: node scripts/wasm-size.mjs [site-root]   (make size)
import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';
import { gzipSync, brotliCompressSync, constants } from 'zlib';

const root = process.argv[2] ?? 'target/site';
const pkg = join(root, 'pkg');
const BUDGET_KB = 350;
const kb = (n) => (n / 1024).toFixed(1);
let files;
try {
  files = readdirSync(pkg).filter((f) => f.endsWith('.wasm') || f.endsWith('.js'));
} catch {
  console.error(`没有找到 ${pkg}：先运行 make build`);
  process.exit(2);
}
let total = { raw: 0, gz: 0, br: 0, wasmGz: 0 };
console.log('| file | raw KB | gzip KB | brotli KB |');
console.log('| --- | --- | --- | --- |');
for (const f of files.sort()) {
  const data = readFileSync(join(pkg, f));
  const gz = gzipSync(data, { level: 9 }).length;
  const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  console.log(`| ${f} | ${kb(statSync(join(pkg, f)).size)} | ${kb(gz)} | ${kb(br)} |`);
  total.raw += data.length;
  total.gz += gz;
  total.br += br;
  if (f.endsWith('.wasm')) total.wasmGz += gz;
}
console.log(`| all | ${kb(total.raw)} | ${kb(total.gz)} | ${kb(total.br)} |`);
for (const page of ['home', 'ranking']) {
  const ok = total.wasmGz / 1024 <= BUDGET_KB;
  console.log(`${page}: WASM ${kb(total.wasmGz)} KB gzipped (budget ${BUDGET_KB} KB) ${ok ? 'met' : 'NOT met'}`);
}
