// Added to FerretDB's SQLite backend by the catalog's build (server/database/embedded/build-ferretdb.ts).

package sqlite

import (
	"fmt"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
)

// The SQL of a pushdown (pushdown.go): each field's regular and array conditions, and the branches.

// expr is the expression createIndex indexes the field by.
func (f *pushdownField) expr() string {
	return metadata.DefaultColumn + "->'" + f.name + "'"
}

// plain: the field is a string whose JSON text orders as the string does (metadata.PlainSQL).
func (f *pushdownField) plain() string {
	return metadata.PlainSQL(f.name)
}

// typeExpr is the field's sjson type.
func (f *pushdownField) typeExpr() string {
	return metadata.DefaultColumn + `->>'$."$s".p.` + f.name + `.t'`
}

func (f *pushdownField) ordered() bool { return len(f.bounds) > 0 || f.sorted }

func (f *pushdownField) regular(exact bool) (string, []any) {
	var conds []string
	var args []any

	for _, texts := range f.eqs {
		conds = append(conds, f.expr()+" IN (?"+strings.Repeat(", ?", len(texts)-1)+")")
		for _, text := range texts {
			args = append(args, text)
		}
	}

	for _, b := range f.bounds {
		conds = append(conds, f.expr()+" "+b.op+" ?")
		args = append(args, b.text)
	}

	if f.ordered() {
		conds = append(conds, f.plain())
	}

	if exact && !f.ordered() {
		conds = append(conds, f.typeExpr()+" IN (?, ?, ?)")
		if f.typ == "number" {
			args = append(args, "int", "long", "double")
		} else {
			args = append(args, f.typ, f.typ, f.typ)
		}
	}

	return strings.Join(conds, " AND "), args
}

// arrays: the field's values that are arrays (JSON text starting with '['), an index range;
// empty for _id, which is never an array, and for a field ordered by, whose branch is its own.
func (f *pushdownField) arrays() string {
	if f.ordered() || f.name == "_id" {
		return ""
	}

	return fmt.Sprintf(`%[1]s >= '[' AND %[1]s < '\'`, f.expr())
}

// query: one branch per combination of the equality fields holding their value or an array (no
// condition on the ordered fields when one is an array); where all hold their value, one branch
// where all ordered fields are plain strings (ordered and limited when the sort is pushed down)
// and, for each ordered field, one where it is the first that is not: its term is the WHERE of
// the partial index createIndex made for that field (metadata/plain_indexes.go), so the branch
// SEARCHes that index, which holds only the rows where the field is not plain.
func (p *pushdown) query(selectClause string) (string, []any) {
	var branches []string
	var ordered, split []*pushdownField
	var args []any

	for _, f := range p.fields {
		if f.arrays() != "" {
			split = append(split, f)
		}

		if f.ordered() {
			ordered = append(ordered, f)
		}
	}

	for mask := 0; mask < 1<<len(split); mask++ {
		var conds []string
		var condArgs []any

		for _, f := range p.fields {
			switch i := indexOf(split, f); {
			case i >= 0 && mask&(1<<i) != 0:
				conds = append(conds, f.arrays())
			case mask == 0 || !f.ordered():
				cond, a := f.regular(mask == 0 && p.limit > 0)
				conds = append(conds, cond)
				condArgs = append(condArgs, a...)
			}
		}

		if mask == 0 && p.limit > 0 {
			conds = append(conds, p.or...)
			condArgs = append(condArgs, p.orArgs...)
		}

		branch := selectClause + " WHERE " + strings.Join(conds, " AND ")
		args = append(args, condArgs...)

		if mask == 0 && p.limit > 0 {
			if len(p.order) > 0 {
				branch += " ORDER BY " + strings.Join(p.order, ", ")
			}

			branch = "SELECT * FROM (" + branch + " LIMIT ?)"
			args = append(args, p.limit)
		}

		branches = append(branches, branch)

		if mask == 0 {
			for i := range ordered {
				branch, a := p.notPlain(selectClause, ordered[:i], ordered[i])
				branches = append(branches, branch)
				args = append(args, a...)
			}
		}
	}

	return strings.Join(branches, " UNION ALL "), args
}

// notPlain: the rows where the equalities hold, the fields before are plain and first is not.
func (p *pushdown) notPlain(selectClause string, before []*pushdownField, first *pushdownField) (string, []any) {
	var conds []string
	var args []any

	for _, f := range p.fields {
		if !f.ordered() {
			cond, a := f.regular(false)
			conds = append(conds, cond)
			args = append(args, a...)
		}
	}

	for _, f := range before {
		conds = append(conds, f.plain())
	}

	conds = append(conds, metadata.NotPlainSQL(first.name))

	return selectClause + " WHERE " + strings.Join(conds, " AND "), args
}

func indexOf(fields []*pushdownField, f *pushdownField) int {
	for i, g := range fields {
		if g == f {
			return i
		}
	}

	return -1
}
