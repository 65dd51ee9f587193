// Added to FerretDB's SQLite backend by the catalog's build (server/database/embedded/build-ferretdb.ts).

package sqlite

import (
	"strings"
	"time"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// A filter's $or (the keyset cursor of a sort by other fields than id is one: "after k1, or equal
// k1 and after k2, ...") goes down with the sort, to the regular branch only, where the fields it
// names are sort keys and so plain strings or plain dates (a string's JSON text is below '#', a
// date's from '1' on): there `$gt`, `$eq` and `$type` on them are exact as SQL on their JSON text
// kept to the type compared, and `null` never matches. The other branches hold every row it
// might match.

// translateOrs writes the filter's $or conditions as SQL for the regular branch, where the sort's
// keys are plain strings (a keyset cursor of a sort is an $or of them); false if one cannot be.
func (p *pushdown) translateOrs(sortKeys []string) bool {
	sorted := map[string]bool{}

	for _, key := range sortKeys {
		if f := p.find(key); f == nil || len(f.eqs) == 0 || len(f.bounds) > 0 || f.sorted {
			sorted[key] = true
		}
	}

	ordered := func(name string) bool {
		f := p.find(name)
		return sorted[name] || (f != nil && f.ordered())
	}

	for _, arr := range p.ors {
		sql, args, ok := translateAny("$or", arr, ordered)
		if !ok {
			return false
		}

		p.or = append(p.or, sql)
		p.orArgs = append(p.orArgs, args...)
	}

	return true
}

// translateAny: an $or or $and of documents.
func translateAny(op string, v any, ordered func(string) bool) (string, []any, bool) {
	arr, ok := v.(*types.Array)
	if !ok || arr.Len() == 0 {
		return "", nil, false
	}

	var parts []string
	var args []any

	for i := 0; i < arr.Len(); i++ {
		d, ok := must.NotFail(arr.Get(i)).(*types.Document)
		if !ok {
			return "", nil, false
		}

		sql, a, ok := translateDocument(d, ordered)
		if !ok {
			return "", nil, false
		}

		parts = append(parts, sql)
		args = append(args, a...)
	}

	join := " AND "
	if op == "$or" {
		join = " OR "
	}

	return "(" + strings.Join(parts, join) + ")", args, true
}

func translateDocument(d *types.Document, ordered func(string) bool) (string, []any, bool) {
	conds := []string{"1"}
	var args []any

	keys, values := d.Keys(), d.Values()
	for i, key := range keys {
		var sql string
		var a []any
		ok := false

		switch {
		case key == "$or" || key == "$and":
			sql, a, ok = translateAny(key, values[i], ordered)
		case pushdownName.MatchString(key) && ordered(key):
			sql, a, ok = translateField(key, values[i])
		}

		if !ok {
			return "", nil, false
		}

		conds = append(conds, sql)
		args = append(args, a...)
	}

	return "(" + strings.Join(conds, " AND ") + ")", args, true
}

// translateField: a condition on a field that is a plain string or a plain date wherever the SQL applies.
func translateField(name string, v any) (string, []any, bool) {
	e := metadata.DefaultColumn + "->'" + name + "'"

	switch v := v.(type) {
	case string, time.Time:
		return e + " = ?", []any{pushdownText(v)}, true
	case types.NullType:
		return "0", nil, true
	case *types.Document:
		if v.Len() == 0 || !strings.HasPrefix(v.Keys()[0], "$") {
			return "", nil, false
		}

		conds := []string{"1"}
		var args []any

		ops, values := v.Keys(), v.Values()
		for i, op := range ops {
			_, isString := values[i].(string)
			_, isDate := values[i].(time.Time)
			sqlOp, isRange := pushdownOps[op]

			switch {
			case op == "$eq" && (isString || isDate):
				conds = append(conds, e+" = ?")
				args = append(args, pushdownText(values[i]))
			case isRange && isString && pushdownPlain(pushdownText(values[i])):
				// Strings only: a date's text is above any string's.
				conds = append(conds, e+" "+sqlOp+" ?", e+" < '#'")
				args = append(args, pushdownText(values[i]))
			case isRange && isDate && pushdownPlainDate(pushdownText(values[i])):
				// Dates only: a string's text is below any date's.
				conds = append(conds, e+" "+sqlOp+" ?", e+" >= '1'")
				args = append(args, pushdownText(values[i]))
			case op == "$type":
				strs, dates, ok := pushdownTypeNames(values[i])
				if !ok {
					return "", nil, false
				}

				switch {
				case strs && !dates:
					conds = append(conds, e+" < '#'")
				case dates && !strs:
					conds = append(conds, e+" >= '1'")
				case !strs && !dates:
					conds = append(conds, "0")
				}
			default:
				return "", nil, false
			}
		}

		return "(" + strings.Join(conds, " AND ") + ")", args, true
	}

	return "", nil, false
}

// pushdownTypeNames: whether $type's argument (a name, a number, or an array of them) names string,
// and whether it names date.
func pushdownTypeNames(v any) (bool, bool, bool) {
	var n float64

	switch v := v.(type) {
	case string:
		return v == "string", v == "date", true
	case int32:
		n = float64(v)
	case int64:
		n = float64(v)
	case float64:
		n = v
	case *types.Array:
		var strs, dates bool

		for i := 0; i < v.Len(); i++ {
			s, d, ok := pushdownTypeNames(must.NotFail(v.Get(i)))
			if !ok {
				return false, false, false
			}

			strs, dates = strs || s, dates || d
		}

		return strs, dates, true
	default:
		return false, false, false
	}

	return n == 2, n == 9, true
}
