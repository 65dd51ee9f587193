// Added to FerretDB's SQLite backend by the catalog's build (server/database/embedded/build-ferretdb.ts).

package sqlite

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// The filter's conditions on top-level string (and ObjectId, number) fields become a SQL prefilter written
// with the expression createIndex indexes a field by (_ferretdb_sjson->'field'), so SQLite can
// SEARCH an index. The handler still applies the whole filter, sort and limit to what is returned:
// the prefilter only has to pass every document the filter matches. When the whole filter is
// pushed down, a sort on string fields and its limit are pushed down too.
//
// The prefilter is a UNION ALL of disjoint branches. A "regular" field is a scalar that matches as
// its JSON text does: equal text for $eq (an array matches by its elements: arrays have branches of
// their own, an index range, as their JSON text starts with '['); for a range or a sort, a "plain"
// string, whose JSON text orders as the string does (no escape, no byte below '#', which would sort
// before the closing quote; not an ObjectId, binData or regex, which sjson writes as strings too).
// The rows where some ordered field is not plain have branches per such field, each an index
// range: missing, not a string, or an odd string (a partial index holds those:
// metadata/plain_indexes.go). With
// a limit, only the all-regular branch is ordered and cut, which is exact: there every condition
// is the filter's own, types included.

var pushdownName = metadata.PlainName

// pushdownMaxIn bounds the values of an $in pushed down: each branch binds them again, and SQLite
// takes at most 32,766 variables a statement; a longer $in is left to the handler.
const pushdownMaxIn = 500

// pushdownMaxFields bounds the branches (2^fields); conditions on further fields are left to the handler.
const pushdownMaxFields = 4

type pushdownField struct {
	name   string
	typ    string     // the values compared with: string, objectId, number or date; "ordered" for a sort key with no condition
	eqs    [][]string // per equality, the JSON texts of the values equal to it
	bounds []pushdownBound
	sorted bool // a key of the sort pushed down
}

type pushdownBound struct{ op, text string }

type pushdown struct {
	fields []*pushdownField
	exact  bool // the filter is nothing but the conditions in fields and ors
	ors    []*types.Array
	order  []string
	limit  int64
	or     []string // the ors as SQL, for the regular branch, when the sort is pushed down
	orArgs []any
	keyset []orPart      // the one $or's alternatives, each the regular branch of its own (pushdown_or.go splitOr)
	alts   []pushdownAlt // an $or on one path (pushdown_path.go): each branch is cut into one per alternative
}

// pushdownQuery returns the query for selectClause with the filter, sort and limit pushed down
// as far as they can be; natural: the capped collections' $natural order, where only the original
// lookup by _id is pushed down.
func pushdownQuery(selectClause string, natural bool, filter, sort *types.Document, limit int64) (string, []any, bool) {
	if natural {
		if filter.Len() == 1 {
			v, _ := filter.Get("_id")
			switch v.(type) {
			case string, types.ObjectID:
				return selectClause + fmt.Sprintf(` WHERE %s = ?`, metadata.IDColumn), []any{pushdownText(v)}, true
			}
		}

		return selectClause, nil, false
	}

	p := &pushdown{exact: true}
	p.collect(filter)
	p.sortBy(sort, limit)

	if len(p.fields) == 0 && len(p.alts) == 0 {
		return selectClause, nil, false
	}

	q, args := p.query(selectClause)

	return q, args, true
}

func pushdownText(v any) string {
	return string(must.NotFail(sjson.MarshalSingleValue(v)))
}

func (p *pushdown) collect(filter *types.Document) {
	keys, values := filter.Keys(), filter.Values()

	for i, key := range keys {
		switch {
		case key == "$comment":
		case key == "$and":
			p.collectAll(values[i])
		case key == "$or":
			if alts, ok := pathAlternatives(values[i]); ok && p.alts == nil {
				p.alts = alts
				p.exact = false
			} else if arr, ok := values[i].(*types.Array); ok {
				p.ors = append(p.ors, arr)
			} else {
				p.exact = false
			}
		case !pushdownName.MatchString(key):
			p.exact = false
		default:
			p.collectField(key, values[i])
		}
	}
}

func (p *pushdown) collectAll(v any) {
	arr, ok := v.(*types.Array)
	if !ok {
		p.exact = false
		return
	}

	for i := 0; i < arr.Len(); i++ {
		if d, ok := must.NotFail(arr.Get(i)).(*types.Document); ok {
			p.collect(d)
		} else {
			p.exact = false
		}
	}
}

func (p *pushdown) collectField(name string, v any) {
	d, ok := v.(*types.Document)
	if !ok || d.Len() == 0 || !strings.HasPrefix(d.Keys()[0], "$") {
		p.exact = p.condition(name, "$eq", v) && p.exact
		return
	}

	ops, values := d.Keys(), d.Values()
	for i, op := range ops {
		p.exact = p.condition(name, op, values[i]) && p.exact
	}
}

