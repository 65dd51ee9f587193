// Added to FerretDB's SQLite backend by the catalog's build (server/database/embedded/build-ferretdb.ts).

package sqlite

import (
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// A filter's $or (the keyset cursor of a sort by other fields than id is one: "after k1, or equal
// k1 and after k2, ...") goes down with the sort, to the regular branch only, where the fields it
// names are sort keys and so plain strings: there `$gt`, `$eq` and `$type` on them are exact as SQL
// on their JSON text, and `null` never matches. The other branches hold every row it might match.

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

// translateField: a condition on a field that is a plain string wherever the SQL applies.
func translateField(name string, v any) (string, []any, bool) {
	e := metadata.DefaultColumn + "->'" + name + "'"

	switch v := v.(type) {
	case string:
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
			str, isString := values[i].(string)
			sqlOp, isRange := pushdownOps[op]

			switch {
			case op == "$eq" && isString:
				conds = append(conds, e+" = ?")
				args = append(args, pushdownText(str))
			case isRange && isString && pushdownPlain(pushdownText(str)):
				conds = append(conds, e+" "+sqlOp+" ?")
				args = append(args, pushdownText(str))
			case op == "$type":
				matches, ok := pushdownTypeIsString(values[i])
				if !ok {
					return "", nil, false
				}

				if !matches {
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

// pushdownTypeIsString: whether $type's argument (a name, a number, or an array of them) names string.
func pushdownTypeIsString(v any) (bool, bool) {
	switch v := v.(type) {
	case string:
		return v == "string", true
	case int32:
		return v == 2, true
	case int64:
		return v == 2, true
	case float64:
		return v == 2, true
	case *types.Array:
		found := false

		for i := 0; i < v.Len(); i++ {
			matches, ok := pushdownTypeIsString(must.NotFail(v.Get(i)))
			if !ok {
				return false, false
			}

			found = found || matches
		}

		return found, true
	}

	return false, false
}
