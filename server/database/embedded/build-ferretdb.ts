// Building the FerretDB binary from source with Go (pinned in scripts/ferretdb/go.mod) into the cache dir.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { oneLine } from './util.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const FERRETDB_MODULE_DIR = path.join(REPO_ROOT, 'scripts', 'ferretdb');
const PATCH_DIR = path.join(FERRETDB_MODULE_DIR, 'patches');

export const ferretdbPath = (cacheDir: string) => path.join(cacheDir, 'bin', 'ferretdb');
const builds = new Map<string, Promise<string>>();

/**
 * Patches of the vendored FerretDB source, each checked to apply; docs/database.md says why each
 * exists. FerretDB 1.24's SQLite backend pushes down only a filter that is exactly `{_id: <value>}`,
 * and wrote even that lookup so its own index was never used; every other find decoded every
 * document of the collection in Go. The patches (1) write the `_id` lookup as the `_id_` index has
 * it; (2) add pushdown*.go (scripts/ferretdb/patches/): a filter's conditions on
 * top-level string and number fields become a SQL prefilter on the expressions createIndex indexes,
 * and a sort on them with its limit (and a keyset $or) is pushed down when the whole filter is, with
 * plain_indexes.go: createIndex adds partial indexes over the rows whose key fields (after the
 * first) are odd strings, so the pushdown's branch for those rows reads only them; (3-6) hand the find's sort and limit to the
 * backend beside the `$natural` sort it already takes, and read the query (and its explain) from
 * pushdown.go.
 */
