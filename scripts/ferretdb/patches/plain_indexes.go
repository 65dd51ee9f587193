// Added to FerretDB's SQLite backend by the catalog's build (server/database/embedded/build-ferretdb.ts).

package metadata

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/FerretDB/FerretDB/internal/util/fsql"
)

// The pushdown (../pushdown.go) orders and ranges over a field by its JSON text only where the
// field is a "plain" string; the rows where it is not have a branch of their own, which must not
// cost a read of every row its equalities select. So each index createIndex makes gets, for each
// of its top-level key fields, a partial index with the same columns over just the rows where
// that field is not plain: none at all in a catalog whose ids and keys are plain strings, so that
// branch SEARCHes an empty index. SQLite uses a partial index when the query's WHERE holds its
// WHERE term as written, which is why both are written by PlainSQL.

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

// NotPlainSQL is the WHERE of the partial indexes, and the term the pushdown's branch for rows where field is not plain must hold.
func NotPlainSQL(field string) string {
	return "NOT (" + PlainSQL(field) + ")"
}

// plainIndexName is the partial index of index's key field i: `$` keeps it apart from the
// `<table>_<name>` of an index a client names.
func plainIndexName(table string, index IndexInfo, i int) string {
	return fmt.Sprintf("%s_%s$np%d", table, index.Name, i)
}

// createPlainIndexes makes index's partial indexes where they are missing: for a new index, and
// for each index when a database is opened, so that indexes made before this build get them too.
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
		q := fmt.Sprintf(
			"CREATE INDEX IF NOT EXISTS %q ON %q (%s) WHERE %s",
			plainIndexName(table, index, i), table, strings.Join(columns, ", "), NotPlainSQL(key.Field),
		)

		if _, err := db.ExecContext(ctx, q); err != nil {
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
