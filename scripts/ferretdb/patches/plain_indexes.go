// Added to FerretDB's SQLite backend by the catalog's build (server/database/embedded/build-ferretdb.ts).

package metadata

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"

	"github.com/FerretDB/FerretDB/internal/util/fsql"
)

// The pushdown (../pushdown.go) orders and ranges over a field by its JSON text only where the
// field is a "plain" string; the rows where it is not have branches of their own, which must not
// cost a read of every row their equalities select. Most such rows are index ranges of the
// field's JSON text: missing (NULL), or not a string (a number, a date, an array, an object, true,
// false or null: text from '#' on, as JSON text starts with '"', '[', '{', '-', a digit or a
// letter). The others are strings that are not plain (an escape, a byte below '#', an ObjectId,
// binData or regex, which sjson writes as strings too), which no range finds: so each index
// createIndex makes gets, for each of its top-level key fields, a partial index with the same
// columns over just those rows, none at all in a catalog whose ids and keys are plain strings.
// SQLite uses a partial index when the query's WHERE holds its WHERE term as written, which is
// why both are written by OddStringSQL.

// PlainName is a field name the pushdown writes into SQL (as a JSON path label): top-level, no quoting needed.
var PlainName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// PlainSQL is true where the field is a string whose JSON text orders as the string does: no
// escape, no byte below '#' (which would sort before the closing quote). An ObjectId, binData
// or regex is written as a JSON string too: the second test, on the document's text (no JSON
// parse), finds the type sjson gives the field (and, harmlessly, the same text anywhere else).
func PlainSQL(field string) string {
	expr := DefaultColumn + "->'" + field + "'"

	return fmt.Sprintf(
		`coalesce(%[1]s > '"' AND %[1]s < '#' AND instr(%[1]s, '\') = 0 AND instr(%[1]s, ' ') = 0 AND instr(%[1]s, '!') = 0, 0) AND `+
			`NOT (instr(%[2]s, '"%[3]s":{"t":"objectId"}') OR instr(%[2]s, '"%[3]s":{"t":"binData"') OR instr(%[2]s, '"%[3]s":{"t":"regex"'))`,
		expr, DefaultColumn, field,
	)
}

// OddStringSQL is true where the field's JSON text is a string's but the field is not plain: the
// WHERE of the partial indexes, and the term of the pushdown's branch for those rows.
func OddStringSQL(field string) string {
	expr := DefaultColumn + "->'" + field + "'"

	return fmt.Sprintf(`coalesce(%[1]s > '"' AND %[1]s < '#', 0) AND NOT (%[2]s)`, expr, PlainSQL(field))
}

// plainIndexName is the partial index of index's key field i: `$` keeps it apart from the
// `<table>_<name>` of an index a client names.
func plainIndexName(table string, index IndexInfo, i int) string {
	return fmt.Sprintf("%s_%s$odd%d", table, index.Name, i)
}

// createPlainIndexes makes index's partial indexes where they are missing (a new index's, or
// those addPlainIndexes makes for indexes made before this build).
func createPlainIndexes(ctx context.Context, db *fsql.DB, table string, index IndexInfo) error {
	columns := make([]string, 0, len(index.Key))

	for _, key := range index.Key {
		if !PlainName.MatchString(key.Field) {
			return nil
		}

		column := fmt.Sprintf("%s->%q", DefaultColumn, key.Field)
		if key.Descending {
			column += " DESC"
		}

		columns = append(columns, column)
	}

	for i, key := range index.Key {
		name := plainIndexName(table, index, i)
		q := fmt.Sprintf("CREATE INDEX IF NOT EXISTS %q ON %q (%s) WHERE %s", name, table, strings.Join(columns, ", "), OddStringSQL(key.Field))

		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}

		// Without statistics SQLite's planner took another index with the same equalities and
		// tested every row; the count of this one's rows (none, mostly) makes it take this one.
		// Reading it costs what it holds. A count grown stale only understates it, and the
		// planner can use it for nothing but the odd strings' branch.
		if _, err := db.ExecContext(ctx, fmt.Sprintf("ANALYZE %q", name)); err != nil {
			return err
		}
	}

	return nil
}

// dropPlainIndexes drops index's partial indexes (dropping the table drops them with it).
func dropPlainIndexes(ctx context.Context, db *fsql.DB, table string, index IndexInfo) error {
	for i := range index.Key {
		if _, err := db.ExecContext(ctx, fmt.Sprintf("DROP INDEX IF EXISTS %q", plainIndexName(table, index, i))); err != nil {
			return err
		}
	}

	return nil
}

// addPlainIndexes makes, in the background, the partial indexes that the indexes of a database
// opened at start-up lack (made before this build): building them reads every row, minutes for
// a large database, which must not hold up the start. Until one is made, its branch reads the
// rows its equalities select, as before. An index dropped meanwhile is skipped.
func (r *Registry) addPlainIndexes(dbName string, db *fsql.DB, colls map[string]*Collection) {
	type pending struct {
		collection, table string
		index             IndexInfo
	}

	var todo []pending

	for name, c := range colls {
		for _, index := range c.Settings.Indexes {
			todo = append(todo, pending{name, c.TableName, index})
		}
	}

	go func() {
		for _, p := range todo {
			r.rw.RLock()
			c := r.collectionGet(dbName, p.collection)
			kept := c != nil && c.TableName == p.table && slices.ContainsFunc(c.Settings.Indexes, func(i IndexInfo) bool { return i.Name == p.index.Name })
			r.rw.RUnlock()

			if !kept {
				continue
			}

			if err := createPlainIndexes(context.Background(), db, p.table, p.index); err != nil {
				r.l.Warn("partial index of odd strings not made", slog.String("table", p.table), slog.String("index", p.index.Name), slog.Any("error", err))
			}
		}
	}()
}
