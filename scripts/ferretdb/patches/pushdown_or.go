// Added to FerretDB's SQLite backend by the catalog's build (server/database/embedded/build-ferretdb.ts).

package sqlite

import (
	"slices"
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

	switch {
	case len(sortKeys) == 0:
	case len(p.ors) == 1 && p.ors[0].Len() <= pushdownMaxSplit:
		p.keyset = splitOr(p.ors[0], sortKeys[0], ordered)
	default:
		for _, arr := range p.ors {
			p.boundOr(arr, sortKeys[0])
		}
	}

	return true
}

// pushdownMaxSplit: the most alternatives of an $or that get a regular branch each (a keyset
// cursor has one per sort key, and a sort has at most four pushed down).
const pushdownMaxSplit = 4

// orPart is one alternative of the $or as the regular branch's SQL: its condition and the range of
// the first sort key it implies.
type orPart struct {
	sql    string
	args   []any
	bounds []string
	bArgs  []any
	// fixed: the alternative holds the first sort key at one value, so its branch is not ordered
	// by it: SQLite sorted the rows of an index range on (key = ?, id > ?) in a temporary B-tree when
	// the ORDER BY still named that key (an index's DESC column), every row of the range.
	fixed bool
}

// splitOr: the $or's alternatives, each to be a regular branch of its own, ordered and limited
// (keysetBranches). One bound for the whole $or (boundOr) still leaves SQLite to walk the rows
// that tie with the cursor on the first key: a keyset "before d, or at d and after id" over
// records an import wrote at one time (9,557 parameters of one date) walked the tie up to the
// cursor. Alone, each alternative is a range of the sort's index: "at d and after id" is the
// equality and the range of its index, "before d" a range from d.
func splitOr(arr *types.Array, key string, ordered func(string) bool) []orPart {
	parts := make([]orPart, 0, arr.Len())
	e := metadata.DefaultColumn + "->'" + key + "'"

	for i := 0; i < arr.Len(); i++ {
		d := must.NotFail(arr.Get(i)).(*types.Document)
		sql, args, _ := translateDocument(d, ordered)
		b := boundsOfDocument(d, key)
		bounds, bArgs := b.sql(e)
		fixed := b.hasLo && b.hasHi && b.lo == b.hi && !b.loStrict && !b.hiStrict
		parts = append(parts, orPart{sql: sql, args: args, bounds: bounds, bArgs: bArgs, fixed: fixed})
	}

	return parts
}

// keysetBranches: the regular branch base once for each alternative of the $or, kept apart from the
// alternatives before it (NOT: exact there, where the fields an $or names are plain, never NULL),
// so no row comes twice. Each is ordered and limited: the first rows of the whole are among the
// first rows of its parts, and FerretDB sorts and limits what they return together.
func (p *pushdown) keysetBranches(base pushdownBranch) []pushdownBranch {
	branches := make([]pushdownBranch, 0, len(p.keyset))

	for i, part := range p.keyset {
		b := pushdownBranch{conds: slices.Clone(base.conds), args: slices.Clone(base.args), limited: true}
		if part.fixed {
			b.order = p.order[1:]
		}

		b.conds = append(append(b.conds, part.sql), part.bounds...)
		b.args = append(append(b.args, part.args...), part.bArgs...)

		for _, before := range p.keyset[:i] {
			b.conds = append(b.conds, "NOT "+before.sql)
			b.args = append(b.args, before.args...)
		}

		branches = append(branches, b)
	}

	return branches
}

// boundOr adds to the regular branch the range of the first sort key that the $or implies there,
// where it is not split (splitOr): SQLite takes no bound from an OR, so beside a keyset cursor's
// "after k1, or equal k1 and after k2, ..." it walked the sort's index from the version's first
// row to the cursor, testing each (a page of 30,168 parameters sorted by updatedAt 90% in: 1.2 s
// against 12 ms for the first). The bounds are implied by the $or's SQL, which stays: the rows
// are the same.
func (p *pushdown) boundOr(arr *types.Array, key string) {
	conds, args := boundsOfAny("$or", arr, key).sql(metadata.DefaultColumn + "->'" + key + "'")
	p.or = append(p.or, conds...)
	p.orArgs = append(p.orArgs, args...)
}

// textBounds: what a condition implies of a field's JSON text, as the regular branch's SQL writes
// it (translateAny): at least lo, at most hi, or that it never holds.
type textBounds struct {
	lo, hi             string
	hasLo, hasHi       bool
	loStrict, hiStrict bool // above lo, below hi, not at them
	never              bool
}

