// API-version audit, run by `npm test`: finds every Obsidian API that src/ uses (identifiers
// whose declaration is in node_modules/obsidian/obsidian.d.ts, in value positions: calls,
// property reads and writes, classes extended), reads its `@since` JSDoc tag (on the member,
// else on its class or interface), and compares it with manifest.json's minAppVersion.
// Every API newer than minAppVersion needs an entry in scripts/api-audit/decisions.json:
//   "feature-checked: <where, and what older apps get>"  every use must sit under a
//       `requireApiVersion('x.y.z')` check of at least its version (an if's then-branch, a
//       conditional's true branch or the right of &&, as obsidianmd/no-unsupported-api reads it);
//   any other text: why it may run unguarded (e.g. only the app calls it, on versions that have it).
// Entries for APIs no longer used above minAppVersion must go. Exit 1 with one line per problem.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DECISIONS_FILE = path.join(root, 'scripts', 'api-audit', 'decisions.json');
const minAppVersion = JSON.parse(readFileSync(path.join(root, 'manifest.json'), 'utf8')).minAppVersion;
/** @type {Record<string, string>} api ("Class.member" or a top-level name) -> the decision (see above) */
const decisions = JSON.parse(readFileSync(DECISIONS_FILE, 'utf8'));

/** @param {string} a @param {string} b @returns {number} <0, 0, >0 as version a is below, equal to or above b */
function compareVersions(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const configFile = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
const srcFiles = parsed.fileNames.filter((f) => path.relative(root, f).split(path.sep)[0] === 'src');
const program = ts.createProgram(srcFiles, parsed.options);
const checker = program.getTypeChecker();
const isObsidianDts = (file) => file.fileName.replace(/\\/g, '/').endsWith('/obsidian/obsidian.d.ts');

/** @param {ts.Node} node @returns {string | null} the node's own `@since` version */
function sinceOf(node) {
  for (const tag of ts.getJSDocTags(node)) {
    if (tag.tagName.text === 'since' && typeof tag.comment === 'string') return tag.comment.trim();
  }
  return null;
}

/** @param {ts.Declaration} decl @returns {{ name: string, since: string | null }} */
function describe(decl) {
  const own = sinceOf(decl);
  const parent = decl.parent;
  const memberName = ts.isIndexSignatureDeclaration(decl)
    ? '[key]'
    : decl.name && ts.isIdentifier(decl.name)
      ? decl.name.text
      : (decl.name?.getText() ?? '(anonymous)');
  if ((ts.isClassDeclaration(parent) || ts.isInterfaceDeclaration(parent)) && parent.name) {
    return { name: `${parent.name.text}.${memberName}`, since: own ?? sinceOf(parent) };
  }
  return { name: memberName, since: own };
}

/** True when `node` is only a type, an import or a declaration name (nothing runs). */
function typeOnly(node) {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isTypeNode(n) && !ts.isExpressionWithTypeArguments(n)) return true;
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isInterfaceDeclaration(n)) return true;
    if (
      ts.isExpressionWithTypeArguments(n) &&
      n.parent &&
      ts.isHeritageClause(n.parent) &&
      n.parent.token === ts.SyntaxKind.ImplementsKeyword
    )
      return true;
    if (ts.isStatement(n) || ts.isClassElement(n)) break;
  }
  const parent = node.parent;
  return !!parent && (ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent)) && parent.name === node;
}

/** @param {ts.Expression} expr @returns {string | null} the version a requireApiVersion('x') check (or `a && b` starting with one) requires */
function guardVersion(expr) {
  if (
    ts.isCallExpression(expr) &&
    ts.isIdentifier(expr.expression) &&
    expr.expression.text === 'requireApiVersion' &&
    expr.arguments[0] &&
    ts.isStringLiteral(expr.arguments[0])
  ) {
    return expr.arguments[0].text;
  }
  if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) return guardVersion(expr.left);
  if (ts.isParenthesizedExpression(expr)) return guardVersion(expr.expression);
  return null;
}