/** A replacement in a file of the module, or a file added from scripts/ferretdb/patches/. */
type Patch = { file: string; from: string; to: string } | { file: string; add: string };
const BACKEND = 'internal/backends/sqlite/collection.go';
const REGISTRY = 'internal/backends/sqlite/metadata/registry.go';
const PATCHES: Patch[] = [
  {
    file: 'internal/backends/sqlite/metadata/metadata.go',
    from: `IDColumn = DefaultColumn + "->'$._id'"`,
    to: `IDColumn = DefaultColumn + "->'_id'"`,
  },
  { file: 'internal/backends/sqlite/pushdown.go', add: 'pushdown.go' },
  { file: 'internal/backends/sqlite/pushdown_sql.go', add: 'pushdown_sql.go' },
  { file: 'internal/backends/sqlite/pushdown_or.go', add: 'pushdown_or.go' },
  { file: 'internal/backends/sqlite/pushdown_path.go', add: 'pushdown_path.go' },
  { file: 'internal/backends/sqlite/metadata/plain_indexes.go', add: 'plain_indexes.go' },
  {
    file: REGISTRY,
    from: '\tr.colls[dbName] = colls\n\n\treturn nil\n',
    // Indexes made before the partial indexes existed get them, in the background, when the database is opened.
    to: '\tr.colls[dbName] = colls\n\tr.addPlainIndexes(dbName, db, colls)\n\n\treturn nil\n',
  },
  {
    file: REGISTRY,
    from: '\t\tcreated = append(created, index.Name)\n\t\tc.Settings.Indexes = append(c.Settings.Indexes, index)\n',
    to: '\t\tcreated = append(created, index.Name)\n\t\tc.Settings.Indexes = append(c.Settings.Indexes, index)\n\n' +
      '\t\tif err := createPlainIndexes(ctx, db, c.TableName, index); err != nil {\n\t\t\t_ = r.indexesDrop(ctx, dbName, collectionName, created)\n\t\t\treturn lazyerrors.Error(err)\n\t\t}\n',
  },
  {
    file: REGISTRY,
    from: '\t\tq := fmt.Sprintf("DROP INDEX %q", c.TableName+"_"+name)\n\t\tif _, err := db.ExecContext(ctx, q); err != nil {\n\t\t\treturn lazyerrors.Error(err)\n\t\t}\n',
    to: '\t\tq := fmt.Sprintf("DROP INDEX %q", c.TableName+"_"+name)\n\t\tif _, err := db.ExecContext(ctx, q); err != nil {\n\t\t\treturn lazyerrors.Error(err)\n\t\t}\n\n' +
      '\t\tif err := dropPlainIndexes(ctx, db, c.TableName, c.Settings.Indexes[i]); err != nil {\n\t\t\treturn lazyerrors.Error(err)\n\t\t}\n',
  },
  {
    file: 'internal/backends/collection.go',
    from: '\tOnlyRecordIDs bool\n',
    to: '\tOnlyRecordIDs bool\n\n\t// A find\'s own sort and limit, which a backend may apply too (the handler does anyway).\n\tIndexSort  *types.Document\n\tIndexLimit int64\n\n' +
      '\t// The top-level fields a find reads of each document (nil: all); a backend may leave the others out.\n\tFields []string\n',
  },
  {
    file: 'internal/backends/collection.go',
    from: 'type ExplainParams struct {\n\tFilter *types.Document\n\tSort   *types.Document\n\tLimit  int64\n',
    to: 'type ExplainParams struct {\n\tFilter *types.Document\n\tSort   *types.Document\n\tLimit  int64\n\n\tIndexSort  *types.Document\n\tIndexLimit int64\n',
  },
  ...['internal/handler/msg_find.go', 'internal/handler/msg_explain.go'].map((file) => ({
    file,
    from: '\tif !h.DisablePushdown && params.Filter.Len() == 0 && params.Sort.Len() == 0 && params.Skip == 0 {\n',
    // Only with no top-level dotted key dropped from the filter: the backend must see it whole.
    to: '\tif !h.DisablePushdown && qp.Filter.Len() == params.Filter.Len() && params.Limit > 0 && params.Skip == 0 &&\n' +
      '\t\tparams.Sort.Len() > 0 && params.Sort.Keys()[0] != "$natural" {\n\t\tqp.IndexSort, qp.IndexLimit = params.Sort, params.Limit\n\t}\n\n' +
      '\tif !h.DisablePushdown && params.Filter.Len() == 0 && params.Sort.Len() == 0 && params.Skip == 0 {\n',
  })),
  // Updates of one collection one at a time, so that none is lost, and an upsert whose insert
  // loses to an insert run again, as MongoDB does (scripts/ferretdb/patches/upsert_race.go).
  { file: 'internal/handler/upsert_race.go', add: 'upsert_race.go' },
  {
    file: 'internal/handler/msg_update.go',
    from: '\tmatched, modified, upserted, err := h.updateDocument(connCtx, params)\n',
    to: '\tunlock := lockForUpdate(params.DB, params.Collection)\n\tmatched, modified, upserted, err := h.updateDocument(connCtx, params)\n\tunlock()\n',
  },
  {
    file: 'internal/handler/msg_findandmodify.go',
    from: '\tvar resDoc *types.Document\n\n\tres, err := h.findAndModifyDocument(connCtx, params)\n',
    to: '\tvar resDoc *types.Document\n\n\tunlock := lockForUpdate(params.DB, params.Collection)\n\tdefer unlock()\n\n\tres, err := h.findAndModifyDocument(connCtx, params)\n',
  },
  {
    file: 'internal/handler/msg_update.go',
    from: '\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)\n\t\tif err != nil {\n',
    to: '\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)\n\t\tif isUpsertRace(u.Upsert, err) {\n\t\t\tresult, err = h.upsertAgain(ctx, c, &u)\n\t\t}\n\n\t\tif err != nil {\n',
  },
  {
    file: 'internal/handler/msg_findandmodify.go',
    from: '\tres, err := h.findAndModifyDocument(connCtx, params)\n\tif err != nil {\n',
    to: '\tres, err := h.findAndModifyDocument(connCtx, params)\n\tif isUpsertRace(params.Upsert, err) {\n\t\tres, err = h.findAndModifyDocument(connCtx, params)\n\t}\n\n\tif err != nil {\n',
  },
  // One pass over a stored document instead of one per nesting level (scripts/ferretdb/patches/sjson_fast.go).
  { file: 'internal/handler/sjson/fast.go', add: 'sjson_fast.go' },
  {
    file: 'internal/handler/sjson/sjson.go',
    from: 'func Unmarshal(data []byte) (*types.Document, error) {\n',
    to: 'func Unmarshal(data []byte) (*types.Document, error) {\n\tif d, ok := fastUnmarshal(data, nil); ok {\n\t\treturn d, nil\n\t}\n\n',
  },
  // A find with an inclusion projection decodes only the top-level fields its projection, filter
  // and sort name (scripts/ferretdb/patches/find_fields.go, query_fields.go).
  { file: 'internal/handler/find_fields.go', add: 'find_fields.go' },
  { file: 'internal/backends/sqlite/query_fields.go', add: 'query_fields.go' },
  {
    file: 'internal/handler/msg_find.go',
    from: '\treturn qp, nil\n',
    to: '\tqp.Fields = findFields(params)\n\n\treturn qp, nil\n',
  },
  {
    file: BACKEND,
    from: '\t\tIter: newQueryIterator(ctx, rows, params.OnlyRecordIDs),\n',
    to: '\t\tIter: newFieldsQueryIterator(ctx, rows, params.OnlyRecordIDs, params.Fields),\n',
  },
  {
    file: 'internal/backends/sqlite/query_iterator.go',
    from: '\tonlyRecordIDs bool\n}\n',
    to: '\tonlyRecordIDs bool\n\tfields        map[string]struct{} // the top-level fields to decode; nil: all\n}\n',
  },
  {
    file: 'internal/backends/sqlite/query_iterator.go',
    from: '\t\tif doc, err = sjson.Unmarshal(b); err != nil {\n',
    to: '\t\tif doc, err = sjson.UnmarshalFields(b, iter.fields); err != nil {\n',
  },
  // A find with no projection returns each document as read: ProjectDocument copied it twice
  // and rebuilt it key by key, for any projection, empty included. A projection of top-level
  // fields picks them from the document without copying it (scripts/ferretdb/patches/projection_fast.go).
  {
    file: 'internal/handler/common/projection_iterator.go',
    from: '\tprojected, err := ProjectDocument(doc, iter.projection, iter.filter, iter.inclusion)\n',
    to: '\tif iter.projection.Len() == 0 {\n\t\treturn unused, doc, nil\n\t}\n\n' +
      '\tif iter.topLevel != nil {\n\t\treturn unused, iter.topLevel.project(doc), nil\n\t}\n\n' +
      '\tprojected, err := ProjectDocument(doc, iter.projection, iter.filter, iter.inclusion)\n',
  },
  { file: 'internal/handler/common/projection_fast.go', add: 'projection_fast.go' },
  {
    file: 'internal/handler/common/projection_iterator.go',
    from: '\tinclusion  bool\n}\n',
    to: '\tinclusion  bool\n\ttopLevel   *topLevelProjection\n}\n',
  },
  {
    file: 'internal/handler/common/projection_iterator.go',
    from: '\t\tinclusion:  inclusion,\n\t}\n',
    to: '\t\tinclusion:  inclusion,\n\t\ttopLevel:   newTopLevelProjection(projectionValidated, inclusion),\n\t}\n',
  },
  // A reply is not decoded again, whole, to look for NaNs: FerretDB turns that check on for what
  // clients send, and the wire module ran it on every reply built too (a tenth of a large read).
  // Its own module, vendored beside FerretDB's; messages read from clients are still checked.
  {
    file: '../wire/op_msg.go',
    from: '\tvar msg OpMsg\n\tif err = msg.SetSections(OpMsgSection{documents: []wirebson.RawDocument{raw}}); err != nil {\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n',
    to: '\tvar msg OpMsg\n\tmsg.sections = []OpMsgSection{{documents: []wirebson.RawDocument{raw}}}\n\n\tif Debug {\n\t\tif err = msg.check(); err != nil {\n\t\t\treturn nil, lazyerrors.Error(err)\n\t\t}\n\t}\n',
  },
  // A find cursor makes its next documents while the client decodes the last batch, instead of
  // when the client asks (scripts/ferretdb/patches/read_ahead.go); tailable cursors as before.
  { file: 'internal/handler/read_ahead.go', add: 'read_ahead.go' },
  {
    file: 'internal/handler/msg_find.go',
    from: '\tif params.AwaitData {\n\t\tt = cursor.TailableAwait\n\t}\n\n\tc := h.cursors.NewCursor(ctx, iter, &cursor.NewParams{\n',
    to: '\tif params.AwaitData {\n\t\tt = cursor.TailableAwait\n\t}\n\n\tif t == cursor.Normal {\n\t\titer = readAhead(iter)\n\t}\n\n\tc := h.cursors.NewCursor(ctx, iter, &cursor.NewParams{\n',
  },
  // A deleteMany of more documents than SQLite binds variables (32,766) failed and deleted none:
  // the ids are now deleted in chunks (scripts/ferretdb/patches/delete_chunks.go).
  { file: 'internal/backends/sqlite/delete_chunks.go', add: 'delete_chunks.go' },
  {
    file: BACKEND,
    from: '\tq := fmt.Sprintf(`DELETE FROM %q WHERE %s IN (%s)`, meta.TableName, column, strings.Join(placeholders, ", "))\n\n\tres, err := db.ExecContext(ctx, q, args...)\n\tif err != nil {\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n\n\tra, err := res.RowsAffected()\n\tif err != nil {\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n',
    to: '\t_ = placeholders\n\n\tra, err := deleteInChunks(ctx, db, meta.TableName, column, args)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n',
  },
  // `$push` with `$each` honours `$slice` (scripts/ferretdb/patches/push_slice.go): FerretDB
  // accepted it and ignored it, so a version's capped list of writes took a second update to cut.
  { file: 'internal/handler/common/push_slice.go', add: 'push_slice.go' },
  {
    file: 'internal/handler/common/update_array_operators.go',
    from: '\tif err = doc.SetByPath(path, array); err != nil {\n\t\treturn false, lazyerrors.Error(err)\n\t}\n\n\treturn changed, nil\n}\n\n// processAddToSetArrayUpdateExpression',
    to: '\tsliced, err := pushSlice(command, pushVal, array)\n\tif err != nil {\n\t\treturn false, err\n\t}\n\n\tif sliced != array {\n\t\tarray, changed = sliced, true\n\t}\n\n\tif err = doc.SetByPath(path, array); err != nil {\n\t\treturn false, lazyerrors.Error(err)\n\t}\n\n\treturn changed, nil\n}\n\n// processAddToSetArrayUpdateExpression',
  },
  // A leak-tracking aid for FerretDB's debug builds; in a release build it still recorded a stack
  // and set a finalizer for every iterator, one per document and per embedded document sent.
  ...['func Track(obj any, token *Token) {\n', 'func Untrack(obj any, token *Token) {\n'].map((from) => ({
    file: 'internal/util/resource/resource.go',
    from,
    to: `${from}\tif !debugbuild.Enabled {\n\t\treturn\n\t}\n\n`,
  })),
  {
    file: BACKEND,
    from: '\tvar whereClause string\n\tvar args []any\n\n\t// that logic should exist in one place\n\t// TODO https://github.com/FerretDB/FerretDB/issues/3235\n\tif params.Filter.Len() == 1 {\n\t\tv, _ := params.Filter.Get("_id")\n\t\tswitch v.(type) {\n\t\tcase string, types.ObjectID:\n\t\t\twhereClause = fmt.Sprintf(` WHERE %s = ?`, metadata.IDColumn)\n\t\t\targs = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}\n\t\t}\n\t}\n\n\tq += whereClause\n',
    to: '\tq, args, _ := pushdownQuery(q, meta.Capped() || params.Sort.Len() != 0, params.Filter, params.IndexSort, params.IndexLimit)\n',
  },
  {
    file: BACKEND,
    from: '\tvar filterPushdown bool\n\tvar whereClause string\n\tvar args []any\n\n\t// that logic should exist in one place\n\t// TODO https://github.com/FerretDB/FerretDB/issues/3235\n\tif params.Filter.Len() == 1 {\n\t\tv, _ := params.Filter.Get("_id")\n\t\tswitch v.(type) {\n\t\tcase string, types.ObjectID:\n\t\t\tfilterPushdown = true\n\t\t\twhereClause = fmt.Sprintf(` WHERE %s = ?`, metadata.IDColumn)\n\t\t\targs = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}\n\t\t}\n\t}\n',
    to: '\twhereClause, args, filterPushdown := pushdownQuery(selectClause, meta.Capped() || params.Sort.Len() != 0, params.Filter, params.IndexSort, params.IndexLimit)\n\tselectClause = ""\n',
  },
];
/** Beside the binary: the patches it was built with, so a binary built before them is built again. */
const stampOf = (binary: string) => `${binary}.patches`;
export const STAMP = JSON.stringify(PATCHES.map((patch) => 'add' in patch ? { ...patch, source: fs.readFileSync(path.join(PATCH_DIR, patch.add), 'utf8') } : patch));

