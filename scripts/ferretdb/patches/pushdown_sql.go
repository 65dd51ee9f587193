// Added to FerretDB's SQLite backend by the catalog's build (server/database/embedded/build-ferretdb.ts).

package sqlite

import (
	"fmt"
	"slices"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
)

// The SQL of a pushdown (pushdown.go): each field's regular and array conditions, and the branches.

// expr is the expression createIndex indexes the field by.
func (f *pushdownField) expr() string {
	return metadata.DefaultColumn + "->'" + f.name + "'"
}

// plain: the field is a value of its conditions' type whose JSON text orders as the value does: a
// plain string (metadata.PlainSQL), a plain date (metadata.PlainDateSQL), or, for a sort key with
// no condition, either (strings' texts before dates', as MongoDB orders them).
func (f *pushdownField) plain() string {
	switch f.typ {
	case "date":
		return metadata.PlainDateSQL(f.name)
	case "ordered":
		return "((" + metadata.PlainSQL(f.name) + ") OR (" + metadata.PlainDateSQL(f.name) + "))"
	default:
		if lower, upper := f.bounded(); lower || upper {
			return metadata.PlainBoundedSQL(f.name, lower, upper)
		}

		return metadata.PlainSQL(f.name)
	}
}

// bounded: whether the field's conditions bound it below, above.
func (f *pushdownField) bounded() (lower, upper bool) {
	for _, b := range f.bounds {
		switch b.op {
		case ">", ">=":
			lower = true
		case "<", "<=":
			upper = true
		}
	}

	return lower, upper
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
	var branches []pushdownBranch
	var ordered, split []*pushdownField

	for _, f := range p.fields {
		if f.arrays() != "" {
			split = append(split, f)
		}

		if f.ordered() {
			ordered = append(ordered, f)
		}
	}

	for mask := 0; mask < 1<<len(split); mask++ {
		var b pushdownBranch

		for _, f := range p.fields {
			switch i := indexOf(split, f); {
			case i >= 0 && mask&(1<<i) != 0:
				b.conds = append(b.conds, f.arrays())
			case mask == 0 || !f.ordered():
				cond, a := f.regular(mask == 0 && p.limit > 0)
				b.conds = append(b.conds, cond)
				b.args = append(b.args, a...)
			}
		}

		switch {
		case mask == 0 && p.limit > 0 && len(p.keyset) > 0:
			branches = append(branches, p.keysetBranches(b)...)
		case mask == 0 && p.limit > 0:
			b.conds = append(b.conds, p.or...)
			b.args = append(b.args, p.orArgs...)
			b.limited = true
			branches = append(branches, b)
		default:
			branches = append(branches, b)
		}

		if mask == 0 {
			for i := range ordered {
				branches = append(branches, p.notPlain(ordered[:i], ordered[i])...)
			}
		}
	}

	var sqls []string
	var args []any

	for _, b := range branches {
		if len(p.alts) == 0 {
			sqls, args = b.sql(selectClause, p, sqls, args)
			continue
		}

		for _, alt := range p.alts {
			cut := pushdownBranch{conds: append(slices.Clone(b.conds), alt.cond), args: append(slices.Clone(b.args), alt.args...), limited: b.limited}
			sqls, args = cut.sql(selectClause, p, sqls, args)
		}
	}

	return strings.Join(sqls, " UNION ALL "), args
}

// pushdownBranch is one SELECT of the UNION ALL: its conditions, and whether it is the regular
// branch ordered and cut by the sort and limit pushed down.
type pushdownBranch struct {
	conds   []string
	args    []any
	limited bool
	order   []string // the branch's own ORDER BY, where it is not the find's (keysetBranches)
}

// sql appends the branch's SELECT and its arguments.
func (b pushdownBranch) sql(selectClause string, p *pushdown, sqls []string, args []any) ([]string, []any) {
	q := selectClause
	if len(b.conds) > 0 {
		q += " WHERE " + strings.Join(b.conds, " AND ")
	}

	args = append(args, b.args...)

	if b.limited {
		order := p.order
		if b.order != nil {
			order = b.order
		}

		if len(order) > 0 {
			q += " ORDER BY " + strings.Join(order, ", ")
		}

		q = "SELECT * FROM (" + q + " LIMIT ?)"
		args = append(args, p.limit)
	}

	return append(sqls, q), args
}

// notPlain: the rows where the equalities hold, the fields before are plain and first is neither
// a plain string nor a plain date, in five disjoint branches, each an index range: first is
// missing; its JSON text starts below '1' but is no string's (a negative number, 0); from ':' on
// (an array, an object, true, false, null); an odd number (from '1' to '9' but no plain date) or an
// odd string (the partial indexes of metadata/plain_indexes.go hold just those rows). A plain
// string or date that is not plain for first's conditions (a date, when they are a string's) is
// in none: it cannot match them.
func (p *pushdown) notPlain(before []*pushdownField, first *pushdownField) []pushdownBranch {
	var common pushdownBranch

	for _, f := range p.fields {
		if !f.ordered() {
			cond, a := f.regular(false)
			common.conds = append(common.conds, cond)
			common.args = append(common.args, a...)
		}
	}

	for _, f := range before {
		common.conds = append(common.conds, f.plain())
	}

	expr := first.expr()
	branches := make([]pushdownBranch, 0, 5)

	conds := []string{expr + " IS NULL", expr + " >= '#' AND " + expr + " < '1'", expr + " >= ':'", metadata.OddNumberSQL(first.name), metadata.OddStringSQL(first.name)}
	for _, cond := range conds {
		branches = append(branches, pushdownBranch{conds: append(slices.Clone(common.conds), cond), args: common.args})
	}

	return branches
}

func indexOf(fields []*pushdownField, f *pushdownField) int {
	for i, g := range fields {
		if g == f {
			return i
		}
	}

	return -1
}