func (a textBounds) and(b textBounds) textBounds {
	out := a
	out.never = a.never || b.never

	switch {
	case !b.hasLo:
	case !out.hasLo || b.lo > out.lo:
		out.lo, out.hasLo, out.loStrict = b.lo, true, b.loStrict
	case b.lo == out.lo:
		out.loStrict = out.loStrict || b.loStrict
	}

	switch {
	case !b.hasHi:
	case !out.hasHi || b.hi < out.hi:
		out.hi, out.hasHi, out.hiStrict = b.hi, true, b.hiStrict
	case b.hi == out.hi:
		out.hiStrict = out.hiStrict || b.hiStrict
	}

	return out
}

func (a textBounds) or(b textBounds) textBounds {
	switch {
	case a.never:
		return b
	case b.never:
		return a
	}

	var out textBounds

	if a.hasLo && b.hasLo {
		out.hasLo = true

		switch {
		case a.lo < b.lo:
			out.lo, out.loStrict = a.lo, a.loStrict
		case b.lo < a.lo:
			out.lo, out.loStrict = b.lo, b.loStrict
		default:
			out.lo, out.loStrict = a.lo, a.loStrict && b.loStrict
		}
	}

	if a.hasHi && b.hasHi {
		out.hasHi = true

		switch {
		case a.hi > b.hi:
			out.hi, out.hiStrict = a.hi, a.hiStrict
		case b.hi > a.hi:
			out.hi, out.hiStrict = b.hi, b.hiStrict
		default:
			out.hi, out.hiStrict = a.hi, a.hiStrict && b.hiStrict
		}
	}

	return out
}

// sql: the bounds as conditions on the expression e.
func (a textBounds) sql(e string) ([]string, []any) {
	var conds []string
	var args []any

	bound := func(op, text string) {
		conds, args = append(conds, e+" "+op+" ?"), append(args, text)
	}

	switch {
	case !a.hasLo:
	case a.loStrict:
		bound(">", a.lo)
	default:
		bound(">=", a.lo)
	}

	switch {
	case !a.hasHi:
	case a.hiStrict:
		bound("<", a.hi)
	default:
		bound("<=", a.hi)
	}

	return conds, args
}

// boundsOfAny: the bounds on key of an $or or $and that translateAny wrote.
func boundsOfAny(op string, v any, key string) textBounds {
	arr := v.(*types.Array)
	out := textBounds{never: op == "$or"}

	for i := 0; i < arr.Len(); i++ {
		b := boundsOfDocument(must.NotFail(arr.Get(i)).(*types.Document), key)
		if op == "$or" {
			out = out.or(b)
		} else {
			out = out.and(b)
		}
	}

	return out
}

func boundsOfDocument(d *types.Document, key string) textBounds {
	var out textBounds

	keys, values := d.Keys(), d.Values()
	for i, k := range keys {
		switch k {
		case "$or", "$and":
			out = out.and(boundsOfAny(k, values[i], key))
		case key:
			out = out.and(boundsOfField(values[i]))
		}
	}

	return out
}

// boundsOfField: the bounds of translateField's SQL for one field's condition.
func boundsOfField(v any) textBounds {
	exactly := func(text string) textBounds { return textBounds{lo: text, hi: text, hasLo: true, hasHi: true} }

	switch v := v.(type) {
	case string, time.Time:
		return exactly(pushdownText(v))
	case types.NullType:
		return textBounds{never: true}
	case *types.Document:
		var out textBounds

		ops, values := v.Keys(), v.Values()
		for i, op := range ops {
			_, isString := values[i].(string)
			_, isDate := values[i].(time.Time)

			switch op {
			case "$eq":
				out = out.and(exactly(pushdownText(values[i])))
			case "$gt", "$gte", "$lt", "$lte":
				text := pushdownText(values[i])
				b := textBounds{}

				if op == "$gt" || op == "$gte" {
					b.lo, b.hasLo, b.loStrict = text, true, op == "$gt"
				} else {
					b.hi, b.hasHi, b.hiStrict = text, true, op == "$lt"
				}

				// Kept to the type compared, as translateField writes: strings below '#', dates from '1'.
				switch {
				case isString:
					b = b.and(textBounds{hi: "#", hasHi: true, hiStrict: true})
				case isDate:
					b = b.and(textBounds{lo: "1", hasLo: true})
				}

				out = out.and(b)
			case "$type":
				strs, dates, _ := pushdownTypeNames(values[i])

				switch {
				case strs && !dates:
					out = out.and(textBounds{hi: "#", hasHi: true, hiStrict: true})
				case dates && !strs:
					out = out.and(textBounds{lo: "1", hasLo: true})
				case !strs && !dates:
					out = out.and(textBounds{never: true})
				}
			}
		}

		return out
	}

	return textBounds{}
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