export async function buildFerretDB(cacheDir: string, log: (m: string) => void): Promise<string> {
  const binary = path.resolve(ferretdbPath(cacheDir));
  if (await isExecutable(binary) && await fsp.readFile(stampOf(binary), 'utf8').catch(() => '') === STAMP) return binary;
  let build = builds.get(binary);
  if (!build) {
    build = buildInto(binary, path.resolve(cacheDir), log).finally(() => builds.delete(binary));
    builds.set(binary, build);
  }
  return build;
}

async function buildInto(binary: string, cacheDir: string, log: (m: string) => void): Promise<string> {
  const version = await ferretdbVersion();
  // GOTOOLCHAIN=local: use the installed Go, never fetch another toolchain.
  const env = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '' };
  const go = await run('go', ['version'], { env }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('cannot build FerretDB: the Go toolchain (`go`) is not on PATH; install Go >= 1.24');
    }
    throw error;
  });
  log(`database: building FerretDB ${version} with ${go.trim()} into ${binary} (a few minutes the first time)`);
  const started = Date.now();
  await fsp.mkdir(path.dirname(binary), { recursive: true });
  // Private source dir and temp binary, then an atomic rename: racing builds cannot clash.
  const src = await fsp.mkdtemp(path.join(cacheDir, 'ferretdb-src-'));
  const temp = path.join(path.dirname(binary), `.ferretdb.${process.pid}.${randomBytes(4).toString('hex')}`);
  try {
    for (const file of ['go.mod', 'go.sum', 'tools.go']) {
      await fsp.copyFile(path.join(FERRETDB_MODULE_DIR, file), path.join(src, file));
    }
    await run('go', ['mod', 'vendor'], { cwd: src, env: { ...env, GOFLAGS: '-mod=mod' } });
    // The module zip lacks this generated file; FerretDB embeds it and panics without it.
    const versionDir = path.join(src, 'vendor', 'github.com', 'FerretDB', 'FerretDB', 'build', 'version');
    await fsp.mkdir(versionDir, { recursive: true });
    await fsp.writeFile(path.join(versionDir, 'version.txt'), `${version}\n`);
    await applyPatches(path.join(src, 'vendor', 'github.com', 'FerretDB', 'FerretDB'));
    await run('go', ['build', '-mod=vendor', '-trimpath', '-o', temp, 'github.com/FerretDB/FerretDB/cmd/ferretdb'], { cwd: src, env });
    const printed = await run(temp, ['--version'], { env });
    if (!printed.includes(version)) throw new Error(`built FerretDB reports an unexpected version: ${oneLine(printed)}`);
    await fsp.rename(temp, binary);
    await fsp.writeFile(stampOf(binary), STAMP);
  } finally {
    await fsp.rm(temp, { force: true });
    await fsp.rm(src, { recursive: true, force: true });
  }
  log(`database: built FerretDB in ${Math.round((Date.now() - started) / 1000)} s`);
  return binary;
}

