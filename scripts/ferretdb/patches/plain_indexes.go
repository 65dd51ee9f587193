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
// field is a "plain" string or a "plain" date (13 digits of milliseconds: 2001 to 2286); the rows
// where it is neither have branches of their own, which must not cost a read of every row their
// equalities select. Most such rows are index ranges of the field's JSON text: missing (NULL),
// text from '#' up to '1' (a negative number, 0), or from ':' on (an array, an object, true,
// false, null), as JSON text starts with '"', '[', '{', '-', a digit or a letter. The others are
// "odd" strings (an escape, a space or '!', which sort before the closing quote; an ObjectId,
// binData or regex, which sjson writes as strings too) and "odd" numbers (text from '1' to '9' that
// is no plain date: a number, a timestamp, a date before 2001), which no range finds: so each
// index gets, for each top-level key field after its first (an index's first field is its
// equality, as `versionId` is the catalog's; a one-field index's field is its range), two partial
// indexes with its columns over just the rows where that field is an odd string, and an odd
// number: none at all in a catalog whose ids and keys are plain strings and whose dates are
// plain. The columns matter: SQLite's planner takes a partial index over another index on the
// same equalities only when it SEARCHes them too. It uses a partial index when the query's WHERE
// holds its WHERE term as written, which is why both are written by OddStringSQL and
// OddNumberSQL; each insert evaluates them once per such index and field.

// PlainName is a field name the pushdown writes into SQL (as a JSON path label): top-level, no quoting needed.
var PlainName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// PlainSQL is true where the field is a string whose JSON text orders as the string does.
func PlainSQL(field string) string {
	expr := DefaultColumn + "->'" + field + "'"

	return fmt.Sprintf(`%[1]s GLOB '"*' AND NOT (%[2]s)`, expr, oddSQL(field))
}

// PlainBoundedSQL is PlainSQL for a field ranged over by plain strings' texts, below (lower) or
// above (upper) or both, each of which starts with '"': written as the range it is on the side no
// bound closes, so that SQLite bounds its SEARCH by the condition's own bounds. PlainSQL's GLOB
// '"*' is a range of the field too (from '"' to '#'), and SQLite takes one lower and one upper
// bound a column: beside a cursor's `>= ?` it took the GLOB's and tested every row of the version
// before the cursor, so a page cost its depth (a version's last page of 30,168 parameters, 100
// times its first).
func PlainBoundedSQL(field string, lower, upper bool) string {
	expr := DefaultColumn + "->'" + field + "'"
	conds := []string{}

	if !lower {
		conds = append(conds, expr+` >= '"'`)
	}

	if !upper {
		conds = append(conds, expr+` < '#'`)
	}

	return strings.Join(append(conds, "NOT ("+oddSQL(field)+")"), " AND ")
}

// PlainDateSQL is true where the field is a date from 2001-09-09 to 2286-11-20: sjson writes a
// date as its milliseconds since the epoch, there a JSON number of 13 digits, whose text orders as
// the date does, and after every string's (which starts with '"'), as MongoDB orders strings before
// dates. A number or a timestamp written alike is not one: the document's schema says "date".
func PlainDateSQL(field string) string {
	expr := DefaultColumn + "->'" + field + "'"

	return fmt.Sprintf(`%[1]s GLOB '[1-9]%[4]s' AND %[2]s->>'$."$s".p.%[3]s.t' = 'date'`, expr, DefaultColumn, field, strings.Repeat("[0-9]", 12))
}

// OddNumberSQL is true where the field's JSON text starts with a digit from 1 to 9 (a number, a
// date, a timestamp) but the field is no plain date: the WHERE of the second partial indexes, and
// the term of the pushdown's branch for those rows, which no range of the text separates from the
// plain dates ("2.5" and "1e+21" sort among them).
func OddNumberSQL(field string) string {
	expr := DefaultColumn + "->'" + field + "'"

	return fmt.Sprintf(`unicode(%[1]s) BETWEEN 49 AND 57 AND NOT (%[2]s)`, expr, PlainDateSQL(field))
}