var pushdownOps = map[string]string{"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}

// condition adds one condition on a field, if it can be pushed down.
func (p *pushdown) condition(name, op string, v any) bool {
	if op == "$in" {
		return p.in(name, v)
	}

	typ, texts := pushdownTexts(v)
	sqlOp, isRange := pushdownOps[op]

	switch {
	case typ == "":
		return false
	case op != "$eq" && !isRange:
		return false
	case isRange && !(typ == "string" && pushdownPlain(texts[0])) && !(typ == "date" && pushdownPlainDate(texts[0])):
		return false
	}

	f := p.field(name)
	if f == nil || (f.typ != "" && f.typ != typ) {
		return false
	}

	f.typ = typ

	if isRange {
		f.bounds = append(f.bounds, pushdownBound{sqlOp, texts[0]})
	} else {
		f.eqs = append(f.eqs, texts)
	}

	return true
}

// in adds an $in of values of one type that pushdownTexts writes: one equality whose JSON texts
// are those of all its values (an array holding one of them matches too, as for $eq).
func (p *pushdown) in(name string, v any) bool {
	arr, ok := v.(*types.Array)
	if !ok || arr.Len() == 0 || arr.Len() > pushdownMaxIn {
		return false
	}

	var typ string
	var texts []string

	for i := 0; i < arr.Len(); i++ {
		t, some := pushdownTexts(must.NotFail(arr.Get(i)))
		if t == "" || (typ != "" && t != typ) {
			return false
		}

		typ = t
		texts = append(texts, some...)
	}

	f := p.field(name)
	if f == nil || (f.typ != "" && f.typ != typ) {
		return false
	}

	f.typ = typ
	f.eqs = append(f.eqs, texts)

	return true
}

// pushdownTexts returns the JSON texts sjson gives the values MongoDB holds equal to v. A number:
// an int, long or double of the same value is written alike, but for 0, also "-0"; beyond 2^53 a
// double's shortest text is not its digits, so numbers from 2^53 on are not pushed down.
func pushdownTexts(v any) (string, []string) {
	var f float64

	switch v := v.(type) {
	case string:
		return "string", []string{pushdownText(v)}
	case types.ObjectID:
		return "objectId", []string{pushdownText(v)}
	case time.Time:
		return "date", []string{pushdownText(v)}
	case int32:
		f = float64(v)
	case int64:
		if v >= 1<<53 || v <= -1<<53 {
			return "", nil
		}

		f = float64(v)
	case float64:
		f = v
	default:
		return "", nil
	}

	if math.IsNaN(f) || math.Abs(f) >= 1<<53 {
		return "", nil
	}

	if f == 0 {
		return "number", []string{"0", "-0"}
	}

	return "number", []string{pushdownText(f)}
}

// pushdownPlain is the Go twin of pushdownField.plain for a string.
func pushdownPlain(text string) bool {
	return len(text) >= 2 && text[0] == '"' && !strings.ContainsAny(text[1:len(text)-1], `\ !"`)
}

// pushdownPlainDate is the Go twin of pushdownField.plain for a date's text (metadata.PlainDateSQL).
func pushdownPlainDate(text string) bool {
	if len(text) != 13 || text[0] < '1' || text[0] > '9' {
		return false
	}

	return strings.Trim(text, "0123456789") == ""
}

func (p *pushdown) field(name string) *pushdownField {
	for _, f := range p.fields {
		if f.name == name {
			return f
		}
	}

	if len(p.fields) == pushdownMaxFields {
		return nil
	}

	f := &pushdownField{name: name}
	p.fields = append(p.fields, f)

	return f
}

// sortBy pushes the sort and its limit down when the whole filter is pushed down and the sort's
// keys are fields with string, date or no conditions (then plain strings and plain dates are
// ordered together: their texts order as MongoDB orders them, strings first).
func (p *pushdown) sortBy(sort *types.Document, limit int64) {
	if !p.exact || limit <= 0 || sort.Len() == 0 {
		return
	}

	keys, values := sort.Keys(), sort.Values()
	added := 0

	for _, key := range keys {
		f := p.find(key)

		switch {
		case !pushdownName.MatchString(key):
			return
		case f == nil:
			added++
		case f.typ != "string" && f.typ != "date":
			return
		}
	}

	if len(p.fields)+added > pushdownMaxFields || !p.translateOrs(keys) {
		return
	}

	for i, key := range keys {
		f := p.field(key)
		if f.typ == "" {
			f.typ = "ordered"
		}

		// Equal to one value in the regular branch: that key orders nothing there.
		if len(f.eqs) > 0 && len(f.bounds) == 0 && !f.sorted {
			continue
		}

		f.sorted = true
		term := f.expr()

		if values[i] == int64(-1) {
			term += " DESC"
		}

		p.order = append(p.order, term)
	}

	p.limit = limit
}

func (p *pushdown) find(name string) *pushdownField {
	for _, f := range p.fields {
		if f.name == name {
			return f
		}
	}

	return nil
}