/** Applies PATCHES to the FerretDB module's source in moduleDir, the vendored modules beside it by `../` (exported for working on them by hand). */
export async function applyPatches(moduleDir: string): Promise<void> {
  for (const patch of PATCHES) {
    const full = path.join(moduleDir, patch.file);
    if ('add' in patch) {
      await fsp.copyFile(path.join(PATCH_DIR, patch.add), full);
      continue;
    }
    const source = await fsp.readFile(full, 'utf8');
    if (!source.includes(patch.from)) throw new Error(`cannot patch FerretDB: ${patch.file} no longer holds ${patch.from}`);
    await fsp.writeFile(full, source.replace(patch.from, patch.to));
  }
}

async function ferretdbVersion(): Promise<string> {
  const goMod = await fsp.readFile(path.join(FERRETDB_MODULE_DIR, 'go.mod'), 'utf8');
  const match = /github\.com\/FerretDB\/FerretDB\s+(v\d+\.\d+\.\d+\S*)/.exec(goMod);
  if (!match?.[1]) throw new Error(`no FerretDB version in ${FERRETDB_MODULE_DIR}/go.mod`);
  return match[1];
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await fsp.access(file, fs.constants.X_OK);
    return (await fsp.stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Runs a command to completion; resolves with stdout, rejects with the tail of its output. */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    const keep = (s: string) => s.slice(-4000);
    child.stdout.on('data', (d: Buffer) => ((stdout = keep(stdout + d)), (output = keep(output + d))));
    child.stderr.on('data', (d: Buffer) => (output = keep(output + d)));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`\`${command} ${args.join(' ')}\` failed (${signal ?? `exit ${code}`}):\n${output.trim()}`));
    });
  });
}