// OddStringSQL is true where the field's JSON text is a string's but the field is not plain: the
// WHERE of the partial indexes, and the term of the pushdown's branch for those rows. It says
// "a string" with instr, not PlainSQL's GLOB, which SQLite turns into a range of the field on
// any index keyed on it: the planner then searched the version's strings and tested each.
func OddStringSQL(field string) string {
	expr := DefaultColumn + "->'" + field + "'"

	return fmt.Sprintf(`(%[2]s) AND instr(%[1]s, '"') = 1`, expr, oddSQL(field))
}

// oddSQL: sjson gives the field a type it writes as a string (the type in the document's
// schema, `$s`), or its JSON text holds a byte that sorts before the closing quote: a space, '!',
// or the '\' of an escape (the other bytes below '#' are escaped). SQLite parses a document's
// JSON once for all of an insert's partial indexes; these are lookups in it.
func oddSQL(field string) string {
	expr := DefaultColumn + "->'" + field + "'"

	return fmt.Sprintf(
		`%[2]s->>'$."$s".p.%[3]s.t' IN ('objectId', 'binData', 'regex') OR %[1]s GLOB '*[ !\]*'`,
		expr, DefaultColumn, field,
	)
}

// plainIndexName is index's partial index of key field i over the rows odd by kind ("odd": odd
// strings; "num": odd numbers): `$` keeps it apart from the `<table>_<name>` of an index a client names.
func plainIndexName(table string, index IndexInfo, kind string, i int) string {
	return fmt.Sprintf("%s_%s$%s%d", table, index.Name, kind, i)
}

// oddKinds are the partial indexes of each key field: its odd strings, its odd numbers.
var oddKinds = []struct {
	name string
	sql  func(field string) string
}{{"odd", OddStringSQL}, {"num", OddNumberSQL}}

// plainFields are the positions of index's key fields that get a partial index; none when a key
// field is not top-level (the pushdown writes no SQL for it).
func plainFields(index IndexInfo) []int {
	var fields []int

	for i, key := range index.Key {
		if !PlainName.MatchString(key.Field) {
			return nil
		}

		if i > 0 || len(index.Key) == 1 {
			fields = append(fields, i)
		}
	}

	return fields
}

// createPlainIndexes makes index's partial indexes where they are missing (a new index's, or
// those addPlainIndexes makes for indexes made before this build).
func createPlainIndexes(ctx context.Context, db *fsql.DB, table string, index IndexInfo) error {
	columns := make([]string, len(index.Key))

	for i, key := range index.Key {
		columns[i] = fmt.Sprintf("%s->%q", DefaultColumn, key.Field)
		if key.Descending {
			columns[i] += " DESC"
		}
	}

	for _, i := range plainFields(index) {
		for _, kind := range oddKinds {
			name := plainIndexName(table, index, kind.name, i)
			q := fmt.Sprintf("CREATE INDEX IF NOT EXISTS %q ON %q (%s) WHERE %s", name, table, strings.Join(columns, ", "), kind.sql(index.Key[i].Field))

			if _, err := db.ExecContext(ctx, q); err != nil {
				return err
			}

			// Without statistics SQLite's planner took another index with the same equalities and
			// tested every row; the count of this one's rows (none, mostly) makes it take this one.
			// Reading it costs what it holds. A count grown stale only understates it, and the
			// planner can use it for nothing but the odd rows' branch.
			if _, err := db.ExecContext(ctx, fmt.Sprintf("ANALYZE %q", name)); err != nil {
				return err
			}
		}
	}

	return nil
}

// dropPlainIndexes drops index's partial indexes (dropping the table drops them with it).
func dropPlainIndexes(ctx context.Context, db *fsql.DB, table string, index IndexInfo) error {
	for _, i := range plainFields(index) {
		for _, kind := range oddKinds {
			if _, err := db.ExecContext(ctx, fmt.Sprintf("DROP INDEX IF EXISTS %q", plainIndexName(table, index, kind.name, i))); err != nil {
				return err
			}
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
