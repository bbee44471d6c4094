// The catalogs of the search bench: the real one (the committed snapshots of real servers in
// catalogs/) and the large one (the real tools plus look-alike tools of other products, generated
// from the hand-written tables in lookalikes.mjs). Deterministic: the same tables give the same
// catalog, in the same order, every time.
//
//   node bench/search/large-catalog.mjs [--out FILE]   writes the large catalog as the JSON array
//                                                      `switchboard search-tools --catalog` reads
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRODUCTS } from './lookalikes.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SNAPSHOT_DIR = path.join(here, 'catalogs');

/** The snapshots of real servers, sorted by server name. */
export function readSnapshots(dir = SNAPSHOT_DIR) {
  return fs.readdirSync(dir).filter((file) => file.endsWith('.json')).sort()
    .map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
}

/** The real catalog: every snapshot's tools as `{ server, name, description, inputSchema, annotations, serverInstructions }`. */
export function realCatalog(snapshots = readSnapshots()) {
  return snapshots.flatMap((snapshot) => snapshot.tools.map((tool) => ({
    server: snapshot.server,
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    ...(snapshot.instructions !== undefined ? { serverInstructions: snapshot.instructions } : {}),
  })));
}

/** The large catalog: the real tools first, then every look-alike product's tools. */
export function largeCatalog(snapshots = readSnapshots()) {
  return [...realCatalog(snapshots), ...lookalikeTools()];
}

/** The look-alike tools of every product in the tables. */
export function lookalikeTools(products = PRODUCTS) {
  return products.flatMap((product) => productTools(product));
}

const OPS = { l: 'list', g: 'get', c: 'create', u: 'update', d: 'delete', s: 'search' };

function productTools(product) {
  const tools = [];
  for (const resource of product.resources ?? []) {
    for (const letter of resource.ops) tools.push(standardTool(product, resource, letter));
    for (const extra of resource.extra ?? []) tools.push(extraTool(product, extra));
  }
  for (const extra of product.extra ?? []) tools.push(extraTool(product, extra));
  const seen = new Set();
  for (const tool of tools) {
    if (seen.has(tool.name)) throw new Error(`${product.server}: two tools named ${tool.name}`);
    seen.add(tool.name);
  }
  return tools;
}

function standardTool(product, resource, letter) {
  const op = OPS[letter];
  if (!op) throw new Error(`${product.server}/${resource.noun}: unknown operation "${letter}"`);
  const plural = resource.plural ?? `${resource.noun}s`;
  const nounWords = op === 'list' || op === 'search' ? plural : resource.noun;
  const [idName, idType, idDescription] = resource.id;
  const scope = resource.scope;
  const fields = resource.fields ?? [];
  const properties = {};
  const required = [];
  const add = ([name, type, description, isRequired]) => {
    properties[name] = schemaOf(type, description);
    if (isRequired && !required.includes(name)) required.push(name);
  };
  switch (op) {
    case 'list': {
      if (scope) add([...scope, true]);
      const filter = fields.find(([, type]) => Array.isArray(type));
      if (filter) add([filter[0], filter[1], `Only ${plural} with this ${humanize(filter[0])}`]);
      add(['limit', 'integer', 'Maximum number of results (1-100, default 25)']);
      add(['cursor', 'string', 'Pagination cursor from the previous response']);
      break;
    }
    case 'get':
      add([idName, idType, idDescription, true]);
      break;
    case 'create':
      if (scope) add([...scope, true]);
      for (const field of fields) add(field);
      break;
    case 'update':
      add([idName, idType, idDescription, true]);
      for (const [name, type, description] of fields) add([name, type, description]);
      break;
    case 'delete':
      add([idName, idType, idDescription, true]);
      break;
    case 'search':
      add(['query', 'string', `Text to search for in ${plural}`, true]);
      if (scope) add(scope);
      add(['limit', 'integer', 'Maximum number of results']);
      break;
  }
  const tool = {
    server: product.server,
    name: toolName(product, [op, ...splitWords(nounWords)]),
    description: describe(product, resource, op, plural),
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
  };
  const annotations = annotationsOf(op);
  if (annotations) tool.annotations = annotations;
  if (product.instructions) tool.serverInstructions = product.instructions;
  return tool;
}