/** @param {ts.Node} node @param {string} since @returns {boolean} whether a requireApiVersion check of at least `since` encloses `node` */
function guarded(node, since) {
  let child = node;
  for (let n = node.parent; n; child = n, n = n.parent) {
    let version = null;
    if (ts.isIfStatement(n) && child === n.thenStatement) version = guardVersion(n.expression);
    else if (ts.isConditionalExpression(n) && child === n.whenTrue) version = guardVersion(n.condition);
    else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken && child === n.right)
      version = guardVersion(n.left);
    if (version && compareVersions(version, since) >= 0) return true;
  }
  return false;
}

/** @type {Map<string, { since: string | null, uses: Array<{ where: string, guarded: boolean }> }>} */
const used = new Map();
for (const file of program.getSourceFiles()) {
  if (!srcFiles.includes(path.resolve(file.fileName))) continue;
  const visit = (node) => {
    if (ts.isIdentifier(node) && !typeOnly(node)) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const decl = symbol?.declarations?.find((d) => isObsidianDts(d.getSourceFile()));
      if (decl) {
        const { name, since } = describe(decl);
        const entry = used.get(name) ?? { since, uses: [] };
        const { line } = file.getLineAndCharacterOfPosition(node.getStart());
        const newer = since !== null && compareVersions(since, minAppVersion) > 0;
        entry.uses.push({ where: `${path.relative(root, file.fileName)}:${line + 1}`, guarded: newer && guarded(node, since) });
        used.set(name, entry);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

const problems = [];
const newer = [...used]
  .filter(([, e]) => e.since !== null && compareVersions(e.since, minAppVersion) > 0)
  .sort((a, b) => compareVersions(b[1].since, a[1].since) || a[0].localeCompare(b[0]));
console.log(`api-audit: src/ uses ${used.size} Obsidian APIs; minAppVersion ${minAppVersion}; ${newer.length} newer:`);
for (const [name, entry] of newer) {
  const open = entry.uses.filter((u) => !u.guarded);
  const decision = decisions[name];
  const checked = decision?.startsWith('feature-checked');
  console.log(
    `  ${name} @since ${entry.since}: ${decision ?? 'NO DECISION'}${open.length > 0 ? ` (unguarded at ${open.map((u) => u.where).join(', ')})` : ''}`,
  );
  if (!decision) {
    problems.push(
      `${name} is @since ${entry.since}, newer than minAppVersion ${minAppVersion} (used at ${entry.uses.map((u) => u.where).join(', ')}). ` +
        `Put it under \`if (requireApiVersion('${entry.since}')) { ... }\` with a fallback and a test of it and record "feature-checked: <where>", ` +
        `raise minAppVersion, or record why it may run unguarded, in scripts/api-audit/decisions.json.`,
    );
  } else if (checked && open.length > 0) {
    problems.push(
      `${name} is recorded as feature-checked but used without a requireApiVersion('${entry.since}') check at ${open.map((u) => u.where).join(', ')}.`,
    );
  }
}
for (const name of Object.keys(decisions)) {
  const entry = used.get(name);
  if (!entry || entry.since === null || compareVersions(entry.since, minAppVersion) <= 0) {
    problems.push(
      `scripts/api-audit/decisions.json lists ${name}, which src/ no longer uses above minAppVersion ${minAppVersion}: remove the entry.`,
    );
  }
}
const oldest = [...used].filter(([, e]) => e.since !== null).sort((a, b) => compareVersions(b[1].since, a[1].since));
if (oldest.length > 0 && newer.length === 0) console.log(`  (newest API in use: ${oldest[0][0]} @since ${oldest[0][1].since})`);
if (problems.length > 0) {
  for (const p of problems) console.error(`api-audit: ${p}`);
  process.exit(1);
}
console.log('api-audit: every API newer than minAppVersion has its recorded decision');
