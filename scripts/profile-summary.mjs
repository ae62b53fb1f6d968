// Where a CPU profile's time went: self time by function and by package (node_modules/<name>,
// the project's own folders, Node's internals, garbage collection), as shares of the samples.
//
//   node scripts/profile-summary.mjs <file.cpuprofile> [top functions, default 40]
import { readFileSync } from 'node:fs';

const [file, topArgument] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/profile-summary.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArgument ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const hits = new Map();
for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
const total = profile.samples.length;

function packageOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const own = /\/(src\/[^/]+\/[^/]+|bench|scripts)\//.exec(url);
  return own ? own[1] : url;
}

const byFunction = new Map();
const byPackage = new Map();
for (const [id, count] of hits) {
  const { callFrame } = nodes.get(id);
  const where = callFrame.url
    ? `${callFrame.url.split('/').slice(-2).join('/')}:${callFrame.lineNumber + 1}`
    : '';
  const name = `${callFrame.functionName || '(anonymous)'} ${where}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + count);
  const owner = packageOf(callFrame.url, callFrame.functionName);
  byPackage.set(owner, (byPackage.get(owner) ?? 0) + count);
}

const share = (count) => `${((count / total) * 100).toFixed(1).padStart(5)} %`;
const idle = [...hits].filter(([id]) => nodes.get(id).callFrame.functionName === '(idle)');
const idleCount = idle.reduce((sum, [, count]) => sum + count, 0);
console.log(`${total} samples, ${share(idleCount).trim()} idle\n\nby package:`);
for (const [name, count] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`  ${share(count)}  ${name}`);
console.log(`\nby function (self):`);
for (const [name, count] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`  ${share(count)}  ${name}`);