function extraTool(product, [words, description, fields]) {
  const properties = {};
  const required = [];
  for (const [name, type, fieldDescription, isRequired] of fields) {
    properties[name] = schemaOf(type, fieldDescription);
    if (isRequired) required.push(name);
  }
  const verb = splitWords(words)[0];
  const tool = {
    server: product.server,
    name: toolName(product, splitWords(words)),
    description,
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
  };
  const annotations = annotationsOf(verb);
  if (annotations) tool.annotations = annotations;
  if (product.instructions) tool.serverInstructions = product.instructions;
  return tool;
}

/** The descriptions, in the three voices real servers tend to write in. */
function describe(product, resource, op, plural) {
  const { noun } = resource;
  const where = resource.in ?? `in ${product.product}`;
  const names = (resource.fields ?? []).slice(0, 3).map(([name]) => humanize(name));
  const detail = names.length > 0 ? ` (${names.join(', ')})` : '';
  const needs = (resource.fields ?? []).filter((field) => field[3]).map(([name]) => humanize(name));
  const voices = [
    {
      list: `List ${plural} ${where}. Returns up to \`limit\` results per page; pass \`cursor\` from the previous response for the next page.`,
      get: `Get a ${product.product} ${noun} by its ID, with all its fields${detail}.`,
      create: `Create a new ${noun} ${where}.${needs.length > 0 ? ` Requires ${needs.join(' and ')}.` : ''}`,
      update: `Update an existing ${product.product} ${noun}${detail}. Only the fields you pass are changed.`,
      delete: `Delete a ${product.product} ${noun}. This cannot be undone.`,
      search: `Search ${plural} ${where} by keyword.`,
    },
    {
      list: `Returns a paginated list of ${plural} ${where}.`,
      get: `Retrieves a single ${noun} ${where} and its details.`,
      create: `Creates a ${noun} ${where} and returns it with its new ID.`,
      update: `Updates the given fields of a ${noun} ${where}.`,
      delete: `Permanently deletes a ${noun} ${where}.`,
      search: `Searches ${plural} ${where} matching a query string.`,
    },
    {
      list: `${product.product}: list ${plural}.`,
      get: `${product.product}: fetch one ${noun}${detail}.`,
      create: `${product.product}: create a ${noun}${detail}.`,
      update: `${product.product}: modify a ${noun}.`,
      delete: `${product.product}: remove a ${noun}.`,
      search: `${product.product}: find ${plural} by text.`,
    },
  ];
  return voices[product.voice ?? 0][op];
}

function annotationsOf(verb) {
  if (['list', 'get', 'search', 'find', 'read', 'describe', 'query', 'explain', 'fetch'].includes(verb)) return { readOnlyHint: true };
  if (['delete', 'remove', 'drop', 'void', 'cancel', 'ban'].includes(verb)) return { destructiveHint: true };
  return undefined;
}

/** A tool name in the product's naming style. */
function toolName(product, words) {
  const lower = words.map((word) => word.toLowerCase());
  switch (product.style) {
    case 'snake': return lower.join('_');
    case 'prefix': return [product.prefix, ...lower].join('_');
    case 'kebab': return lower.join('-');
    case 'camel': return lower.map((word, i) => (i === 0 ? word : word[0].toUpperCase() + word.slice(1))).join('');
    default: throw new Error(`${product.server}: unknown naming style ${product.style}`);
  }
}

function schemaOf(type, description) {
  if (Array.isArray(type)) return { type: 'string', enum: type, description };
  if (type.endsWith('[]')) return { type: 'array', items: { type: type.slice(0, -2) }, description };
  if (type === 'array') return { type: 'array', items: {}, description };
  return { type, description };
}

function splitWords(text) {
  return text.split(/[\s_-]+/).filter((word) => word !== '');
}

/** `projectKey` → "project key", `due_on` → "due on". */
function humanize(name) {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const catalog = largeCatalog();
  const text = `${JSON.stringify(catalog, null, 2)}\n`;
  if (at === -1) process.stdout.write(text);
  else fs.writeFileSync(path.resolve(process.argv[at + 1]), text);
  const servers = new Set(catalog.map((tool) => tool.server));
  console.error(`large catalog: ${catalog.length} tools from ${servers.size} servers (${realCatalog().length} real)`);
}
